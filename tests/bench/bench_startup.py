"""P1: start-up, from process start to the main window's first paint with the last encounter restored.

Against the practical floor: a bare script that imports PySide6 and pyqtgraph and shows an empty
``QMainWindow`` (:mod:`tests.bench.bare_window`). Both print the wall-clock time of their first paint
(``--startup-probe``); the time is taken from just before the process is spawned, so it includes the
interpreter's own start. Runs alternate (app, bare, app, …) after one warm-up run of each, which also
writes the bytecode caches (a source checkout run with ``PYTHONDONTWRITEBYTECODE`` would compile every
module on every start: this benchmark unsets it, as ``make run`` does).

The user directory holds the SR3 sample saved as the last encounter, so start-up opens it, as at the
table. A frozen bundle (issue 7) is measured too when ``BOJOVKA_FROZEN`` names its executable.
"""

from __future__ import annotations

import dataclasses
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNS = 11
GOAL = 1.1  # issue 14: at most 1.1 times the bare window
#: A side whose interquartile range exceeds this share of its median was measured on too busy a machine.
UNRELIABLE_SPREAD = 0.20
ROOT = Path(__file__).resolve().parents[2]
FROZEN_VARIABLE = "BOJOVKA_FROZEN"


@dataclasses.dataclass(frozen=True)
class Spread:
    """The seconds of one command's runs: median, range and interquartile range."""

    runs: tuple[float, ...]

    @property
    def median(self) -> float:
        return statistics.median(self.runs)

    @property
    def low(self) -> float:
        return min(self.runs)

    @property
    def high(self) -> float:
        return max(self.runs)

    @property
    def iqr(self) -> float:
        if len(self.runs) < 2:
            return 0.0
        quartiles = statistics.quantiles(self.runs, n=4, method="inclusive")
        return quartiles[2] - quartiles[0]

    @property
    def unreliable(self) -> bool:
        """The runs scatter too much (another process took the CPU) for the median to be trusted."""
        return self.iqr > UNRELIABLE_SPREAD * self.median


@dataclasses.dataclass(frozen=True)
class StartupFigures:
    """Seconds to the first paint: ours from source, the bare floor, and a frozen bundle if given."""

    spreads: dict[str, Spread]
    platform: str

    @property
    def source(self) -> float:
        return self.spreads["source"].median

    @property
    def bare(self) -> float:
        return self.spreads["bare"].median

    @property
    def frozen(self) -> float | None:
        return self.spreads["frozen"].median if "frozen" in self.spreads else None

    @property
    def unreliable(self) -> list[str]:
        """The commands whose runs scattered too much."""
        return [name for name, spread in self.spreads.items() if spread.unreliable]


def prepare_home(home: Path, system_id: str = "sr3") -> None:
    """A user directory whose last encounter is the sample of ``system_id`` (saved as the GM's own file)."""
    previous = os.environ.get("BOJOVKA_HOME")
    os.environ["BOJOVKA_HOME"] = str(home)
    try:
        from app.samples import sample_path
        from app.settings import load_settings, save_settings, with_recent_file
        from app.storage import load_encounter, save_encounter

        path = home / "encounters" / "last.bojovka"
        path.parent.mkdir(parents=True, exist_ok=True)
        save_encounter(load_encounter(sample_path(system_id)), path)
        save_settings(dataclasses.replace(with_recent_file(load_settings(), path), last_encounter=str(path)))
    finally:
        if previous is None:
            del os.environ["BOJOVKA_HOME"]
        else:
            os.environ["BOJOVKA_HOME"] = previous


def first_paint(command: list[str], env: dict[str, str]) -> float:
    """Seconds from spawning ``command`` to the first paint it reports."""
    started = time.time()
    result = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=True)
    for line in result.stdout.splitlines():
        if line.startswith("startup-probe "):
            return float(line.split()[1]) - started
    raise RuntimeError(f"{command[0]} printed no startup-probe line: {result.stdout!r} {result.stderr!r}")


def run(runs: int = RUNS) -> StartupFigures:
    """First-paint times over ``runs`` alternating runs of each command."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    with tempfile.TemporaryDirectory(prefix="bojovka-startup-") as home:
        prepare_home(Path(home))
        env["BOJOVKA_HOME"] = home
        commands = {"source": [sys.executable, "-m", "app.main", "--startup-probe"],
                    "bare": [sys.executable, "-m", "tests.bench.bare_window"]}
        frozen = os.environ.get(FROZEN_VARIABLE)
        if frozen:
            commands["frozen"] = [frozen, "--startup-probe"]
        times: dict[str, list[float]] = {name: [] for name in commands}
        for command in commands.values():  # warm-up: bytecode written, files in the OS cache
            first_paint(command, env)
        for _run in range(runs):
            for name, command in commands.items():
                times[name].append(first_paint(command, env))
    spreads = {name: Spread(tuple(values)) for name, values in times.items()}
    return StartupFigures(spreads, env["QT_QPA_PLATFORM"] or "?")
