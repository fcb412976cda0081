"""SR3 surprise: Reaction tests compared pairwise between opposing sides.

The test in force is SR3's own state of the encounter (an item of ``Encounter.game``, from the surprise test
to the end of each fighter's next phase, or of the first pass for the completely surprised, who have none): only
the functions here read and write it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from rules.encounter import Encounter, frozen_map
from rules.systems.sr3.ranged import ModifierLine, TargetNumber, line, require, target_number
from rules.systems.sr3.tables import Sr3Tables, load_tables
from rules.text import _

#: SR3's item of ``Encounter.game``: combatant id → the opponents it may act against while the test holds
#: (only those the test restricts are listed). Saved files name it, so it keeps this name.
SURPRISE: Final[str] = "surprise"
#: Set while the test in force ends fighter by fighter, with each one's next phase (see :func:`lifted_for`); a
#: test recorded before that rule (an older file) holds to the end of the first pass, as it was played.
SURPRISE_ENDS_BY_PHASE: Final[str] = "surprise_ends_by_phase"


def surprise_in_force(encounter: Encounter) -> bool:
    """Whether a surprise test still restricts anyone."""
    return SURPRISE in encounter.game


def may_act_against_now(encounter: Encounter, actor: str) -> tuple[str, ...] | None:
    """The opponents ``actor`` may act against while a surprise test holds; None: the test restricts nobody's
    actions of ``actor`` (no test, or ``actor`` not in it)."""
    held = encounter.game.get(SURPRISE)
    entry = held.get(actor) if isinstance(held, Mapping) else None
    return tuple(other for other in entry if isinstance(other, str)) if isinstance(entry, tuple) else None


def completely_surprised(encounter: Encounter) -> frozenset[str]:
    """Those the test in force leaves no opponent to act against (:func:`may_act_against_now` is ``()``), all at
    once: the order of a pass asks it for every combatant."""
    held = encounter.game.get(SURPRISE)
    if not isinstance(held, Mapping):
        return frozenset()
    return frozenset(actor for actor, entry in held.items()
                     if isinstance(entry, tuple) and not any(isinstance(other, str) for other in entry))


def with_surprise(encounter: Encounter, restricted: Mapping[str, tuple[str, ...]],
                  ends_by_phase: bool | None = None) -> Encounter:
    """A copy with the surprise test in force replaced (nobody restricted: no test, the items go);
    ``ends_by_phase`` None keeps how the test in force ends."""
    state = encounter.with_game_item(SURPRISE, frozen_map(restricted) if restricted else None)
    if not restricted or ends_by_phase is False:
        return state.with_game_item(SURPRISE_ENDS_BY_PHASE, None)
    return state.with_game_item(SURPRISE_ENDS_BY_PHASE, True) if ends_by_phase else state


def lifted_for(encounter: Encounter, actors: tuple[str, ...]) -> Encounter:
    """The test's losses end with the phase they applied to (sr3.md: "The losses apply to the current action, or to
    the next phase if not acting now"; Decision: the pool ban too): ``actors``' phase has just ended."""
    held = encounter.game.get(SURPRISE)
    if encounter.game.get(SURPRISE_ENDS_BY_PHASE) is not True or not isinstance(held, Mapping) or not any(
            actor in held for actor in actors):
        return encounter
    kept = {actor: tuple(other for other in entry if isinstance(other, str))
            for actor, entry in held.items() if actor not in actors and isinstance(entry, tuple)}
    return with_surprise(encounter, kept)


def surprise_tn(
    *, ambusher_delayed: bool = False, gm_modifier: int = 0, tables: Sr3Tables | None = None
) -> TargetNumber:
    """TN of the surprise Reaction test: 4, or 2 for ambushers who delayed for it, plus GM modifiers."""
    tables = tables or load_tables()
    lines: list[ModifierLine] = [line("surprise", tables.surprise.base_tn)]
    if ambusher_delayed:
        lines.append(line("ambush_delayed", tables.surprise.ambush_delayed))
    if gm_modifier:
        lines.append(line("gm", gm_modifier))
    return target_number(lines, tables.minimum_tn)


@dataclass(frozen=True)
class SurpriseResult:
    """Whom each combatant may act against, and who is completely surprised (no actions at all)."""

    may_act_against: Mapping[str, frozenset[str]]
    completely_surprised: frozenset[str]

    def can_act_against(self, actor: str, opponent: str) -> bool:
        """Whether ``actor`` may take actions aimed at ``opponent``."""
        return actor not in self.completely_surprised and opponent in self.may_act_against.get(actor, frozenset())

    def may_use_pool_against(self, defender: str, attacker: str) -> bool:
        """Whether ``defender`` may use combat pool dice to defend against ``attacker``."""
        # The seed ties both restrictions to the same comparison of successes.
        return self.can_act_against(defender, attacker)


def _check(successes: Mapping[str, int], sides: Mapping[str, str]) -> None:
    require(
        set(successes) == set(sides),
        _("Every combatant in the surprise test needs both a side and a number of successes."),
    )
    require(all(count >= 0 for count in successes.values()), _("Successes cannot be negative."))


def surprise_matrix(successes: Mapping[str, int], sides: Mapping[str, str]) -> SurpriseResult:
    """Compare every pair of opponents: strictly more successes lets one act against the other.

    Someone who beats no opponent at all (and has at least one) is completely surprised.
    """
    _check(successes, sides)
    may_act: dict[str, frozenset[str]] = {}
    surprised: set[str] = set()
    for name, own in successes.items():
        opponents = [other for other in successes if sides[other] != sides[name]]
        may_act[name] = frozenset(other for other in opponents if own > successes[other])
        if opponents and not may_act[name]:
            surprised.add(name)
    return SurpriseResult(MappingProxyType(may_act), frozenset(surprised))
