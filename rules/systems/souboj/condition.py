"""Hit points, shadow damage, dying and death.

Ordinary damage (``wounds``) and shadow damage (``shadow``) are two tracks; hit points are the maximum less
both. At 0 or less a creature is out: unconscious but not dying while its hit points without the shadow damage
stay above 0, dying otherwise. A dying creature whose hit points fall to −(maximum) dies at once; so does one
whose countdown runs out, one killed by a critical wound, one finished off, and one still below 0 after three
quarters of its shadow damage faded. Those deaths are kept as a mark, so healing a corpse does not revive it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from rules.encounter import Combatant, JsonValue, Status
from rules.systems.souboj.combat import Rounding, shadow_removed
from rules.systems.souboj.model import (
    DEAD,
    DYING_ROUNDS,
    DYING_SINCE,
    HIT_POINTS,
    LAST_ACTION,
    LAST_ACTION_TAKEN,
    SHADOW,
    SHADOW_TIMER,
    WOUNDS,
    marked_dead,
    shadow_timer,
    with_extra,
)
from rules.systems.souboj.shadow import ShadowClock, clock_runs, note_wounds, shadow_wounds, tick, with_shadow_wounds
from rules.systems.souboj.tables import SoubojTables


def max_hp(combatant: Combatant) -> int:
    """The combatant's full hit points (at least 1)."""
    return max(1, combatant.attribute(HIT_POINTS, 1))


def hit_points(combatant: Combatant) -> int:
    """Hit points now: the maximum less ordinary and shadow damage."""
    return max_hp(combatant) - combatant.boxes(WOUNDS) - combatant.boxes(SHADOW)


def hit_points_without_shadow(combatant: Combatant) -> int:
    """Hit points as if the shadow damage were not there."""
    return max_hp(combatant) - combatant.boxes(WOUNDS)


def status(combatant: Combatant, shadow_counts_for_death: bool = True) -> Status:
    """Active above 0; unconscious (not dying) while the hit points without shadow damage stay above 0;
    dying otherwise, dead at −(maximum) or with a death mark."""
    if marked_dead(combatant):
        return Status.DEAD
    if hit_points(combatant) > 0:
        return Status.ACTIVE
    if hit_points_without_shadow(combatant) > 0:
        return Status.UNCONSCIOUS
    lowest = hit_points(combatant) if shadow_counts_for_death else hit_points_without_shadow(combatant)
    return Status.DEAD if lowest <= -max_hp(combatant) else Status.DYING


def mark_dead(combatant: Combatant) -> Combatant:
    """Dead for good: the death mark stays whatever happens to the numbers (until the GM clears it)."""
    return with_extra(with_extra(combatant, DEAD, True), DYING_ROUNDS, None)


def settle(before: Combatant, after: Combatant, tables: SoubojTables, shadow_counts_for_death: bool,
           since: Mapping[str, JsonValue] | None = None, clock: ShadowClock = ShadowClock.PER_CREATURE) -> Combatant:
    """Bookkeeping after the tracks changed: note a shadow wound on its ``clock``, keep a death, drop a stale
    countdown; a dying that begins now is dated ``since`` (None: the fight does not keep that)."""
    updated = after
    if clock is ShadowClock.PER_WOUND:
        updated = note_wounds(before, updated, tables.shadow_recovery_rounds)
    elif updated.boxes(SHADOW) <= 0:
        updated = with_extra(updated, SHADOW_TIMER, None)
    elif shadow_timer(updated) is None or (shadow_timer(updated) == FADED
                                          and updated.boxes(SHADOW) > before.boxes(SHADOW)):
        updated = with_extra(updated, SHADOW_TIMER, tables.shadow_recovery_rounds)
    new = status(updated, shadow_counts_for_death)
    if new is Status.DEAD and status(before, shadow_counts_for_death) is not Status.DEAD:
        return mark_dead(updated)
    if new is not Status.DYING:  # saved (or dead): the countdown and the last action belong to that dying
        return _dying_over(with_extra(with_extra(updated, DYING_ROUNDS, None), LAST_ACTION, None))
    return _dated(before, updated, since, shadow_counts_for_death)


def note_dying(before: Combatant, after: Combatant, since: Mapping[str, JsonValue],
               shadow_counts_for_death: bool) -> Combatant:
    """A track set by hand: a dying that begins now is dated ``since``; one that ended takes its last action along."""
    new = status(after, shadow_counts_for_death)
    if new is Status.DYING:
        return _dated(before, after, since, shadow_counts_for_death)
    if new is Status.DEAD:
        return after
    return _dying_over(with_extra(after, LAST_ACTION, None))


def _dated(before: Combatant, after: Combatant, since: Mapping[str, JsonValue] | None,
           shadow_counts_for_death: bool) -> Combatant:
    if since is None or status(before, shadow_counts_for_death) is Status.DYING:
        return after
    return with_extra(with_extra(after, DYING_SINCE, since), LAST_ACTION_TAKEN, None)


def _dying_over(combatant: Combatant) -> Combatant:
    return with_extra(with_extra(combatant, DYING_SINCE, None), LAST_ACTION_TAKEN, None)


@dataclass(frozen=True)
class RoundPassed:
    """What one round (or 10 seconds after the fight) did to a combatant's condition."""

    combatant: Combatant
    died: bool = False
    faded: int = 0  # shadow damage that faded
    woke: bool = False


def _count_down_dying(combatant: Combatant, shadow_counts: bool) -> tuple[Combatant, bool]:
    left = combatant.extra.get(DYING_ROUNDS)
    if not isinstance(left, int) or isinstance(left, bool) or status(combatant, shadow_counts) is not Status.DYING:
        return combatant, False
    if left <= 1:
        return mark_dead(combatant), True
    return with_extra(combatant, DYING_ROUNDS, left - 1), False


#: The shadow timer once the three quarters have faded: souboj.md Decision, "the remaining quarter stays until
#: healed (only ¾ is said to fade)". A new shadow wound starts the clock again. (A cleared timer restarted it,
#: and the quarter left faded by three quarters again every 60 rounds.)
FADED: Final[int] = 0


def _fade_shadow(combatant: Combatant, tables: SoubojTables, rounding: Rounding,
                 shadow_counts: bool) -> RoundPassed:
    timer = shadow_timer(combatant)
    if combatant.boxes(SHADOW) <= 0 or marked_dead(combatant) or timer == FADED:
        return RoundPassed(combatant)
    if timer is None:  # shadow damage set by hand: the clock starts now
        timer = tables.shadow_recovery_rounds
    if timer > 1:
        return RoundPassed(with_extra(combatant, SHADOW_TIMER, timer - 1))
    faded = shadow_removed(combatant.boxes(SHADOW), tables.shadow_removed, rounding)
    updated = with_extra(combatant.with_damage(SHADOW, combatant.boxes(SHADOW) - faded), SHADOW_TIMER, FADED)
    return _after_fade(combatant, updated, faded, shadow_counts)


def _fade_wounds(combatant: Combatant, tables: SoubojTables, rounding: Rounding,
                 shadow_counts: bool) -> RoundPassed:
    """Each shadow wound's own clock one round on; three quarters of a wound whose clock ran out fade."""
    if combatant.boxes(SHADOW) <= 0 or marked_dead(combatant):
        return RoundPassed(combatant)
    wounds = shadow_wounds(combatant, tables.shadow_recovery_rounds)
    ticked = tick(wounds, lambda points: shadow_removed(points, tables.shadow_removed, rounding))
    left = sum(wound.points for wound in ticked.wounds)
    updated = with_shadow_wounds(combatant.with_damage(SHADOW, left), ticked.wounds)
    return _after_fade(combatant, updated, ticked.faded, shadow_counts) if ticked.faded else RoundPassed(updated)


def _after_fade(before: Combatant, updated: Combatant, faded: int, shadow_counts: bool) -> RoundPassed:
    """souboj.md: "if the creature is then still below 0 HP, it has died; if it got above 0 (and was unconscious),
    it wakes"; at exactly 0 it stays unconscious."""
    if hit_points(updated) < 0:
        return RoundPassed(mark_dead(updated), died=True, faded=faded)
    woke = status(before, shadow_counts) is Status.UNCONSCIOUS and status(updated, shadow_counts) is Status.ACTIVE
    return RoundPassed(updated, faded=faded, woke=woke)


def round_passes(combatant: Combatant, tables: SoubojTables, rounding: Rounding, shadow_counts_for_death: bool,
                 clock: ShadowClock = ShadowClock.PER_CREATURE, in_round: bool = True) -> RoundPassed:
    """One round (10 seconds) later: the dying countdown ticks, shadow damage may fade on its ``clock``
    (``in_round``: a round of the fight ends, not 10 seconds passing outside the rounds)."""
    counted, died = _count_down_dying(combatant, shadow_counts_for_death)
    if died:
        return RoundPassed(counted, died=True)
    if not clock_runs(clock, in_round):
        return RoundPassed(counted)
    if clock is ShadowClock.PER_WOUND:
        return _fade_wounds(counted, tables, rounding, shadow_counts_for_death)
    return _fade_shadow(counted, tables, rounding, shadow_counts_for_death)
