"""`make bench`: run every benchmark and print its tables (odds vs icepool, history, frozen vs source start-up)."""

from __future__ import annotations

import sys

from tests.bench import bench_charts, bench_frozen, bench_history, bench_odds, bench_odds_charts


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


def print_frozen() -> None:
    """Start-up of the PyInstaller bundle against the source app, and the bundle's size."""
    print(f"\nFrozen app vs source app: process start to exit (median of {bench_frozen.REPEATS})")
    skipped = bench_frozen.available()
    if skipped:
        print(skipped)
        return
    print(f"{'workload (wall time; CPU time)':48} {'source':>12} {'frozen':>12} {'ratio':>9}")
    for name, source, frozen in bench_frozen.startup_rows():
        print(f"{name:48} {_format_seconds(source.wall):>12} {_format_seconds(frozen.wall):>12} "
              f"{frozen.wall / source.wall:8.2f}×")
        print(f"{'  CPU':48} {_format_seconds(source.cpu):>12} {_format_seconds(frozen.cpu):>12} "
              f"{frozen.cpu / source.cpu:8.2f}×")
    sizes = bench_frozen.size_rows()
    for name, size in sizes:
        print(f"{'size: ' + name:48} {size:9.1f} MB")
    if len(sizes) == 2:
        print(f"{'size ratio (goal: at most 1.30)':48} {sizes[0][1] / sizes[1][1]:11.2f}×")


def main() -> int:
    """Print every table."""
    print_odds()
    print_history()
    print_charts()
    print_odds_charts()
    print_frozen()
    return 0


if __name__ == "__main__":
    sys.exit(main())
