"""One round of Institute: declared actions, held declarations, skipping, and what they cost in dice.

A combatant normally has one action a round. It may declare more, but every additional action takes one die
from every roll it makes that round (cumulative). A held declaration ("if he shoots, I dodge") is a declared
action too; it is used up whether or not its condition comes. The counters live in ``actions_used``:
``declared`` (plain actions declared), ``taken`` (plain actions done) and ``held`` (conditional declarations
made); the conditions still pending are ``extra["held"]``. Everything resets when the round ends.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Final

from rules.encounter import Combatant, Encounter, JsonValue, frozen_map, with_item
from rules.errors import OperationError
from rules.systems.institut.tables import Modifiers
from rules.text import _

DECLARED, TAKEN, HELD = "declared", "taken", "held"
HELD_CONDITIONS: Final[str] = "held"  # extra: the conditions of pending held declarations
SKIPPED: Final[str] = "skipped"  # extra: the round the combatant gave up entirely
AMBUSH: Final[str] = "ambush"  # extra: in place first and prepared (+3 dice to hit in round one)
DEAD: Final[str] = "dead"  # extra: the GM ruled the character dead
IN_HAND: Final[str] = "in_hand"  # extra: holds an object that can block a shot (a shield, a blade…)
PYRAMID: Final[str] = "pyramid"  # extra: the character's own pyramid
SUPPRESSION: Final[str] = "suppression"  # extra: the area this shooter keeps under fire this round
MAX_DECLARED: Final[int] = 10
MAX_CONDITION: Final[int] = 200


@dataclass(frozen=True)
class RoundActions:
    """A combatant's actions this round."""

    declared: int = 0
    taken: int = 0
    held: int = 0
    pending: tuple[str, ...] = ()

    @property
    def total_declared(self) -> int:
        """Plain and held declarations together (what the penalty counts)."""
        return self.declared + self.held

    @property
    def free(self) -> int:
        """Plain declared actions not yet done."""
        return max(0, self.declared - self.taken)

    @property
    def extra(self) -> int:
        """Actions beyond the first: each costs one die on every roll this round."""
        return max(0, self.total_declared - 1)

    @property
    def nothing_declared(self) -> bool:
        """No declaration yet this round (the character still has its one normal action)."""
        return self.total_declared == 0


def round_actions(combatant: Combatant) -> RoundActions:
    """The combatant's counters for the current round."""
    used = combatant.actions_used
    pending = combatant.extra.get(HELD_CONDITIONS, ())
    conditions = tuple(str(item) for item in pending) if isinstance(pending, tuple) else ()
    return RoundActions(used.get(DECLARED, 0), used.get(TAKEN, 0), used.get(HELD, 0), conditions)


def with_actions(combatant: Combatant, actions: RoundActions) -> Combatant:
    """A copy with the round's counters replaced (zero counters are left out, so a fresh round is empty)."""
    counters = {key: value for key, value in ((DECLARED, actions.declared), (TAKEN, actions.taken),
                                              (HELD, actions.held)) if value}
    extra = dict(combatant.extra)
    if actions.pending:
        extra[HELD_CONDITIONS] = actions.pending
    else:
        extra.pop(HELD_CONDITIONS, None)
    return replace(combatant, actions_used=frozen_map(counters), extra=frozen_map(extra))


def after_action(actions: RoundActions, held: str = "") -> RoundActions:
    """The counters once one more action is done: a held one, a declared one, or a newly declared one."""
    if held:
        if held not in actions.pending:
            raise OperationError(_("There is no held action “{condition}”.").format(condition=held))
        pending = list(actions.pending)
        pending.remove(held)
        return replace(actions, pending=tuple(pending))
    if actions.free:
        return replace(actions, taken=actions.taken + 1)
    return replace(actions, declared=actions.taken + 1, taken=actions.taken + 1)


def action_penalty(actions: RoundActions, modifiers: Modifiers) -> int:
    """Dice off every roll this round for the declared actions (a positive number)."""
    return -modifiers.extra_action * actions.extra


def skipped_round(combatant: Combatant) -> int | None:
    """The round this combatant gave up entirely, if any."""
    value = combatant.extra.get(SKIPPED)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def skips_this_round(combatant: Combatant, encounter: Encounter) -> bool:
    """Gave up the current round."""
    return encounter.clock.round > 0 and skipped_round(combatant) == encounter.clock.round


def goes_first(combatant: Combatant, encounter: Encounter) -> bool:
    """Gave up the previous round, so acts before everyone who did not (ties rolled among them)."""
    round_number = encounter.clock.round
    return round_number > 1 and skipped_round(combatant) == round_number - 1


def flag(combatant: Combatant, key: str) -> bool:
    """A yes/no mark in the combatant's extra data."""
    return combatant.extra.get(key) is True


def with_flag(combatant: Combatant, key: str, value: bool) -> Combatant:
    """A copy with a yes/no mark set (False removes it)."""
    extra = dict(combatant.extra)
    if value:
        extra[key] = True
    else:
        extra.pop(key, None)
    return replace(combatant, extra=frozen_map(extra))


def movement(agility: int, athletics: int, actions: int, modifiers: Modifiers) -> int:
    """Metres a combatant may move this round: Agility + Athletics, less a metre per additional action."""
    extra = max(0, actions - 1)
    return max(0, agility + athletics - modifiers.extra_action_metres * extra)


def sprint(agility: int, athletics: int, modifiers: Modifiers) -> int:
    """Metres when running flat out is the round's only action: (Agility + Athletics) × 4."""
    return max(0, agility + athletics) * modifiers.sprint_multiplier


def round_running(encounter: Encounter) -> bool:
    """A round is under way (initiative rolled, not yet ended)."""
    return encounter.clock.round > 0 and encounter.clock.pass_no > 0


def mark_acted(encounter: Encounter, combatant_id: str) -> Encounter:
    """Record that the combatant has had its turn this round (it loses the turn still to come)."""
    return encounter.with_clock(acted=encounter.clock.acted | {combatant_id})


def suppression(combatant: Combatant, encounter: Encounter) -> Mapping[str, JsonValue] | None:
    """The area this combatant keeps under suppression fire this round (area, difficulty, weapon, damage)."""
    fire = combatant.extra.get(SUPPRESSION)
    if isinstance(fire, Mapping) and fire.get("round") == encounter.clock.round:
        return fire
    return None


@dataclass(frozen=True)
class SuppressedArea:
    """An area under suppression fire this round, from every shooter who fired at it: institut.md's "общему числу
    выпущенных по квадратному метру пуль" (the total number of bullets fired at that square metre)."""

    name: str
    shooters: tuple[str, ...]  # combatant ids, in the roster's order
    bullets: int  # per square metre, every shooter's burst added up
    damage: int  # the heaviest of the shooters' damage dice (a bullet's roll, the GM may change it)
    difficulty: int  # bullets × the modifier (4)


def area_key(name: str) -> str:
    """How two shooters' areas are matched: the same name, whatever its case and surrounding spaces."""
    return " ".join(name.split()).casefold()


def _bullets(fire: Mapping[str, JsonValue], modifiers: Modifiers) -> int:
    """A shooter's bullets per square (fire recorded before they were kept: its own difficulty ÷ the modifier)."""
    bullets = fire.get("bullets")
    if isinstance(bullets, int) and not isinstance(bullets, bool):
        return bullets
    difficulty = fire.get("difficulty")
    return difficulty // modifiers.suppression_per_bullet if isinstance(difficulty, int) else 0


def suppressed_areas(encounter: Encounter, modifiers: Modifiers) -> dict[str, SuppressedArea]:
    """Every area under suppression fire this round, by :func:`area_key`, each shooter's bullets added up."""
    areas: dict[str, SuppressedArea] = {}
    for combatant in encounter.combatants.values():
        fire = suppression(combatant, encounter)
        if fire is None:
            continue
        name = str(fire.get("area", ""))
        damage = fire.get("damage")
        dice = damage if isinstance(damage, int) and not isinstance(damage, bool) else 0
        bullets = _bullets(fire, modifiers)
        known = areas.get(area_key(name))
        if known is not None:
            name, bullets = known.name, known.bullets + bullets
            dice = max(dice, known.damage)
        shooters = (*known.shooters, combatant.id) if known is not None else (combatant.id,)
        areas[area_key(name)] = SuppressedArea(name, shooters, bullets, dice,
                                               bullets * modifiers.suppression_per_bullet)
    return areas


def suppressed_area(encounter: Encounter, name: str, modifiers: Modifiers) -> SuppressedArea | None:
    """The area called ``name`` if anyone lays suppression fire on it this round."""
    return suppressed_areas(encounter, modifiers).get(area_key(name))


def set_extra(combatant: Combatant, key: str, value: JsonValue) -> Combatant:
    """A copy with one extra entry set (None removes it)."""
    extra = dict(combatant.extra)
    if value is None:
        extra.pop(key, None)
        return replace(combatant, extra=frozen_map(extra))
    return replace(combatant, extra=with_item(combatant.extra, key, value))
