"""SR3 condition monitors: two 10-box tracks, wound levels, wound modifiers, overflow and status."""

from __future__ import annotations

from typing import Final

from rules.encounter import Status

BOXES: Final[int] = 10
PHYSICAL: Final[str] = "physical"
STUN: Final[str] = "stun"
#: (boxes reached, wound level) from heaviest to lightest.
THRESHOLDS: Final[tuple[tuple[int, str], ...]] = ((10, "D"), (6, "S"), (3, "M"), (1, "L"))
#: Target-number penalty per wound level; initiative drops by the same amount.
LEVEL_PENALTY: Final[dict[str, int]] = {"L": 1, "M": 2, "S": 3, "D": 3}


def wound_level(boxes: int) -> str | None:
    """The highest threshold reached on one track (None when unhurt)."""
    for threshold, level in THRESHOLDS:
        if boxes >= threshold:
            return level
    return None


def _level_penalty(boxes: int) -> int:
    level = wound_level(boxes)
    return LEVEL_PENALTY[level] if level else 0


#: The penalty for 0 to BOXES boxes, worked out once: the initiative order reads it for every combatant on every
#: change (a table lookup instead of the threshold walk keeps an action on 1,000 combatants within a frame).
_PENALTY_BY_BOXES: Final[tuple[int, ...]] = tuple(_level_penalty(boxes) for boxes in range(BOXES + 1))


def track_penalty(boxes: int) -> int:
    """TN penalty from one track (initiative falls by the same number)."""
    return _PENALTY_BY_BOXES[min(boxes, BOXES)] if boxes > 0 else 0


def wound_modifiers(physical_boxes: int, stun_boxes: int) -> tuple[int, int]:
    """(TN modifier, initiative modifier): both tracks count and add up; initiative is negative."""
    penalty = track_penalty(physical_boxes) + track_penalty(stun_boxes)
    return penalty, -penalty


def add_stun(physical: int, stun: int, boxes: int) -> tuple[int, int]:
    """Stun damage: a full stun track overflows into the physical track. Returns (physical, stun)."""
    total = max(0, stun + boxes)
    overflow = max(0, total - BOXES)
    return physical + overflow, min(total, BOXES)


def add_physical(physical: int, boxes: int, body: int) -> int:
    """Physical damage, kept beyond 10 boxes up to the first overflow box that kills."""
    return min(max(0, physical + boxes), BOXES + max(0, body) + 1)


def status(physical: int, stun: int, body: int) -> Status:
    """Dead past Body overflow boxes, dying with a full physical track, unconscious with a full stun track."""
    if physical - BOXES > max(0, body):
        return Status.DEAD
    if physical >= BOXES:
        return Status.DYING
    if stun >= BOXES:
        return Status.UNCONSCIOUS
    return Status.ACTIVE
