"""What a Člověk character may do with its dice: spend them, act once per turn in one type, burn stun for more.

clovek.md, "Actions, reactions, turns" and "Burning". Pure functions from a combatant (and the encounter, for
the clock and the GM's track sizes) to the changed combatant; they raise OperationError with a sentence for
the GM when the rules say no. Turn rules and the per-round burn limit apply while a round runs (after
initiative and before the round ends); outside a round, spending dice is all there is to count.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Final

from rules.encounter import Combatant, Encounter, frozen_map, with_item
from rules.errors import OperationError
from rules.systems.base import RuleSystem
from rules.systems.clovek.banks import (
    BANKS,
    BURNT,
    DEXTERITY,
    PHYSICAL,
    STUN,
    bank,
    bank_word,
    burnt_this_round,
    check_bank,
    extra_map,
    track_key,
    track_sizes,
    with_extra,
    with_spent,
)
from rules.text import N_, _, ngettext

ACTION: Final[str] = "action"
REACTION: Final[str] = "reaction"
ROLES: Final[tuple[str, ...]] = (ACTION, REACTION)
#: The GM's option: whether the off-hand action burns a stun wound (clovek.md Decision: it does not, by default).
OFF_HAND_BURNS: Final[str] = "off_hand_burns"
#: Marks a combatant that took its off-hand action this round (``extra``; forgotten with the round).
OFF_HAND_TAKEN: Final[str] = "off_hand_taken"


class ExtraAction(StrEnum):
    """What grants an action after the first of a round: "Extra actions come only from abilities, equipment or
    the situation"; each burns one stun wound, "usually" ("většinou": some equipment or abilities give one without
    burning); in a physical conflict the hand the first action did not use gives one more (clovek.md)."""

    ABILITY = "ability"  # an ability or equipment: one stun wound
    ABILITY_FREE = "ability_free"  # an ability or equipment that gives it without burning
    SITUATION = "situation"  # the situation: one stun wound
    OFF_HAND = "off_hand"  # the free hand in a physical conflict: what it costs is the GM's option


_GRANTS: Final[frozenset[str]] = frozenset(ExtraAction)

#: How the window names each grant (translated when shown).
EXTRA_ACTION_LABELS: Final[dict[ExtraAction, str]] = {
    ExtraAction.ABILITY: N_("an ability or equipment (burns a stun wound)"),
    ExtraAction.ABILITY_FREE: N_("an ability or equipment, without burning"),
    ExtraAction.SITUATION: N_("the situation (burns a stun wound)"),
    ExtraAction.OFF_HAND: N_("the off hand, in a physical conflict (no stun)"),
}


@dataclass(frozen=True)
class Grant:
    """What grants an action, as an operation records it. ``kind`` None: recorded before Bojovka asked (an older
    fight), when any extra action burnt a stun wound unless ``free``; "" : nothing named (refused for an extra
    action). ``off_hand_burns``: the GM's option for the off hand (clovek.md Decision: no stun by default)."""

    kind: str | None = None
    free: bool = False
    off_hand_burns: bool = False


def round_running(encounter: Encounter) -> bool:
    """Whether a round is under way (initiative rolled, the round not ended yet)."""
    return encounter.clock.pass_no > 0


def check_role(role: str) -> str:
    """``role`` if it is an action or a reaction, else an OperationError."""
    if role not in ROLES:
        raise OperationError(_("An activity is an action or a reaction, not {role!r}.").format(role=role))
    return role


def action_type(combatant: Combatant) -> str | None:
    """The type of this round's actions (physical, social, mental), or None before the first one."""
    return next((name for name in BANKS if combatant.actions_used.get(name, 0) > 0), None)


def actions_taken(combatant: Combatant) -> int:
    """Actions taken this round (the first plus any bonus actions)."""
    return sum(combatant.actions_used.get(name, 0) for name in BANKS)


def spend_dice(combatant: Combatant, name: str, dice: int) -> Combatant:
    """Take ``dice`` dice out of the bank until the end of the round: at least one, at most what is left."""
    pool = bank(combatant, check_bank(name))
    if dice < 1:
        raise OperationError(_("Every activity needs at least one die."))
    if pool.remaining == 0:
        raise OperationError(_("{name} has no {bank} dice left this round: the attempt fails.").format(
            name=combatant.name, bank=bank_word(name)))
    if dice > pool.remaining:
        raise OperationError(ngettext("{name} has only {left} {bank} die left.",
                                      "{name} has only {left} {bank} dice left.", pool.remaining).format(
            name=combatant.name, left=pool.remaining, bank=bank_word(name)))
    return with_spent(combatant, name, pool.spent + dice)


def _require_turn(combatant: Combatant, encounter: Encounter) -> None:
    current = encounter.clock.current
    if current is None or combatant.id not in current.ids:
        raise OperationError(_("{name} acts only in their own turn; a reaction can come at any time.").format(
            name=combatant.name))


def take_action(combatant: Combatant, name: str, encounter: Encounter, grant: Grant | None = None) -> tuple[
        Combatant, bool]:
    """Record an action of the bank's type; returns the combatant and whether a stun wound was burnt for it.

    All of a turn's actions share one type; every action after the first is an extra action that something must
    grant (``grant``, see :class:`ExtraAction`), burning one stun wound of its type unless the grant is free.
    """
    check_bank(name)
    if not round_running(encounter):
        return combatant, False  # no round, no turn: only the dice count
    _require_turn(combatant, encounter)
    chosen = action_type(combatant)
    if chosen is not None and chosen != name:
        raise OperationError(_("{name}'s actions this round are {chosen}: no {bank} action until the next round, "
                               "only reactions.").format(name=combatant.name, chosen=bank_word(chosen),
                                                         bank=bank_word(name)))
    burnt = False
    if chosen is not None:
        combatant, burnt = _extra_action(combatant, name, grant or Grant())
    if burnt:
        combatant = burn_stun(combatant, name, 1, encounter)
    used = combatant.actions_used.get(name, 0) + 1
    return replace(combatant, actions_used=with_item(combatant.actions_used, name, used)), burnt


def grant_of(kind: str | None, free: bool, encounter: Encounter, system: RuleSystem) -> Grant:
    """What an operation's extra-action fields grant (a value no grant has is refused even on a first action, so
    a file never keeps one); the off-hand option is read only for an off-hand action."""
    if kind and kind not in _GRANTS:
        raise OperationError(_("An extra action comes from an ability, equipment, the situation or the off hand, "
                               "not {grant!r}.").format(grant=kind))
    burns = kind == ExtraAction.OFF_HAND and system.option(encounter, OFF_HAND_BURNS) is True
    return Grant(kind, free, burns)


def _extra_action(combatant: Combatant, name: str, grant: Grant) -> tuple[Combatant, bool]:
    """The combatant with its extra action's grant recorded, and whether it burns a stun wound."""
    if grant.kind is None:  # an older fight: any extra action was allowed
        return combatant, not grant.free
    if not grant.kind:
        raise OperationError(_("{name} has already acted this round, and \u201cextra actions come only from "
                               "abilities, equipment or the situation\u201d: say what grants this one.").format(
            name=combatant.name))
    if grant.kind != ExtraAction.OFF_HAND:
        return combatant, grant.kind != ExtraAction.ABILITY_FREE
    if name != PHYSICAL:
        raise OperationError(_("Only a physical conflict gives an off-hand action (\u201cone more action may be "
                               "made with the hand not used for the first\u201d)."))
    if combatant.extra.get(OFF_HAND_TAKEN):
        raise OperationError(_("{name} has already taken the off-hand action this round.").format(
            name=combatant.name))
    return with_extra(combatant, OFF_HAND_TAKEN, True), grant.off_hand_burns


def burn_limit_left(combatant: Combatant, name: str, encounter: Encounter) -> int:
    """Stun wounds of the type the character may still burn this round (its dexterity attribute per round)."""
    if not round_running(encounter):
        return max(0, combatant.attribute(DEXTERITY[name]))
    return max(0, combatant.attribute(DEXTERITY[name]) - burnt_this_round(combatant, name))


def stun_room(combatant: Combatant, name: str, encounter: Encounter) -> int:
    """Free boxes on the bank type's stun track."""
    size = track_sizes(encounter)[name, STUN]
    return max(0, size - combatant.boxes(track_key(name, STUN)))


def burn_stun(combatant: Combatant, name: str, count: int, encounter: Encounter) -> Combatant:
    """Mark ``count`` burnt stun wounds of the type (armor never reduces them), within the round's limit."""
    check_bank(name)
    if count < 1:
        raise OperationError(_("Burn at least one stun wound."))
    left = burn_limit_left(combatant, name, encounter)
    if count > left:
        raise OperationError(ngettext(
            "{name} may burn only {left} more {bank} stun wound this round.",
            "{name} may burn only {left} more {bank} stun wounds this round.", left).format(
            name=combatant.name, left=left, bank=bank_word(name)))
    room = stun_room(combatant, name, encounter)
    if count > room:
        raise OperationError(ngettext("{name}'s {bank} stun track has room for only {left} more wound.",
                                      "{name}'s {bank} stun track has room for only {left} more wounds.",
                                      room).format(name=combatant.name, bank=bank_word(name), left=room))
    key = track_key(name, STUN)
    burnt = combatant.with_damage(key, combatant.boxes(key) + count)
    if not round_running(encounter):
        return burnt
    record = with_item(extra_map(burnt, BURNT), name, burnt_this_round(burnt, name) + count)
    return with_extra(burnt, BURNT, record)


def restore_dice(combatant: Combatant, name: str, count: int, encounter: Encounter) -> Combatant:
    """Burn ``count`` stun wounds of the bank's type for as many dice back, never above the bank's maximum."""
    spent = bank(combatant, check_bank(name)).spent
    if count > spent:
        raise OperationError(ngettext("Only {count} {bank} die is spent: a bank never holds more than its maximum.",
                                      "Only {count} {bank} dice are spent: a bank never holds more than its "
                                      "maximum.", spent).format(count=spent, bank=bank_word(name)))
    burnt = burn_stun(combatant, name, count, encounter)
    return with_spent(burnt, name, spent - count)


def new_round(combatant: Combatant) -> Combatant:
    """Forget the round's actions, burn count and off-hand action (the banks refill separately)."""
    if not combatant.actions_used and BURNT not in combatant.extra and OFF_HAND_TAKEN not in combatant.extra:
        return combatant
    extra = frozen_map({key: value for key, value in combatant.extra.items() if key not in (BURNT, OFF_HAND_TAKEN)})
    return replace(combatant, actions_used=frozen_map(), extra=extra)
