"""P4: opening and recovering a 10,000-operation fight, against a plain ``json.load`` of the same file.

The fight is the crash test's scripted SR3 fight among the seed's eight characters, 10,000 operations long.
Measurements run in a fresh process (``python -m tests.bench.bench_load DIR``, which prints one JSON line),
alternating ours and ``json.load`` so both see the same machine state; figures are medians.

- *open*: ``load_encounter`` of the saved (sealed) file: the fight ready for the GM, its state checked.
- *recover*: ``recover`` of a journal left by a killed Bojovka: the same fight as the journal's header plus
  50 changes since (operations, undos, redos), against ``json.loads`` of every line of that journal.
- *replay in full*: the same file opened as an edited file is (every operation replayed), for comparison.
- *window*: ``Workspace.open`` into the real main window (undo stack, log, journal restarted) up to its first
  paint (events processed, then the window grabbed: every visible widget painted), alternated with
  ``json.loads`` of the same file; goal ≤ 2.5× (issue 14). Both sides report median, min and max.
  Bojovka holds Python's cycle collector off while it opens a fight (app.storage.collector_paused); the
  ``json.loads`` baselines run as any program's would, with it on (paused, ``json.loads`` takes about half).
"""

from __future__ import annotations

import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

OPERATIONS = 10_000
RUNS = 7


def _script(extra: int) -> list[Any]:
    from tests.app.crash_worker import build_script

    return [step.operation for step in build_script(7, OPERATIONS + extra, only_operations=True)]


def long_fight(operations: list[Any]) -> Any:
    """The seed's eight characters and the first 10,000 operations of the script."""
    from tests.rules.sr3_scenes import eight_characters

    history, _ids = eight_characters()
    for operation in operations[:OPERATIONS]:
        history.do(operation)
    return history


def prepare(directory: Path) -> tuple[Path, Path]:
    """Save the fight, and leave a journal of it with 50 more changes, as a killed Bojovka would."""
    from app.document import EncounterDocument
    from app.recovery import Journal
    from app.storage import save_encounter

    operations = _script(40)
    history = long_fight(operations)
    path = directory / "long.bojovka"
    save_encounter(history, path)
    journal = Journal.start(history, path)
    document = EncounterDocument(history, path, journal)
    for number, operation in enumerate(operations[OPERATIONS:]):  # 40 operations, 5 undos and 5 redos
        document.apply(operation)
        if number % 8 == 7:
            document.undo_stack.undo()
            document.undo_stack.redo()
    journal._close_file()  # killed: the journal and its lock file stay, the lock itself goes with the process
    journal._lock.release()
    return path, journal.path


def _median_pair(ours: Callable[[], object], baseline: Callable[[], object]) -> tuple[float, float]:
    ours_times, baseline_times = [], []
    for _run in range(RUNS):
        gc.collect()  # each side starts from the same heap (collections during the call still count)
        start = time.perf_counter()
        baseline()
        baseline_times.append(time.perf_counter() - start)
        gc.collect()
        start = time.perf_counter()
        ours()
        ours_times.append(time.perf_counter() - start)
    return statistics.median(ours_times), statistics.median(baseline_times)


def _journal_lines(journal: Path) -> list[Any]:
    return [json.loads(line) for line in journal.read_bytes().splitlines() if line.strip()]


def _spread(times: list[float]) -> dict[str, float]:
    return {"median": statistics.median(times), "min": min(times), "max": max(times)}


def _window_open(path: Path) -> dict[str, dict[str, float]]:
    """Opening into the main window up to its first paint, and ``json.loads`` of the file, alternated."""
    from PySide6.QtWidgets import QApplication

    from app.library import Library
    from app.workspace import Workspace
    from ui.main_window import MainWindow

    application = QApplication.instance() or QApplication(sys.argv[:1])
    workspace = Workspace(library=Library(path.parent / "library.sqlite3"))
    window = MainWindow(workspace)
    window.show()
    application.processEvents()
    times: list[float] = []
    json_times: list[float] = []
    for _run in range(RUNS):
        gc.collect()
        start = time.perf_counter()
        json.loads(path.read_bytes())
        json_times.append(time.perf_counter() - start)
        gc.collect()
        start = time.perf_counter()
        workspace.open(path)
        application.processEvents()
        window.grab()  # the first paint of everything shown
        times.append(time.perf_counter() - start)
        workspace.new("sr3")  # releases the file's lock for the next round
        application.processEvents()
    window.close()
    return {"window": _spread(times), "json": _spread(json_times)}


def measure(directory: Path) -> dict[str, Any]:
    """Every P4 figure, in seconds (run in a fresh process)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ["BOJOVKA_HOME"] = str(directory / "home")
    from app.recovery import RecoveryCandidate, recover
    from app.storage import load_encounter
    from rules.serialize import history_from_document

    path, journal = prepare(directory)
    candidate = RecoveryCandidate(journal, path, "long", 50, __import__("datetime").datetime.now(), True)
    opened, json_file = _median_pair(lambda: load_encounter(path), lambda: json.loads(path.read_bytes()))
    recovered, json_journal = _median_pair(lambda: recover(candidate), lambda: _journal_lines(journal))
    replayed, _json = _median_pair(lambda: history_from_document(json.loads(path.read_bytes())),
                                   lambda: json.loads(path.read_bytes()))
    return {"bytes": path.stat().st_size, "journal_bytes": journal.stat().st_size, "open": opened,
            "json_file": json_file, "recover": recovered, "json_journal": json_journal, "replay": replayed,
            "window": _window_open(path)}


def run() -> dict[str, Any]:
    """Measure in a fresh process and return its figures."""
    root = Path(__file__).resolve().parents[2]
    with tempfile.TemporaryDirectory(prefix="bojovka-bench-") as directory:
        output = subprocess.run([sys.executable, "-m", "tests.bench.bench_load", directory], cwd=root,
                                capture_output=True, text=True, check=True, timeout=1800).stdout
    figures: dict[str, Any] = json.loads(output.strip().splitlines()[-1])
    return figures


def main(argv: list[str]) -> int:
    """Measure in ``argv[0]`` (a fresh directory) and print the figures as JSON."""
    print(json.dumps(measure(Path(argv[0]))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
