"""`make bench`: every performance figure of the README's "Quality" section, each with its goal.

``python -m tests.bench [p1 p2 p3 p4 dice]`` runs the named parts (all by default). Every figure is a
median of several runs measured in this one invocation; ratios compare figures taken in the same run.
"""

from __future__ import annotations

import os
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


def _spread(spread: bench_startup.Spread) -> str:
    return (f"{_ms(spread.median)}  (range {spread.low * 1e3:.0f}–{spread.high * 1e3:.0f} ms, "
            f"IQR {spread.iqr * 1e3:.0f} ms = {spread.iqr / spread.median:4.0%})")


def print_startup() -> None:
    """P1."""
    load = _load_average()  # before the runs, which load the machine themselves
    figures = bench_startup.run()
    goal = bench_startup.GOAL
    print(f"P1 start-up to the first paint, last encounter restored (median of {bench_startup.RUNS} alternating "
          f"runs each, QT_QPA_PLATFORM={figures.platform}; load average before {load}, after {_load_average()})")
    print(f"  bare QMainWindow + pyqtgraph   {_spread(figures.spreads['bare'])}")
    print(f"  Bojovka from source            {_spread(figures.spreads['source'])}")
    ratio = figures.source / figures.bare
    print(f"    ratio of medians             {ratio:4.2f}×   goal ≤ {goal}×: {_verdict(ratio <= goal)}")
    if figures.frozen is not None:
        print(f"  Bojovka frozen bundle          {_spread(figures.spreads['frozen'])}")
        frozen = figures.frozen / figures.bare
        print(f"    ratio of medians             {frozen:4.2f}×   goal ≤ {goal}×: {_verdict(frozen <= goal)}")
    else:
        print(f"  (frozen bundle: set {bench_startup.FROZEN_VARIABLE}=path/to/bojovka to measure it)")
    if figures.unreliable:
        print(f"  unreliable: spread too large (IQR over {bench_startup.UNRELIABLE_SPREAD:.0%} of the median) for "
              f"{', '.join(figures.unreliable)}; the machine is busy, run again when it is idle")


def _load_average() -> str:
    try:
        return " ".join(f"{value:.2f}" for value in os.getloadavg())
    except (AttributeError, OSError):
        return "unknown"


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
    window, json_side = figures["window"]["window"], figures["window"]["json"]
    shown = window["median"] / json_side["median"]
    print(f"  json.load of the file (alternated with the next) {_ms(json_side['median'])}  "
          f"[{json_side['min'] * 1e3:.1f}–{json_side['max'] * 1e3:.1f}]{_unreliable(json_side)}")
    print(f"  opened into the window, first paint              {_ms(window['median'])}  "
          f"[{window['min'] * 1e3:.1f}–{window['max'] * 1e3:.1f}]{_unreliable(window)}   {shown:4.2f}×   "
          f"goal ≤ 2.5×: {_verdict(shown <= 2.5)}")


def _unreliable(figure: dict[str, float]) -> str:
    """Flag a figure whose runs spread by more than 20 % of its median (a busy machine)."""
    return "  unreliable" if figure["max"] - figure["min"] > 0.2 * figure["median"] else ""


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
