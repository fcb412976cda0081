"""The dice line's refusals, timed: the corpus of hostile inputs from tests/rules/test_dice_abuse.py."""

from __future__ import annotations

import statistics
import time

from tests.rules.test_dice_abuse import HOSTILE, refuse

REPEATS = 5


def _seconds_to_refuse(line: str, faces: str) -> float:
    started = time.perf_counter()
    refuse(line, faces)
    return time.perf_counter() - started


def run() -> list[tuple[str, float]]:
    """(input, median seconds to refuse it) for every hostile input."""
    return [(f"{line[:30]!r} / {faces[:30]!r}",
             statistics.median(_seconds_to_refuse(line, faces) for _ in range(REPEATS)))
            for line, faces in HOSTILE]
