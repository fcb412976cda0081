"""`make bench`: run every benchmark and print a table (our time, icepool's time, their ratio)."""

from __future__ import annotations

import sys

from tests.bench import bench_charts, bench_history, bench_odds, bench_odds_charts


def _format_seconds(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:9.1f} µs"
    return f"{seconds * 1e3:9.2f} ms"


def print_odds() -> None:
    """Our odds engine against icepool, one row per query the UI makes."""
    print("Odds engine vs icepool (per call; ratio = icepool / ours)")
    print(f"{'query':48} {'ours':>12} {'icepool':>12} {'ratio':>9}")
    for name, ours, theirs in bench_odds.run():
        print(f"{name:48} {_format_seconds(ours):>12} {_format_seconds(theirs):>12} {theirs / ours:8.1f}×")


def print_history() -> None:
    """GM actions through the history API (no window yet), per action."""
    print("\nHistory operations (median per action)")
    print(f"{'action':48} {'time':>12}")
    for name, seconds in bench_history.run():
        print(f"{name:48} {_format_seconds(seconds):>12}")


def print_charts() -> None:
    """The initiative chart on a long fight (a frame is 16 ms)."""
    print("\nInitiative chart (median per step)")
    print(f"{'step':60} {'time':>12}")
    for name, seconds in bench_charts.run():
        print(f"{name:60} {_format_seconds(seconds):>12}")


def print_odds_charts() -> None:
    """Odds charts following a modifier: the change, the recomputation and the paint (one frame = 16 ms)."""
    print("\nOdds charts after a modifier change (change + recompute + paint)")
    print(f"{'chart':48} {'median':>12} {'95 %':>12}")
    for name, median, slow in bench_odds_charts.run():
        print(f"{name:48} {_format_seconds(median):>12} {_format_seconds(slow):>12}")


def main() -> int:
    """Print every table."""
    print_odds()
    print_history()
    print_charts()
    print_odds_charts()
    return 0


if __name__ == "__main__":
    sys.exit(main())
