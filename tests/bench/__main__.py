"""`make bench`: every performance figure of the README's "Quality" section, each with its goal.

``python -m tests.bench [p1 p2 p3 p4 dice]`` runs the named parts (all by default). Every figure is a
median of several runs measured in this one invocation; ratios compare figures taken in the same run.
"""

from __future__ import annotations

import platform
import sys
from collections.abc import Callable

from tests.bench import (
    bench_actions,
    bench_charts,
    bench_dice,
    bench_drill,
    bench_frozen,
    bench_load,
    bench_odds,
    bench_odds_charts,
    bench_startup,
)


def _format_seconds(seconds: float) -> str:
    return f"{seconds * 1e3:.2f} ms" if seconds >= 1e-3 else f"{seconds * 1e6:.1f} µs"


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:8.1f} ms"


def _us(seconds: float) -> str:
    return f"{seconds * 1e6:9.1f} µs"


def _verdict(met: bool) -> str:
    return "goal met" if met else "GOAL MISSED"


def print_startup() -> None:
    """P1."""
    figures = bench_startup.run()
    ratio = figures.source / figures.bare
    print(f"P1 start-up to the first paint, last encounter restored (median of {bench_startup.RUNS} runs, "
          f"QT_QPA_PLATFORM={figures.platform})")
    print(f"  bare QMainWindow + pyqtgraph   {_ms(figures.bare)}")
    print(f"  Bojovka from source            {_ms(figures.source)}   {ratio:4.2f}×   goal ≤ 1.3×: "
          f"{_verdict(ratio <= 1.3)}")
    if figures.frozen is not None:
        frozen = figures.frozen / figures.bare
        print(f"  Bojovka frozen bundle          {_ms(figures.frozen)}   {frozen:4.2f}×   goal ≤ 1.3×: "
              f"{_verdict(frozen <= 1.3)}")
    else:
        print(f"  (frozen bundle: set {bench_startup.FROZEN_VARIABLE}=path/to/bojovka to measure it)")


def print_odds() -> None:
    """P2."""
    print("\nP2 odds: every query the dialogs make, ours (cold caches) vs the same query in icepool")
    print(f"  {'query':56} {'ours':>12} {'warm':>12} {'icepool':>12} {'ratio':>8} {'max diff':>9}")
    rows = bench_odds.run()
    for row in rows:
        print(f"  {row.name:56} {_us(row.ours_cold):>12} {_us(row.ours_warm):>12} {_us(row.icepool):>12} "
              f"{row.ratio:7.0f}× {row.difference:9.1e}")
    fastest = min(row.ratio for row in rows)
    worst = max(row.difference for row in rows)
    print(f"  slowest ratio {fastest:.0f}× (goal ≥ 10×), largest difference {worst:.1e} (goal ≤ 1e-12): "
          f"{_verdict(fastest >= 10 and worst <= bench_odds.TOLERANCE)}")


def print_actions() -> None:
    """P3: every action kind at ≤ 16 ms, at the 95th percentile on 300 combatants, at the median on 1,000."""
    print(f"\nP3 GM actions in the real window, {bench_actions.HISTORY:,} operations of history "
          "(ms per action: median / 95th percentile, including the Qt models, the views' repaint and the "
          "fsynced journal)")
    results = bench_actions.run()
    print(f"  {'combatants':>10} " + " ".join(f"{name:>13}" for name in bench_actions.ACTIONS)
          + "   rules' next   peak RSS   load")
    for result in results:
        cells = []
        for name in bench_actions.ACTIONS:
            flag = "?" if name in result.unreliable else " "
            cells.append(f"{result.milliseconds[name]:6.1f}/{result.p95_milliseconds[name]:5.1f}{flag}")
        print(f"  {result.size:>10} " + " ".join(cells)
              + f"   {result.rules_milliseconds['next']:8.2f} ms   {result.peak_rss_mb:6.0f} MB   {result.load:4.1f}")
    unreliable = sorted({f"{name} at {result.size}" for result in results for name in result.unreliable})
    if unreliable:
        print(f"  unreliable (? above: the middle half of the samples spans more than "
              f"{bench_actions.SPREAD:.0%} of the median): {', '.join(unreliable)}")
    by_size = {result.size: result for result in results}
    if 300 in by_size:
        slowest = max(by_size[300].p95_milliseconds.items(), key=lambda item: item[1])
        print(f"  slowest 95th percentile at 300: {slowest[0]} {slowest[1]:.1f} ms (goal ≤ 16 ms): "
              f"{_verdict(slowest[1] <= 16)}")
    if 1000 in by_size:
        slowest = max(by_size[1000].milliseconds.items(), key=lambda item: item[1])
        print(f"  slowest median at 1,000: {slowest[0]} {slowest[1]:.1f} ms (goal ≤ 16 ms): "
              f"{_verdict(slowest[1] <= 16)}; peak memory {by_size[1000].peak_rss_mb:.0f} MB (goal ≤ 200 MB): "
              f"{_verdict(by_size[1000].peak_rss_mb <= 200)}")


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


def print_load() -> None:
    """P4."""
    figures = bench_load.run()
    print(f"\nP4 a {bench_load.OPERATIONS:,}-operation fight ({figures['bytes'] / 2**20:.1f} MB), median of "
          f"{bench_load.RUNS} runs")
    opened = figures["open"] / figures["json_file"]
    recovered = figures["recover"] / figures["json_journal"]
    print(f"  json.load of the file          {_ms(figures['json_file'])}")
    print(f"  open (load_encounter)          {_ms(figures['open'])}   {opened:4.2f}×   goal ≤ 3×: "
          f"{_verdict(opened <= 3)}")
    print(f"  json.loads of the journal      {_ms(figures['json_journal'])}")
    print(f"  recover (journal + 50 changes) {_ms(figures['recover'])}   {recovered:4.2f}×   goal ≤ 3×: "
          f"{_verdict(recovered <= 3)}")
    print(f"  replayed in full (as schema 1) {_ms(figures['replay'])}   "
          f"{figures['replay'] / figures['json_file']:4.1f}×   (for comparison)")
    print(f"  opened into the main window    {_ms(figures['window'])}   (for comparison: undo stack and log "
          "filled, journal restarted, repainted)")


def print_dice() -> None:
    """The dice line's refusals, as a figure (the test only checks them against a generous bound)."""
    rows = bench_dice.run()
    slowest = max(seconds for _text, seconds in rows)
    print(f"\nDice line abuse: {len(rows)} hostile inputs refused, slowest {_ms(slowest)} (goal < 10 ms): "
          f"{_verdict(slowest < 0.010)}")


#: The drill's goals (issue "Faster than paper"): inputs from the NPC's turn to the damage on its target, and for
#: damage to a row already selected.
DRILL_GOALS = {"NPC attack, saved weapon": 3, "Damage to a selected row": 3}


def print_drill() -> None:
    """The table drill: a standard round of every game through the real window, inputs and time per step."""
    print(f"\nTable drill: one standard round per game through the real window (keys + clicks; time from the "
          f"first input to the result painted, median of {bench_drill.RUNS} runs and range)")
    for game, steps in bench_drill.run().items():
        print(f"  {game}")
        for step in steps:
            goal = DRILL_GOALS.get(step.name)
            verdict = f"   goal ≤ {goal}: {_verdict(step.done and step.inputs <= goal)}" if goal else ""
            state = "" if step.done else f"   NOT DONE: {step.note}"
            print(f"    {step.name:30} {step.inputs:3} inputs ({step.keys} keys, {step.clicks} clicks) "
                  f"{step.median_ms:8.1f} ms  [{step.low_ms:.1f}–{step.high_ms:.1f}]{verdict}{state}")


PARTS: dict[str, Callable[[], None]] = {"p1": print_startup, "p2": print_odds, "p3": print_actions,
                                        "p4": print_load, "dice": print_dice, "charts": print_charts,
                                        "odds-charts": print_odds_charts, "frozen": print_frozen,
                                        "drill": print_drill}


def main(argv: list[str]) -> int:
    """Print the chosen parts (all by default)."""
    print(f"Bojovka benchmarks — Python {platform.python_version()}, {platform.platform()}\n")
    for name in argv or list(PARTS):
        PARTS[name]()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
