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
from rules.systems.sr3.initiative import score
from rules.systems.sr3.ranged import ModifierLine, TargetNumber, line, require, target_number
from rules.systems.sr3.tables import Sr3Tables, load_tables
from rules.text import _

#: SR3's item of ``Encounter.game``: combatant id → the opponents it may act against while the test holds
#: (only those the test restricts are listed). Saved files name it, so it keeps this name.
SURPRISE: Final[str] = "surprise"
#: Set while the test in force ends fighter by fighter, with each one's next phase (see :func:`lifted_for`); a
#: test recorded before that rule (an older file) holds to the end of the first pass, as it was played.
SURPRISE_ENDS_BY_PHASE: Final[str] = "surprise_ends_by_phase"
#: Set by a test made mid-turn (sr3.md: "Decided before the turn's first action, unless it arises mid-turn"):
#: completely surprised id → [round, pass] holding the phase they lose. They are left out of that pass and take no
#: action at all, not even a free one, until their lost phase has come (or that pass ends, if their score fell).
#: The item's presence also tells a mid-turn test from one made before the turn, which the first pass's end lifts.
SURPRISE_LOST_PASS: Final[str] = "surprise_lost_pass"


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
                  ends_by_phase: bool | None = None,
                  lost_passes: Mapping[str, tuple[int, int]] | None = None) -> Encounter:
    """A copy with the surprise test in force replaced (nobody restricted: no test, the items go);
    ``ends_by_phase`` None keeps how the test in force ends; ``lost_passes`` (a mid-turn test, see
    :data:`SURPRISE_LOST_PASS`) None keeps those in force, for the fighters still restricted."""
    state = encounter.with_game_item(SURPRISE, frozen_map(restricted) if restricted else None)
    state = _with_lost_passes(state, restricted, lost_passes)
    if not restricted or ends_by_phase is False:
        return state.with_game_item(SURPRISE_ENDS_BY_PHASE, None)
    return state.with_game_item(SURPRISE_ENDS_BY_PHASE, True) if ends_by_phase else state


def _with_lost_passes(encounter: Encounter, restricted: Mapping[str, tuple[str, ...]],
                      lost_passes: Mapping[str, tuple[int, int]] | None) -> Encounter:
    if lost_passes is None:
        if not is_mid_turn(encounter):
            return encounter
        lost_passes = lost_passes_of(encounter)
    kept = {actor: (round_no, pass_no) for actor, (round_no, pass_no) in lost_passes.items() if actor in restricted}
    # The item marks a mid-turn test even with nobody completely surprised: an empty map, kept while the test holds.
    return encounter.with_game_item(SURPRISE_LOST_PASS, frozen_map(kept) if restricted else None)


def is_mid_turn(encounter: Encounter) -> bool:
    """Whether the test in force was made mid-turn (its losses end phase by phase, never with the first pass)."""
    return isinstance(encounter.game.get(SURPRISE_LOST_PASS), Mapping)


def lost_passes_of(encounter: Encounter) -> dict[str, tuple[int, int]]:
    """A mid-turn test's completely surprised: id → (round, pass) holding the phase they lose."""
    held = encounter.game.get(SURPRISE_LOST_PASS)
    if not isinstance(held, Mapping):
        return {}
    found = {}
    for actor, when in held.items():
        if isinstance(when, tuple | list) and len(when) == 2:
            round_no, pass_no = when
            if isinstance(round_no, int) and isinstance(pass_no, int):
                found[actor] = (round_no, pass_no)
    return found


def barred_entirely(encounter: Encounter, actor: str) -> bool:
    """Whether the test in force leaves ``actor`` no action at all, not even a free one, now: completely surprised
    in the first pass (a test before the turn), or until its lost phase has come (a test mid-turn)."""
    if is_mid_turn(encounter):
        return actor in lost_passes_of(encounter)
    return encounter.clock.pass_no == 1 and may_act_against_now(encounter, actor) == ()


def left_out_of_pass(encounter: Encounter) -> frozenset[str]:
    """Those the order of the current pass leaves out: the completely surprised, whose phase in it is lost."""
    clock = encounter.clock
    if is_mid_turn(encounter):
        now = (clock.round, clock.pass_no)
        return frozenset(actor for actor, when in lost_passes_of(encounter).items() if when == now)
    return completely_surprised(encounter) if clock.pass_no == 1 else frozenset()


def lost_pass(encounter: Encounter, actor: str) -> tuple[int, int]:
    """(round, pass) of ``actor``'s current or next phase: the one a test made now costs it (sr3.md: "The losses
    apply to the current action, or to the next phase if not acting now")."""
    clock = encounter.clock
    combatant = encounter.combatant(actor)
    current = clock.current
    if current is not None and actor in current.ids:
        return clock.round, clock.pass_no
    if actor not in clock.acted and (score(combatant, clock.pass_no) or 0) > 0:
        return clock.round, clock.pass_no
    if (score(combatant, clock.pass_no + 1) or 0) > 0:
        return clock.round, clock.pass_no + 1
    return clock.round + 1, 1


def lifted_at_phase(encounter: Encounter, phase: int | None, *, ended: bool) -> Encounter:
    """A mid-turn test: the completely surprised whose lost phase, in the current pass, has now come are free
    again, their phase of the pass played. Their phase has no slot, so a slot stands for it: one below their score
    as it begins, or one at their score (a tie) as it ends (``ended``)."""
    if phase is None or not is_mid_turn(encounter):
        return encounter
    clock = encounter.clock
    come = set()
    for actor, when in lost_passes_of(encounter).items():
        if when == (clock.round, clock.pass_no) and actor in encounter.combatants:
            own = score(encounter.combatant(actor), clock.pass_no) or 0
            if own > phase or (ended and own == phase):
                come.add(actor)
    if not come:
        return encounter
    # Their phase of this pass is spent (lost): the order must not bring them back in it.
    return _lift(encounter, come).with_clock(acted=clock.acted | come)


def lifted_at_pass_end(encounter: Encounter) -> Encounter:
    """The end of a pass: a test made before the turn ends with the first pass; a mid-turn test frees the
    completely surprised whose lost phase was in this pass (their score may have fallen below every phase)."""
    clock = encounter.clock
    if not is_mid_turn(encounter):
        return with_surprise(encounter, {}) if clock.pass_no == 1 else encounter
    now = (clock.round, clock.pass_no)
    return _lift(encounter, {actor for actor, when in lost_passes_of(encounter).items() if when <= now})


def _lift(encounter: Encounter, actors: set[str]) -> Encounter:
    held = encounter.game.get(SURPRISE)
    if not actors or not isinstance(held, Mapping):
        return encounter
    kept = {actor: tuple(other for other in entry if isinstance(other, str))
            for actor, entry in held.items() if actor not in actors and isinstance(entry, tuple)}
    return with_surprise(encounter, kept)


def lifted_for(encounter: Encounter, actors: tuple[str, ...]) -> Encounter:
    """The test's losses end with the phase they applied to (sr3.md: "The losses apply to the current action, or to
    the next phase if not acting now"; Decision: the pool ban too): ``actors``' phase has just ended."""
    held = encounter.game.get(SURPRISE)
    if encounter.game.get(SURPRISE_ENDS_BY_PHASE) is not True or not isinstance(held, Mapping):
        return encounter
    return _lift(encounter, {actor for actor in actors if actor in held})


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
