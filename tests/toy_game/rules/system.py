"""The toy game as a RuleSystem: initiative 1d6 + Speed, one hit-point track, everyone once a round."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rules.encounter import Combatant, Encounter, Slot, SlotKind, Status
from rules.history import History, Operation
from rules.systems.base import AttributeSpec, DiceSpec, OptionKind, OptionSpec, RuleSystem, TrackSpec
from rules.text import N_
from rules.turns import delayed_slots

TOY_ID: Final[str] = "toy"
HP: Final[str] = "hp"
#: The option: whether a combatant with no hit points left is dead (on) or only knocked out (off).
DEADLY: Final[str] = "deadly"

_OPTIONS: Final[tuple[OptionSpec, ...]] = (
    OptionSpec(DEADLY, N_("No hit points left means dead"), OptionKind.BOOL, False,
               help=N_("Off: knocked out.")),
)
_ATTRIBUTES: Final[tuple[AttributeSpec, ...]] = (
    AttributeSpec("speed", N_("Speed"), 2, 0, 10, N_("Spd")),
    AttributeSpec("hit_points", N_("Hit points"), 6, 1, 99, N_("HP")),
    AttributeSpec("skill", N_("Skill"), 1, 0, 10, N_("Skl")),
    AttributeSpec("defence", N_("Defence"), 4, 0, 20, N_("Def")),
    AttributeSpec("damage", N_("Damage"), 2, 1, 20, N_("Dmg")),
)


def max_hit_points(combatant: Combatant) -> int:
    """Hit points when unhurt (at least 1)."""
    return max(1, combatant.attribute("hit_points", 6))


def hit_points(combatant: Combatant) -> int:
    """Hit points left."""
    return max(0, max_hit_points(combatant) - combatant.boxes(HP))


class ToySystem(RuleSystem):
    """The smallest complete game: the template for a sixth one (see README, "How the rules layer works")."""

    id = TOY_ID
    title = N_("Toy game")

    def option_specs(self) -> Sequence[OptionSpec]:
        return _OPTIONS

    def attribute_specs(self) -> Sequence[AttributeSpec]:
        return _ATTRIBUTES

    def prepare(self, combatant: Combatant, encounter: Encounter) -> Combatant:
        return combatant.with_damage(HP, min(max(0, combatant.boxes(HP)), max_hit_points(combatant)))

    def tracks(self, combatant: Combatant, encounter: Encounter) -> Sequence[TrackSpec]:
        return (TrackSpec(HP, N_("Hit points lost"), max_hit_points(combatant), "points"),)

    def status(self, combatant: Combatant, encounter: Encounter) -> Status:
        if hit_points(combatant) > 0:
            return Status.ACTIVE
        return Status.DEAD if self.option(encounter, DEADLY) is True else Status.UNCONSCIOUS

    def apply_harm(self, combatant: Combatant, track: str, amount: int, encounter: Encounter) -> Combatant:
        return combatant.with_damage(HP, min(max(0, combatant.boxes(HP) + amount), max_hit_points(combatant)))

    def initiative_dice(self, combatant: Combatant, encounter: Encounter) -> DiceSpec:
        return DiceSpec(1, 6, combatant.attribute("speed"))

    def tiebreak_dice(self) -> int:
        return 1  # one d6 settles a tie the scores leave

    def remaining_slots(self, encounter: Encounter) -> list[Slot]:
        """Highest score first; ties by the tie-break dice; whoever yielded goes after the others."""
        clock = encounter.clock
        waiting = [c for c in encounter.combatants.values()
                   if c.id not in clock.acted and c.initiative is not None and self.can_act(c, encounter)]
        waiting.sort(key=lambda c: (c.id not in clock.yielded, c.initiative.rolled if c.initiative else 0,
                                    c.initiative.tiebreak if c.initiative else ()), reverse=True)
        return [Slot(SlotKind.ACTORS, (c.id,)) for c in waiting] + delayed_slots(encounter)

    def outcome_probability(self, operation: Operation, before: Encounter) -> float | None:
        from tests.toy_game.rules.ops import ToyAttack, hit_chance  # the operations import this module

        if not isinstance(operation, ToyAttack):
            return None
        chance = hit_chance(operation, before)
        return chance if operation.hits(before) else 1 - chance

    def sample(self) -> History:
        from tests.toy_game.rules.sample import sample

        return sample()
