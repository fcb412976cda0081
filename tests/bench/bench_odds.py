"""Odds benchmarks: our engine against icepool on the queries the dialogs and charts make.

:func:`run` returns ``(name, our seconds per call, icepool seconds per call)`` rows. "cold" rows clear our
success-count cache before every (separately timed) call; "warm" rows hit it, as a dialog does while the GM
edits one field. Icepool keeps its own internal caches warm throughout, so its figures are if anything low.
Floats are our default; the "exact" rows compare like with like, since icepool always counts exactly.
"""

from __future__ import annotations

import math
import statistics
import time
import timeit
from collections.abc import Callable
from typing import Any

import icepool

from rules import odds
from rules.systems.sr3 import odds as sr3_odds
from rules.systems.sr3.levels import stage

#: Seconds spent measuring each side of each row (roughly).
BUDGET = 0.2
MIN_CALLS = 5

Row = tuple[str, float, float]


def per_call(call: Callable[[], object], before: Callable[[], object] | None = None) -> float:
    """Seconds per call: batched when nothing runs in between, else timed one by one after ``before``."""
    if before is None:
        timer = timeit.Timer(call)
        number, _ = timer.autorange()  # enough calls for at least 0.2 s
        return min(timer.repeat(repeat=3, number=number)) / number
    times: list[float] = []
    while sum(times) < BUDGET or len(times) < MIN_CALLS:
        before()
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


# --- icepool constructions of the same queries --------------------------------------------------------------


def icepool_successes(dice: int, tn: int) -> Any:
    """SR3 success count: a d6 exploding on 6 (deep enough for ``tn``) compared with ``tn``, per die."""
    one = icepool.d6.explode(depth=math.ceil(tn / 6)).map(lambda total: int(total >= tn))
    return dice @ one


def icepool_damage(dice: int, tn: int, level: str) -> Any:
    """The SR3 ranged procedure as one icepool map over attack, dodge and resistance successes."""
    count = icepool_successes(dice, tn)

    def outcome(attack: int, dodge: int, resist: int) -> str:
        if attack == 0:
            return "miss"
        if dodge > attack:
            return "dodged"
        return stage(level, attack - (dodge + resist)) or "none"

    return icepool.map(outcome, count, count, count)


def icepool_exploding(dice: int, success_at: int, explode_at: int) -> Any:
    """Exploding d10 successes; depth 12 leaves a tail of about 1e-12 per die, like our cut."""
    one = icepool.d10.map(
        lambda face: 1 + icepool.Again if face >= explode_at else int(face >= success_at), again_depth=12
    )
    return dice @ one


# --- rows ---------------------------------------------------------------------------------------------------


def sr3_rows() -> list[Row]:
    """Success tests and the whole attack, cold and warm."""
    queries: list[tuple[str, Callable[[], object], Callable[[], object]]] = [
        (
            "sr3 successes_distribution(12, 5)",
            lambda: sr3_odds.successes_distribution(12, 5),
            lambda: icepool_successes(12, 5),
        ),
        (
            "sr3 successes_distribution(40, 13)",
            lambda: sr3_odds.successes_distribution(40, 13),
            lambda: icepool_successes(40, 13),
        ),
        (
            "sr3 damage_distribution(20/20/20, M)",
            lambda: sr3_odds.damage_distribution(20, 4, 20, 4, 20, 4, "M"),
            lambda: icepool_damage(20, 4, "M"),
        ),
    ]
    rows: list[Row] = []
    for name, ours, theirs in queries:
        icepool_time = per_call(theirs)
        rows.append((f"{name} cold", per_call(ours, before=sr3_odds.clear_cache), icepool_time))
        rows.append((f"{name} warm", per_call(ours), icepool_time))
    return rows


def engine_rows() -> list[Row]:
    """Engine primitives the other games build on."""
    queries: list[tuple[str, Callable[[], object], Callable[[], object]]] = [
        ("sum of 10d6", lambda: odds.sum_of(10, odds.die(6)), lambda: 10 @ icepool.d6),
        ("sum of 10d6 exact", lambda: odds.sum_of(10, odds.die(6, exact=True)), lambda: 10 @ icepool.d6),
        ("keep-lowest 3d20", lambda: odds.keep_lowest(3, 20), lambda: icepool.d20.lowest(3)),
        ("keep-lowest 3d20 exact", lambda: odds.keep_lowest(3, 20, exact=True), lambda: icepool.d20.lowest(3)),
        (
            "clovek exploding 10d10 (>=7, 10 again)",
            lambda: odds.exploding_pool(10, 10, 7, 10),
            lambda: icepool_exploding(10, 7, 10),
        ),
        (
            "clovek exploding 10d10 (>=7, 10 again) exact",
            lambda: odds.exploding_pool(10, 10, 7, 10, exact=True),
            lambda: icepool_exploding(10, 7, 10),
        ),
    ]
    return [(name, per_call(ours), per_call(theirs)) for name, ours, theirs in queries]


def run() -> list[Row]:
    """Every benchmark row: (name, our seconds per call, icepool seconds per call)."""
    return sr3_rows() + engine_rows()
