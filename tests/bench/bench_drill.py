"""The table drill of every game (see :mod:`tests.bench.drill`), timed: inputs per step and milliseconds.

Each game runs in its own process (``python -m tests.bench.bench_drill GAME`` prints one JSON line) on a fresh
data folder, playing the round :data:`RUNS` times on fresh copies of the sample; the inputs are the same every
run, the time is the median with its spread.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

GAMES = ("sr3", "walka", "souboj", "institut", "clovek")
RUNS = 5


@dataclass(frozen=True)
class StepFigure:
    """One step of the drill for one game: inputs (keys, clicks), whether it was done, times in milliseconds."""

    name: str
    keys: int
    clicks: int
    done: bool
    note: str
    median_ms: float
    low_ms: float
    high_ms: float

    @property
    def inputs(self) -> int:
        """Key presses plus clicks."""
        return self.keys + self.clicks


def measure(game: str) -> list[StepFigure]:
    """Play the round RUNS times on fresh copies of ``game``'s sample in one window each."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ["BOJOVKA_HOME"] = tempfile.mkdtemp(prefix="bojovka-drill-")
    from PySide6.QtWidgets import QApplication

    from app.library import Library
    from app.workspace import Workspace
    from rules.dice import Roller
    from tests.bench.drill import play
    from ui.main_window import MainWindow

    application = QApplication.instance() or QApplication(sys.argv[:1])
    runs = []
    for run in range(RUNS):
        workspace = Workspace(roller=Roller.seeded(run + 1),
                              library=Library(Path(os.environ["BOJOVKA_HOME"]) / "library.sqlite3"))
        window = MainWindow(workspace)
        workspace.open_sample(game)
        window.show_fight()
        window.show()
        application.processEvents()
        runs.append(play(window))
        workspace.document.undo_stack.setClean()
        window.close()
        workspace.close(keep_journal=False)
    figures = []
    for index, step in enumerate(runs[0]):
        times = [steps[index].seconds * 1000 for steps in runs]
        figures.append(StepFigure(step.name, step.keys, step.clicks, all(steps[index].done for steps in runs),
                                  step.note, statistics.median(times), min(times), max(times)))
    return figures


def run(games: tuple[str, ...] = GAMES) -> dict[str, list[StepFigure]]:
    """Every game, each in a fresh process."""
    root = Path(__file__).resolve().parents[2]
    results = {}
    for game in games:
        output = subprocess.run([sys.executable, "-m", "tests.bench.bench_drill", game], cwd=root,
                                capture_output=True, text=True, check=True, timeout=600).stdout
        results[game] = [StepFigure(**item) for item in json.loads(output.strip().splitlines()[-1])]
    return results


def main(argv: list[str]) -> int:
    """Measure one game and print its steps as JSON (the parent process collects them)."""
    print(json.dumps([figure.__dict__ for figure in measure(argv[0])]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
