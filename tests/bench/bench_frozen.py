"""The frozen app against the source app: start-up time (whole processes, median of 5) and bundle size.

Measured from outside the process, so nothing in the app changes for the sake of the bench: each run is a
fresh process that starts, builds the main window and exits, timed by the wall clock. Two workloads:
``--screenshot`` (start, open the sample fight, render the window to a PNG, quit) and ``--selftest`` (start,
run the scripted fight and every bundle check, quit). Source and frozen runs alternate, so a busy machine slows
both alike; CPU time is printed beside the wall time for the same reason. ``make package`` builds
``dist/bojovka`` and the bare PySide6 + pyqtgraph bundle (``build/bare/dist/bojovka-bare``) compared against.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[2]
FROZEN = ROOT / "dist" / "bojovka" / "bojovka"
BARE = ROOT / "build" / "bare" / "dist" / "bojovka-bare"
REPEATS = 5


class Timing(NamedTuple):
    """Medians of one command's runs: wall-clock seconds and CPU seconds (less sensitive to a busy machine)."""

    wall: float
    cpu: float


def _environment(home: str) -> dict[str, str]:
    # The Makefile turns bytecode caching off for its own runs; a GM's source install caches it, so the warm-up
    # run may write it here and the source app is timed as it really starts.
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    return {**environment, "QT_QPA_PLATFORM": "offscreen", "PYQTGRAPH_QT_LIB": "PySide6", "BOJOVKA_HOME": home}


def _run(command: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the child) for one fresh process with its own BOJOVKA_HOME."""
    with tempfile.TemporaryDirectory(prefix="bojovka-bench-") as home:
        arguments = [part.replace("{home}", home) for part in command]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(arguments, env=_environment(home), cwd=ROOT, check=True, capture_output=True)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def compare(first: list[str], second: list[str]) -> tuple[Timing, Timing]:
    """Medians for two commands, run alternately (the machine's load hits both alike) after a warm-up each."""
    _run(first), _run(second)
    runs = [(_run(first), _run(second)) for _repeat in range(REPEATS)]
    return _medians([pair[0] for pair in runs]), _medians([pair[1] for pair in runs])


def _medians(runs: list[tuple[float, float]]) -> Timing:
    return Timing(statistics.median(run[0] for run in runs), statistics.median(run[1] for run in runs))


def _workloads() -> dict[str, list[str]]:
    return {"--screenshot (window rendered)": ["--screenshot", "{home}/shot.png"],
            "--selftest (scripted fight + checks)": ["--selftest"]}


def startup_rows() -> list[tuple[str, Timing, Timing]]:
    """(workload, source timing, frozen timing)."""
    source = [sys.executable, "-m", "app.main"]
    return [(name, *compare(source + arguments, [str(FROZEN), *arguments])) for name, arguments in _workloads().items()]


def megabytes(folder: Path) -> float:
    """Size of a folder's files (links not followed), in MiB."""
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file() and not path.is_symlink()) / 2**20


def size_rows() -> list[tuple[str, float]]:
    """(bundle, MiB) for the Bojovka bundle and, when built, the bare one."""
    rows = [("dist/bojovka", megabytes(FROZEN.parent))]
    if BARE.is_dir():
        rows.append(("bare PySide6 + pyqtgraph (same spec)", megabytes(BARE)))
    return rows


def available() -> str | None:
    """None when the frozen app is there, otherwise why the bench is skipped."""
    return None if FROZEN.is_file() else f"skipped: {FROZEN.relative_to(ROOT)} does not exist (run `make package`)"
