"""Walka's two actions per round, and what some of them leave behind for later.

Every combatant has two actions a round; any action may be taken twice, Prepare and Aim too. A second attack in
the round, and an attack after a weapon change in the same round, roll with one penalty die. Prepare spends an
action now for one advantage die on the prepared action next round (two Prepares: a die on each). Aim (a
**Decision**: it costs ``aim_actions`` actions and lasts for the next attack in the same or, by option, also the
next round) doubles the next attack's damage pool, once however often it is taken. Move is exactly 5 squares
(10 m) per action; both actions on moving is a Run. Stand up is needed after being knocked down, before fighting
again.

The counts for the round live in ``Combatant.actions_used``; what outlasts the round (prepared, aimed,
knocked down) lives in ``Combatant.extra`` with the round it happened in.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import Final

from rules.encounter import Combatant, Encounter, frozen_map, with_item, without_item
from rules.errors import OperationError
from rules.text import N_, _, ngettext

ACTIONS_PER_ROUND: Final[int] = 2
SQUARES_PER_MOVE: Final[int] = 5
METRES_PER_MOVE: Final[int] = 10

ATTACK, CHANGE_WEAPON, NON_COMBAT = "attack", "change_weapon", "non-combat"
MOVE, RUN, STAND_UP, PREPARE, AIM = "move", "run", "stand_up", "prepare", "aim"
#: Budget keys read in the generic log line "X takes a … action": "combat" is an attack made outside the dialog.
COMBAT_ALIAS: Final[str] = "combat"

ACTION_LABELS: Final[Mapping[str, str]] = MappingProxyType({
    ATTACK: N_("Attack"),
    CHANGE_WEAPON: N_("Change weapon"),
    NON_COMBAT: N_("Non-combat action"),
    MOVE: N_("Move"),
    RUN: N_("Run"),
    STAND_UP: N_("Stand up"),
    PREPARE: N_("Prepare"),
    AIM: N_("Aim"),
})

# Extras a combatant carries between actions (values: the round it happened in, or True). A second Prepare in a
# round (walka.md: "any action may be taken twice … so Aim and Prepare too") is its own mark: one die each.
PREPARED, AIMED, KNOCKED_DOWN, HOLDING_ON = "prepared", "aimed", "knocked_down", "holding_on"
PREPARED_TWICE = "prepared_twice"
#: A second Aim before the same attack (walka.md Decision: it "does not double again (default …; option: it does)"):
#: marked only when the option says it doubles again.
AIMED_TWICE = "aimed_twice"
#: walka.md Decision: "no dying or bleeding state … any such state is a GM-set status": set at 0 Hit Points.
DYING = "dying"
#: What each Prepare was declared for (walka.md: "do konkretnego wydarzenia", for a specific event), by its mark.
EVENT_OF: Final[dict[str, str]] = {PREPARED: "prepared_event", PREPARED_TWICE: "prepared_twice_event"}
#: Squares a character's Moves fell short of 5 this round (walka.md Decision: 5 squares is the most per Move).
MOVED_SHORT = "moved_short"

AIM_NEXT_ROUND, AIM_SAME_ROUND = "next_round", "same_round"


def used(combatant: Combatant) -> int:
    """Actions spent this round."""
    return sum(combatant.actions_used.values())


def left(combatant: Combatant) -> int:
    """Actions still to spend this round."""
    return max(0, ACTIONS_PER_ROUND - used(combatant))


def attack_penalty_dice(combatant: Combatant) -> int:
    """Penalty dice the next attack carries from this round's actions: 1 after an attack or a weapon change."""
    spent = combatant.actions_used
    return 1 if spent.get(ATTACK, 0) or spent.get(CHANGE_WEAPON, 0) else 0


def _round_of(combatant: Combatant, key: str) -> int | None:
    value = combatant.extra.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def prepared_now(combatant: Combatant, encounter: Encounter) -> bool:
    """Whether the combatant prepared an action last round: one advantage die on it this round."""
    return prepared_dice(combatant, encounter) > 0


def prepared_dice(combatant: Combatant, encounter: Encounter) -> int:
    """Advantage dice left from last round's Prepares: one per prepared action (at most two, like any action)."""
    last = encounter.clock.round - 1
    return sum(1 for key in (PREPARED, PREPARED_TWICE) if _round_of(combatant, key) == last)


def use_prepared_die(combatant: Combatant, encounter: Encounter) -> Combatant:
    """One of last round's prepared dice used (the second Prepare's first, so one Prepare keeps its old mark)."""
    last = encounter.clock.round - 1
    for key in (PREPARED_TWICE, PREPARED):
        if _round_of(combatant, key) == last:
            return _forget_prepared(combatant, key)
    return combatant


def _forget_prepared(combatant: Combatant, key: str) -> Combatant:
    return with_extra(with_extra(combatant, key, None), EVENT_OF[key], None)


def name_prepared(combatant: Combatant, encounter: Encounter, event: str) -> Combatant:
    """The event this round's latest Prepare was declared for."""
    key = PREPARED_TWICE if _round_of(combatant, PREPARED_TWICE) == encounter.clock.round else PREPARED
    return with_extra(combatant, EVENT_OF[key], event)


def prepared_events(combatant: Combatant, encounter: Encounter) -> list[str]:
    """What last round's Prepares were declared for (those that named an event)."""
    last = encounter.clock.round - 1
    events = [combatant.extra.get(EVENT_OF[key]) for key in (PREPARED, PREPARED_TWICE)
              if _round_of(combatant, key) == last]
    return [event for event in events if isinstance(event, str) and event]


def prepared_this_round(combatant: Combatant, encounter: Encounter) -> bool:
    """Whether the combatant spent an action preparing in the current round."""
    return _round_of(combatant, PREPARED) == encounter.clock.round


def aimed_now(combatant: Combatant, encounter: Encounter, lasts: str) -> bool:
    """Whether the next attack's damage pool is doubled: aimed this round, or last round if aim lasts that long."""
    return _aim_holds(combatant, encounter, lasts, AIMED)


def aimed_twice_now(combatant: Combatant, encounter: Encounter, lasts: str) -> bool:
    """Whether it aimed a second time before the next attack, where a second Aim doubles again (the option)."""
    return aimed_now(combatant, encounter, lasts) and _aim_holds(combatant, encounter, lasts, AIMED_TWICE)


def _aim_holds(combatant: Combatant, encounter: Encounter, lasts: str, key: str) -> bool:
    aimed = _round_of(combatant, key)
    if aimed is None:
        return False
    rounds = {encounter.clock.round} | ({encounter.clock.round - 1} if lasts == AIM_NEXT_ROUND else set())
    return aimed in rounds


def knocked_down(combatant: Combatant) -> bool:
    """Whether the combatant must stand up before fighting again."""
    return combatant.extra.get(KNOCKED_DOWN) is True


def dying(combatant: Combatant) -> bool:
    """Whether the GM has said the character is dying (until stabilised or healed)."""
    return combatant.extra.get(DYING) is True


def holding_on(combatant: Combatant) -> bool:
    """Whether a Chance keeps the combatant conscious at 0 Hit Points."""
    return combatant.extra.get(HOLDING_ON) is True


def with_extra(combatant: Combatant, key: str, value: int | bool | str | None) -> Combatant:
    """A copy with one extra set (None removes it)."""
    if value is None:
        if key not in combatant.extra:
            return combatant
        return replace(combatant, extra=without_item(combatant.extra, key))
    return replace(combatant, extra=with_item(combatant.extra, key, value))


def cost(kind: str, aim_actions: int) -> int:
    """Actions an action takes: a run is both, aiming as the option says, everything else one."""
    if kind == RUN:
        return ACTIONS_PER_ROUND
    if kind == AIM:
        return aim_actions
    return 1


def check_kind(kind: str) -> str:
    """The action kind, with the generic budget's aliases resolved; OperationError if unknown."""
    kind = ATTACK if kind == COMBAT_ALIAS else kind
    if kind not in ACTION_LABELS:
        names = ", ".join(_(label) for label in ACTION_LABELS.values())
        raise OperationError(_("Unknown action {kind!r}: {names}.").format(kind=kind, names=names))
    return kind


#: walka.md, Stand up: "while down a character may not Attack or Aim (default: those are the fighting)"; the GM
#: may change the list (encounter option).
DOWN_FORBIDS_DEFAULT: Final[tuple[str, ...]] = (ATTACK, AIM)
#: What the GM may forbid a knocked-down character (Stand up is what ends it).
DOWN_FORBIDDABLE: Final[tuple[str, ...]] = tuple(kind for kind in ACTION_LABELS if kind != STAND_UP)


def check_allowed(combatant: Combatant, kind: str, encounter: Encounter, aim_actions: int,
                  down_forbids: frozenset[str] = frozenset(DOWN_FORBIDS_DEFAULT)) -> None:
    """Refuse an action the rules do not allow now, with the reason (``down_forbids``: what a knocked-down
    character may not do before standing up)."""
    current = encounter.clock.current
    if current is None or combatant.id not in current.ids:
        raise OperationError(_("{name} can act only in their seat's turn.").format(name=combatant.name))
    needed = cost(kind, aim_actions)
    if left(combatant) < needed:
        raise OperationError(_("{name} has {left} of {total} actions left this round; {action} needs {needed}.")
                             .format(name=combatant.name, left=left(combatant), total=ACTIONS_PER_ROUND,
                                     action=_(ACTION_LABELS[kind]), needed=needed))
    if kind == STAND_UP and not knocked_down(combatant):
        raise OperationError(_("{name} is not knocked down.").format(name=combatant.name))
    if kind in down_forbids and knocked_down(combatant):
        refuse_while_down(combatant, kind)


def refuse_while_down(combatant: Combatant, kind: str) -> None:
    """OperationError: ``kind`` must wait until the knocked-down ``combatant`` stands up."""
    if kind in (ATTACK, AIM):
        raise OperationError(_("{name} is knocked down and must stand up before fighting again.").format(
            name=combatant.name))
    raise OperationError(_("{name} is knocked down: “{action}” waits until they stand up (encounter settings say "
                           "what a knocked-down character may not do).").format(
        name=combatant.name, action=_(ACTION_LABELS[kind])))


def moved_short(combatant: Combatant, squares: int) -> Combatant:
    """A Move of ``squares`` (1 to 5): what it fell short of 5 is kept for the round's distance."""
    short = combatant.extra.get(MOVED_SHORT)
    before = short if isinstance(short, int) and not isinstance(short, bool) else 0
    return with_extra(combatant, MOVED_SHORT, before + SQUARES_PER_MOVE - squares)


def record(combatant: Combatant, kind: str, encounter: Encounter, aim_actions: int,
           aim_again: bool = False, lasts: str = AIM_NEXT_ROUND) -> Combatant:
    """Count the action and note what it leaves behind (a prepared action, an aim, standing up); ``aim_again``: a
    second Aim before the same attack doubles again (the option), lasting as ``lasts`` says."""
    counted = MOVE if kind == RUN else kind
    spent = dict(combatant.actions_used)
    spent[counted] = spent.get(counted, 0) + cost(kind, aim_actions)
    updated = replace(combatant, actions_used=frozen_map(spent))
    if kind == PREPARE:
        twice = prepared_this_round(combatant, encounter)
        key = PREPARED_TWICE if twice else PREPARED
        return with_extra(with_extra(updated, key, encounter.clock.round), EVENT_OF[key], None)  # named after
    if kind == AIM:
        again = aim_again and aimed_now(combatant, encounter, lasts)
        return with_extra(updated, AIMED_TWICE if again else AIMED, encounter.clock.round)
    if kind == STAND_UP:
        return with_extra(updated, KNOCKED_DOWN, None)
    return updated


def new_round(combatant: Combatant, round_no: int) -> Combatant:
    """A new round: the counts start over and what can no longer be used is forgotten."""
    updated = replace(combatant, actions_used=frozen_map()) if combatant.actions_used else combatant
    updated = with_extra(updated, MOVED_SHORT, None)
    for key in (PREPARED, PREPARED_TWICE, AIMED, AIMED_TWICE):
        happened = _round_of(updated, key)
        if happened is not None and happened < round_no - 1:
            updated = _forget_prepared(updated, key) if key in EVENT_OF else with_extra(updated, key, None)
    return updated


def moved_text(combatant: Combatant) -> str:
    """How far the combatant moved this round ("" if not at all)."""
    moves = combatant.actions_used.get(MOVE, 0)
    if not moves:
        return ""
    short = combatant.extra.get(MOVED_SHORT)
    squares = moves * SQUARES_PER_MOVE - (short if isinstance(short, int) and not isinstance(short, bool) else 0)
    metres = squares * METRES_PER_MOVE // SQUARES_PER_MOVE
    if moves >= ACTIONS_PER_ROUND:
        text = ngettext("running: {count} square ({metres} m)", "running: {count} squares ({metres} m)", squares)
    else:
        text = ngettext("moved {count} square ({metres} m)", "moved {count} squares ({metres} m)", squares)
    return text.format(count=squares, metres=metres)
