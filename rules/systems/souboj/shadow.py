"""The shadow damage clock: souboj.md, "Shadow (non-lethal) damage".

"3/4 stínového zranění zmizí po 10 minutách (60 kolech)": three quarters of the shadow damage fade after 10
minutes (60 rounds). Decision: "the 10 minutes run separately for each shadow wound from the moment it was dealt
(default, the literal reading; options: one clock per creature from its first shadow wound, or from the end of the
fight)".

Per wound, each shadow wound is kept with its points and the rounds left on its own clock; when a clock runs out,
three quarters of that wound fade and the quarter left stays until healed. Healing takes the newest shadow damage
first (the text is silent; the oldest wounds keep the clocks nearest their end). The two other clocks are one timer
per creature (:data:`~rules.systems.souboj.model.SHADOW_TIMER`), as fights saved before this option kept it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from rules.encounter import Combatant, Encounter, JsonValue, frozen_map
from rules.systems.souboj.combat import Rounding, shadow_removed
from rules.systems.souboj.model import SHADOW, SHADOW_TIMER, shadow_timer, with_extra
from rules.systems.souboj.tables import SoubojTables
from rules.text import N_, _, ngettext

#: The option naming the clock; a fight saved before it has one clock per creature (what it was played with).
SHADOW_CLOCK: Final = "shadow_clock"
#: The shadow wounds of the per-wound clock, oldest first, as ``{"points": n, "left": rounds}`` records.
SHADOW_WOUNDS: Final = "shadow_wounds"
#: Rounds left once a wound's three quarters have faded: the quarter left stays until healed.
FADED: Final = 0


class ShadowClock(StrEnum):
    """From when the 10 minutes of the shadow damage are counted."""

    PER_WOUND = "per_wound"  # each shadow wound from the moment it was dealt (the default)
    PER_CREATURE = "per_creature"  # one clock per creature, from its first shadow wound
    FIGHT_END = "fight_end"  # one clock per creature, running only once the fight is over


CLOCK_LABELS: Final[Mapping[ShadowClock, str]] = {
    ShadowClock.PER_WOUND: N_("Each shadow wound from the moment it was dealt"),
    ShadowClock.PER_CREATURE: N_("One clock per creature, from its first shadow wound"),
    ShadowClock.FIGHT_END: N_("One clock per creature, from the end of the fight"),
}


def shadow_clock(encounter: Encounter) -> ShadowClock:
    """The clock this fight uses (a fight saved before the option: one per creature, as it was played)."""
    value = encounter.options.get(SHADOW_CLOCK, ShadowClock.PER_CREATURE.value)
    return ShadowClock(value) if value in set(ShadowClock) else ShadowClock.PER_WOUND


def clock_runs(clock: ShadowClock, in_round: bool) -> bool:
    """Whether the clock runs at this round's end (``in_round``) or at a tick of time passing outside the rounds."""
    return clock is not ShadowClock.FIGHT_END or not in_round


@dataclass(frozen=True)
class ShadowWound:
    """One shadow wound: its points left, and the rounds before three quarters of it fade (:data:`FADED`: done)."""

    points: int
    left: int

    def to_json(self) -> Mapping[str, JsonValue]:
        """As stored in ``extra``."""
        return frozen_map({"points": self.points, "left": self.left})


def _count(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def _read(record: object) -> ShadowWound | None:
    if not isinstance(record, Mapping):
        return None
    points, left = _count(record.get("points")), _count(record.get("left"))
    return ShadowWound(points, left) if points and left is not None else None


def shadow_wounds(combatant: Combatant, recovery_rounds: int) -> tuple[ShadowWound, ...]:
    """The combatant's shadow wounds, oldest first, adding up to its shadow damage.

    Damage the records do not cover (a fight switched to this clock, a hand-edited file) is one wound on the
    creature's old timer, or a fresh clock."""
    stored = combatant.extra.get(SHADOW_WOUNDS)
    records = stored if isinstance(stored, tuple) else ()
    wounds = [wound for wound in map(_read, records) if wound is not None]
    return _fitted(wounds, combatant.boxes(SHADOW), _left(combatant, recovery_rounds))


def _left(combatant: Combatant, recovery_rounds: int) -> int:
    timer = shadow_timer(combatant)
    return timer if timer is not None and 0 <= timer <= recovery_rounds else recovery_rounds


def _fitted(wounds: list[ShadowWound], total: int, fresh: int) -> tuple[ShadowWound, ...]:
    """``wounds`` made to add up to ``total``: more is a new wound on a ``fresh`` clock, less heals the newest."""
    have = sum(wound.points for wound in wounds)
    if total > have:
        return (*wounds, ShadowWound(total - have, fresh))
    excess = have - total
    kept: list[ShadowWound] = []
    for wound in reversed(wounds):  # the newest first
        healed = min(excess, wound.points)
        excess -= healed
        if wound.points > healed:
            kept.append(ShadowWound(wound.points - healed, wound.left))
    return tuple(reversed(kept))


def with_shadow_wounds(combatant: Combatant, wounds: tuple[ShadowWound, ...]) -> Combatant:
    """A copy keeping ``wounds`` (no per-creature timer beside them)."""
    record = tuple(wound.to_json() for wound in wounds) if wounds else None
    return with_extra(with_extra(combatant, SHADOW_WOUNDS, record), SHADOW_TIMER, None)


def note_wounds(before: Combatant, after: Combatant, recovery_rounds: int) -> Combatant:
    """After the shadow track changed from ``before`` to ``after``: a new wound on a full clock, or healing."""
    wounds = list(shadow_wounds(before, recovery_rounds))
    return with_shadow_wounds(after, _fitted(wounds, after.boxes(SHADOW), recovery_rounds))


@dataclass(frozen=True)
class Tick:
    """One round of the per-wound clocks: the wounds after it and the points that faded."""

    wounds: tuple[ShadowWound, ...]
    faded: int = 0


def tick(wounds: tuple[ShadowWound, ...], removed: Callable[[int], int]) -> Tick:
    """Every running clock one round on; a wound whose clock runs out loses ``removed(points)`` of its points."""
    after: list[ShadowWound] = []
    faded = 0
    for wound in wounds:
        if wound.left == FADED:
            after.append(wound)
        elif wound.left > 1:
            after.append(ShadowWound(wound.points, wound.left - 1))
        else:
            gone = min(wound.points, removed(wound.points))
            faded += gone
            if wound.points > gone:
                after.append(ShadowWound(wound.points - gone, FADED))
    return Tick(tuple(after), faded)


# --- what the details panel says --------------------------------------------------------------------------


def shadow_notes(combatant: Combatant, clock: ShadowClock, data: SoubojTables, fade: Rounding) -> list[str]:
    """What fades when: each wound's clock, or the creature's one clock (none once the three quarters faded)."""
    if combatant.boxes(SHADOW) <= 0:
        return []
    if clock is ShadowClock.PER_WOUND:
        return _wound_notes(combatant, data, fade)
    timer = shadow_timer(combatant)
    if not timer:  # 0: the three quarters have faded, the rest stays until healed
        return []
    part = f"{data.shadow_removed.numerator}/{data.shadow_removed.denominator}"
    if clock is ShadowClock.FIGHT_END and timer == data.shadow_recovery_rounds:
        return [ngettext("{part} of the shadow damage fades {count} round after the fight",
                         "{part} of the shadow damage fades {count} rounds after the fight", timer).format(
            part=part, count=timer)]
    return [ngettext("{part} of the shadow damage fades in {count} round",
                     "{part} of the shadow damage fades in {count} rounds", timer).format(part=part, count=timer)]


def _wound_notes(combatant: Combatant, data: SoubojTables, fade: Rounding) -> list[str]:
    wounds = shadow_wounds(combatant, data.shadow_recovery_rounds)
    notes = [ngettext("Shadow wound of {points}: −{removed} in {count} round",
                      "Shadow wound of {points}: −{removed} in {count} rounds", wound.left).format(
        points=wound.points, count=wound.left, removed=shadow_removed(wound.points, data.shadow_removed, fade))
        for wound in wounds if wound.left != FADED]
    left = sum(wound.points for wound in wounds if wound.left == FADED)
    if left:
        notes.append(_("{points} shadow damage left after fading stays until healed").format(points=left))
    return notes
