"""P3: what a GM action costs in the real window, on fights of 10 to 1,000 combatants with 5,000 operations.

Each size runs in its own process (``python -m tests.bench.bench_actions SIZE`` prints one JSON line), so its
peak RSS is its own. The process builds the fight in the rules layer, loads it into the real ``MainWindow``
(offscreen, every dock it has: initiative table, details, effects, log, undo view, and any chart dock a
later branch adds), then times each action through the path the window uses, up to and including the
repaint that follows (``processEvents``): Next (the action), Damage (what the damage dialog's OK does),
Undo and Redo (the Edit actions), Add ×10 (what the add-combatants dialog's OK does) and Attack (the SR3
attack dialog, open over the window: Roll the rest and Resolve, the dialog's own refresh included; filling
in the skill and pressing its Next are the GM's typing, not timed). Every action is journaled and fsynced,
as at the table; the journal lives in a temporary folder. Per kind: the median and the 95th percentile, and
whether the samples spread too much to trust (the machine is shared: the load average is reported too).

Each timed action starts from an idle window and is timed until the window is idle again. One
``processEvents`` after an action handles only the first round of its repaint: painting schedules more (a
second update request, the log scrolled to its new line), which the next ``processEvents`` handles, so a
sample took part of its own repaint and part of the previous action's. Now the events the untimed steps left
(opening the dialog, its Next, a new round) are handled before the clock starts, and after the action the
events are processed for SETTLE_SECONDS, counting only the calls that handled something (an idle call takes
~2 µs; one that handles anything at all takes more than IDLE_CALL_SECONDS), so idle waiting is not timed.
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SIZES = (10, 100, 300, 1000)
HISTORY = 5_000
REPEATS = 40
ADD_REPEATS = 10
ACTIONS = ("next", "damage", "undo", "redo", "add ×10", "attack")
#: How long the events are processed around an action: before it, untimed; after it, the busy calls timed.
SETTLE_SECONDS = 0.03
#: A processEvents call that took longer handled something (an idle one takes ~2 µs on the development machine).
IDLE_CALL_SECONDS = 0.00005
#: Samples whose interquartile range exceeds this share of their median are reported as unreliable.
SPREAD = 0.5


@dataclass(frozen=True)
class SizeResult:
    """Per action for one fight size: median and 95th-percentile milliseconds, whether the samples spread too much
    to trust; the rules layer's own share, the peak RSS and the load average while it ran."""

    size: int
    milliseconds: dict[str, float]
    p95_milliseconds: dict[str, float]
    unreliable: list[str]
    rules_milliseconds: dict[str, float]
    peak_rss_mb: float
    build_seconds: float
    load: float = 0.0


def percentile(values: list[float], share: float) -> float:
    """The ``share`` quantile (0–1) of ``values``, interpolated between the two nearest samples."""
    ordered = sorted(values)
    position = share * (len(ordered) - 1)
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def spread_too_wide(values: list[float]) -> bool:
    """Whether the middle half of the samples spans more than SPREAD of their median."""
    median = statistics.median(values)
    return median > 0 and (percentile(values, 0.75) - percentile(values, 0.25)) / median > SPREAD


def build_history(size: int) -> Any:
    """``size`` combatants, initiative rolled, then Next and damage until the history holds HISTORY operations."""
    from rules.combatants import AddCombatant, ApplyHarm
    from rules.dice import Roller
    from rules.encounter import Encounter, Side, frozen_map
    from rules.history import History
    from rules.systems import get_system
    from rules.turns import NextTurn, roll_initiative

    history = History(Encounter("sr3", f"{size} combatants"))
    roller = Roller.seeded(size)
    for index in range(size):
        side = Side.PLAYER if index % 4 == 0 else Side.OPPONENT
        attributes = {"reaction": 3 + roller.die(9), "initiative_dice": 1 + roller.die(2), "body": 4}
        history.do(AddCombatant(f"c{index + 1}", f"Fighter {index + 1}", side, frozen_map(attributes)))
    system = get_system("sr3")
    ids = list(history.state.combatants)
    while len(history.entries) < HISTORY:
        if history.state.clock.current is None:
            history.do(roll_initiative(history.state, system, roller))
        elif len(history.entries) % 5 == 0:  # wounds and first aid: everyone stays in the fight
            target = ids[roller.die(size) - 1]
            history.do(ApplyHarm(target, "stun", 1 if history.state.combatant(target).boxes("stun") < 4 else -2))
        else:
            history.do(NextTurn())
    return history


def _busy_seconds(settle: Callable[[], object]) -> float:
    """Process events for SETTLE_SECONDS; the time of the calls that handled something."""
    busy, end = 0.0, time.perf_counter() + SETTLE_SECONDS
    while (start := time.perf_counter()) < end:
        settle()
        spent = time.perf_counter() - start
        if spent > IDLE_CALL_SECONDS:
            busy += spent
    return busy


def _timed(action: Callable[[], object], settle: Callable[[], object]) -> float:
    """Milliseconds of ``action`` and of the event handling it causes, from an idle window to an idle window."""
    _busy_seconds(settle)  # what the untimed steps left, not timed
    start = time.perf_counter()
    action()
    settle()
    return (time.perf_counter() - start + _busy_seconds(settle)) * 1000


def _attack_dialog(window: Any) -> Any:
    """The SR3 attack dialog for the current actor, shown over the window (as the Attack action opens it)."""
    from PySide6.QtCore import Qt

    from ui.games import game_ui

    dialog_class = game_ui(window.document.system.id).attack_dialog()
    assert dialog_class is not None
    dialog = dialog_class(window.document, window.session.roller, window.session.current_actor(), None, window)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)  # as run_dialog does: a closed one follows nothing
    dialog.show()
    return dialog


def _window_samples(window: Any, settle: Callable[[], object]) -> dict[str, list[float]]:
    from app.library import EntryKind, LibraryEntry, to_operations
    from rules.history import Batch

    session, document = window.session, window.document
    undo, redo = window.actions_by_name["undo"], window.actions_by_name["redo"]
    targets = list(document.state.combatants)
    ganger = LibraryEntry(kind=EntryKind.NPC, system_id="sr3", name="Ganger", attributes={"reaction": 4, "body": 4})

    def add_ten() -> None:
        document.apply(Batch(tuple(to_operations(ganger, 10, document.state, document.system)), "Ganger ×10"))

    samples: dict[str, list[float]] = {name: [] for name in ACTIONS}
    for index in range(REPEATS):
        if document.state.clock.current is None:  # the round is over: roll (not timed), as the GM would
            session.roll_initiative()
            settle()
        samples["next"].append(_timed(window.fight.on_next_turn, settle))
        target = targets[index * 7 % len(targets)]
        samples["damage"].append(_timed(lambda: session.harm(target, "physical", 1), settle))  # noqa: B023
    for _index in range(REPEATS):
        samples["undo"].append(_timed(undo.trigger, settle))
    for _index in range(REPEATS):
        samples["redo"].append(_timed(redo.trigger, settle))
    for _index in range(ADD_REPEATS):
        samples["add ×10"].append(_timed(add_ten, settle))
    dialog: Any = None
    for index in range(REPEATS):
        if index % 2 == 0:  # a phase allows two shots: the next actor opens the dialog (not timed)
            if dialog is not None:
                dialog.close()
            window.fight.on_next_turn()
            if document.state.clock.current is None:
                session.roll_initiative()
            dialog = _attack_dialog(window)
        else:
            dialog.next_button.click()  # the same actor's second shot (not timed)
        dialog.dice.skill.setValue(4)  # the GM types the skill (a weapon saved on the sheet would fill it)
        settle()

        def attack() -> None:
            dialog.roll_remaining()  # noqa: B023
            dialog.resolve()  # noqa: B023

        before = len(document.history.entries)
        samples["attack"].append(_timed(attack, settle))
        if len(document.history.entries) != before + 1:
            raise RuntimeError(f"the attack was not resolved: {dialog.problem()} {dialog.status_label.text()}")
    if dialog is not None:
        dialog.close()
    return samples


def _rules_figures(history: Any) -> dict[str, float]:
    """The same actions on the bare history: what the rules layer takes of the window's time."""
    from rules.combatants import ApplyHarm
    from rules.dice import Roller
    from rules.systems import get_system
    from rules.turns import NextTurn, roll_initiative

    target = next(iter(history.state.combatants))
    if history.state.clock.current is None:
        history.do(roll_initiative(history.state, get_system("sr3"), Roller.seeded(1)))
    figures = {}
    for name, action, after in (("next", lambda: history.do(NextTurn()), history.undo),
                                ("damage", lambda: history.do(ApplyHarm(target, "physical", 1)), history.undo),
                                ("undo", history.undo, history.redo), ("redo", history.redo, history.undo)):
        if name == "redo":
            history.undo()
        times = []
        for _index in range(REPEATS):
            times.append(_timed(action, lambda: None))
            after()
        figures[name] = statistics.median(times)
    return figures


def peak_rss_mb() -> float:
    """This process's peak resident memory. Linux: VmHWM (ru_maxrss would include the parent's memory, which
    a child spawned by fork and exec inherits in its accounting); elsewhere ru_maxrss (bytes on macOS)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2**20 if sys.platform == "darwin" else peak / 1024


def measure(size: int) -> SizeResult:
    """Build the fight, load it into the window, time every action (run this in a process of its own)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ["BOJOVKA_HOME"] = tempfile.mkdtemp(prefix="bojovka-bench-")
    from PySide6.QtWidgets import QApplication

    from app.library import Library
    from app.workspace import Workspace
    from ui.main_window import MainWindow

    application = QApplication.instance() or QApplication(sys.argv[:1])
    started = time.perf_counter()
    history = build_history(size)
    build = time.perf_counter() - started
    rules = _rules_figures(history)
    workspace = Workspace(library=Library(Path(os.environ["BOJOVKA_HOME"]) / "library.sqlite3"))
    window = MainWindow(workspace)
    window.show()
    workspace.document.replace_history(history, None)
    window.show_fight()
    application.processEvents()
    samples = _window_samples(window, application.processEvents)
    peak = peak_rss_mb()
    workspace.document.undo_stack.setClean()  # nothing to ask about on closing
    window.close()
    return SizeResult(size, {name: statistics.median(values) for name, values in samples.items()},
                      {name: percentile(values, 0.95) for name, values in samples.items()},
                      [name for name, values in samples.items() if spread_too_wide(values)], rules, peak, build,
                      os.getloadavg()[0])


def run(sizes: tuple[int, ...] = SIZES) -> list[SizeResult]:
    """Every size, each in a fresh process."""
    results = []
    root = Path(__file__).resolve().parents[2]
    for size in sizes:
        output = subprocess.run([sys.executable, "-m", "tests.bench.bench_actions", str(size)], cwd=root,
                                capture_output=True, text=True, check=True, timeout=1800).stdout
        data = json.loads(output.strip().splitlines()[-1])
        results.append(SizeResult(**data))
    return results


def main(argv: list[str]) -> int:
    """Measure one size and print it as JSON (the parent process collects it)."""
    result = measure(int(argv[0]))
    print(json.dumps(result.__dict__))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
