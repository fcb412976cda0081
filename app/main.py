"""Composition root: the ``bojovka`` console script and ``python -m app.main``.

The only module of the app layer that imports widgets: it builds the QApplication, the workspace and the
main window, offers to restore a fight after a crash, installs the exception hook, and serves
``--selftest`` and ``--screenshot``.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")  # pyqtgraph must not pick another Qt binding

from PySide6.QtCore import QDateTime, QEvent, QLocale, QObject, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from app import __version__
from app.i18n import _, install_language, ngettext
from app.icon import install_identity
from app.paths import HOME_VARIABLE, log_dir

if TYPE_CHECKING:
    from app.workspace import Workspace
    from ui.shell import Shell

VERSION = __version__  # --version, the About box and saved files say the same
PROBE_MODULES_VARIABLE = "BOJOVKA_PROBE_MODULES"  # with --startup-probe: also list the games' modules loaded
LOG = logging.getLogger("bojovka")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """Command-line options."""
    parser = argparse.ArgumentParser(prog="bojovka", description=_("Combat tracker for tabletop game masters"))
    parser.add_argument("file", nargs="?", type=Path, help=_("an encounter file to open"))
    parser.add_argument("--selftest", action="store_true", help=_("run a short scripted fight offscreen, print ok"))
    parser.add_argument("--screenshot", type=Path, metavar="PATH", help=_("save the main window as a PNG and exit"))
    parser.add_argument("--screenshot-what", default="main", choices=("main", "welcome", "attack", "player"),
                        help=_("which window --screenshot renders"))
    parser.add_argument("--theme", choices=("light", "dark"), default="light", help=_("theme for --screenshot"))
    parser.add_argument("--game", metavar="ID", help=_("the game whose sample fight --screenshot shows"))
    parser.add_argument("--language", help=_("override the language (en, cs, pl, ru)"))
    parser.add_argument("--print-summary", nargs=2, type=Path, metavar=("FILE", "OUT.pdf"),
                        help=_("write the summary of the encounter FILE as a PDF and exit (no window)"))
    parser.add_argument("--print-prep-sheet", nargs=2, type=Path, metavar=("FILE", "OUT.pdf"),
                        help=_("write the prep sheet of the encounter FILE as a PDF and exit (no window)"))
    parser.add_argument("--paper", choices=("a4", "letter"),
                        help=_("paper for --print-summary and --print-prep-sheet (default: your settings)"))
    # For `make bench`: start as usual, print the wall-clock time of the first paint of the window, quit.
    parser.add_argument("--startup-probe", action="store_true", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


# --- errors never reach the GM as a traceback ---------------------------------------------------


def _setup_logging() -> Path:
    path = log_dir() / "bojovka.log"
    handler: logging.Handler
    try:
        handler = logging.FileHandler(path, encoding="utf-8")
    except OSError:  # a disk that refuses even an empty log (full, read-only): the console has it, Bojovka starts
        handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    LOG.addHandler(handler)
    LOG.setLevel(logging.INFO)
    return path


def _unexpected_problem(error: BaseException, log_path: Path, journaled: bool) -> str:
    """What the GM is told of an unexpected error: that the fight is safe only while the journal is written."""
    if journaled:
        return _("Bojovka hit an unexpected problem: {problem}\n\nYour fight is safe: every completed action "
                 "is journaled. Details are in {log}.").format(problem=error, log=log_path)
    return _("Bojovka hit an unexpected problem: {problem}\n\nThe recovery journal is not being written, so a "
             "crash now would lose changes: save the fight (File → Save as) if you can. Details are in {log}.")\
        .format(problem=error, log=log_path)


def install_exception_hook(log_path: Path, journaled: Callable[[], bool] = lambda: True) -> None:
    """Unexpected errors: write the traceback to the log, tell the GM briefly; the journal keeps the fight
    (``journaled`` says whether it does now)."""

    def hook(kind: type[BaseException], error: BaseException, trace: TracebackType | None) -> None:
        LOG.error("".join(traceback.format_exception(kind, error, trace)))
        if isinstance(error, KeyboardInterrupt):
            sys.__excepthook__(kind, error, trace)
            return
        if QApplication.instance() is not None and os.environ.get("QT_QPA_PLATFORM") != "offscreen":
            QMessageBox.critical(None, _("Something went wrong"), _unexpected_problem(error, log_path, journaled()))
        else:
            print(_("Unexpected problem: {problem} (details in {log})").format(problem=error, log=log_path),
                  file=sys.stderr)

    sys.excepthook = hook


# --- start-up -----------------------------------------------------------------------------------


def _local_time(timestamp: float) -> str:
    """A moment in the GM's locale, e.g. 29/11/2026 14:05."""
    moment = QDateTime.fromSecsSinceEpoch(int(timestamp))
    return QLocale().toString(moment, QLocale.FormatType.ShortFormat)


def _recovery_question(name: str, actions: int, when: str) -> str:
    """ "Bojovka was closed while … had unsaved changes …" with a real plural for the count."""
    if actions > 0:
        detail = ngettext("{count} unsaved action, the last at {when}", "{count} unsaved actions, the last at {when}",
                          actions).format(count=actions, when=when)
    else:
        detail = _("last change at {when}").format(when=when)
    return _("Bojovka was closed while “{name}” had unsaved changes ({detail}).\nRestore it?").format(
        name=name, detail=detail)


def _offer_recovery(window: QWidget, workspace: object) -> bool:
    """Ask about fights a crash left unsaved; True if one was restored."""
    from app.workspace import Workspace
    from rules.errors import RulesError
    from ui.widgets.messages import as_written  # a fight's name is shown as written, never read as markup

    assert isinstance(workspace, Workspace)
    for candidate in workspace.recoverable():
        answer = QMessageBox.question(window, _("Restore the fight you were running?"),
                                      as_written(_recovery_question(candidate.name, candidate.operations,
                                                                    _local_time(candidate.changed.timestamp()))),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No)
        if answer != QMessageBox.StandardButton.Yes:
            workspace.discard(candidate)
            continue
        try:
            note = workspace.recover(candidate)
        except RulesError as problem:  # a journal damaged past its first line: kept, the GM may ask for help
            QMessageBox.warning(window, _("Cannot restore the fight"), as_written(str(problem)))
            continue
        if note is not None:
            QMessageBox.information(window, _("Restored as a copy"), as_written(note))
        return True
    return False


def run(args: argparse.Namespace) -> int:
    """The interactive application."""
    from app.workspace import Workspace
    from ui.theme import apply_theme

    application = _application()
    log_path = _setup_logging()
    install_exception_hook(log_path)
    workspace = Workspace()
    install_exception_hook(log_path, lambda: workspace.document.journal_problem is None)
    install_language(args.language or workspace.settings.language)
    apply_theme(application, workspace.settings.theme)
    shell = start_window(workspace, args.file)
    if args.startup_probe:
        _probe_first_paint(shell.window)
    shell.window.show()
    return application.exec()


def start_window(workspace: Workspace, file: Path | None) -> Shell:
    """The window as the GM first sees it: a fight a crash left offered back, else ``file``, the last encounter
    or the welcome page; a journal the disk refuses is told, not a crash."""
    from ui.shell import Shell

    first_run = not workspace.settings.recent_files and not workspace.settings.last_encounter
    shell = Shell(workspace)  # owns the window: a language switch rebuilds it
    window = shell.window
    restored = _offer_recovery(window, workspace)
    if not restored:
        _open_start(window, workspace, file)
    if first_run and not restored and file is None:
        window.on_welcome()
    else:
        window.show_fight()
    if workspace.document.journal_problem is not None:
        window.warn_journal(workspace.document.journal_problem)
    return shell


class _FirstPaint(QObject):
    """Prints ``startup-probe <epoch seconds>`` once the window has painted for the first time, then closes it."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self._window = window
        self._games: list[str] = []
        self._imported: list[str] = []

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            watched.removeEventFilter(self)
            self._games, self._imported = _game_modules(), list(sys.modules)  # what the first paint needed
            QTimer.singleShot(0, self._report)  # after this paint has finished
        return False

    def _report(self) -> None:
        print(f"startup-probe {time.time():.6f}", flush=True)
        if os.environ.get(PROBE_MODULES_VARIABLE):  # tests: which games' modules the first paint needed
            print("startup-modules", " ".join(sorted(self._games)), flush=True)
            print("startup-imported", " ".join(sorted(self._imported)), flush=True)
        self._window.close()  # a normal close: settings saved, journal removed


def _game_modules() -> list[str]:
    """The modules of games (rules and window parts) imported so far, without naming any game."""
    return [name for name in sys.modules
            if name.startswith(("rules.systems.", "ui.games.")) and name.split(".")[2] != "base"]


def _probe_first_paint(window: QWidget) -> None:
    probe = _FirstPaint(window)
    window.installEventFilter(probe)


def _open_start(window: object, workspace: object, file: Path | None) -> None:
    from app.workspace import Workspace
    from ui.main_window import MainWindow

    assert isinstance(window, MainWindow) and isinstance(workspace, Workspace)
    if file is not None:
        window.files.open_file(file)
        if workspace.document.path is not None:
            return
    workspace.open_last_or_sample()


def _application() -> QApplication:
    existing = QApplication.instance()
    if isinstance(existing, QApplication):
        return existing
    application = QApplication(sys.argv[:1])
    application.setApplicationName("Bojovka")
    application.setOrganizationName("Bojovka")
    application.setApplicationVersion(VERSION)
    install_identity(application)
    return application


def _isolated_home() -> None:
    """Self-test and screenshots must never touch the GM's own data."""
    if not os.environ.get(HOME_VARIABLE):
        os.environ[HOME_VARIABLE] = tempfile.mkdtemp(prefix="bojovka-selftest-")


def print_command(args: argparse.Namespace) -> int:
    """``--print-summary`` / ``--print-prep-sheet``: the PDF without a window; a bad file exits with 2."""
    from app.print_jobs import Printout, print_file
    from app.printing import paper_from_setting
    from app.settings import load_settings
    from rules.errors import RulesError
    from ui.printing.summary_chart import summary_chart

    what, (source, target) = ((Printout.SUMMARY, args.print_summary) if args.print_summary
                              else (Printout.PREP_SHEET, args.print_prep_sheet))
    _application()
    settings = load_settings()
    install_language(args.language or settings.language)
    try:
        pages = print_file(what, source, target, paper_from_setting(args.paper or settings.paper), summary_chart)
    except RulesError as problem:  # names the file and what is wrong with it, in the GM's language
        print(problem, file=sys.stderr)
        return 2
    print(ngettext("Wrote {path} ({count} page).", "Wrote {path} ({count} pages).", pages).format(
        path=target, count=pages))
    # The chart's off-screen widgets were handed to deleteLater with no event loop to run it: delete them now,
    # while Qt is whole, rather than in the interpreter's teardown (which crashed after the PDF was written).
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point."""
    args = parse_args(argv)
    if args.print_summary or args.print_prep_sheet:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # no display needed, none used
        return print_command(args)
    if args.selftest or args.screenshot:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        _isolated_home()
        from ui.selftest import screenshot, selftest

        _application()
        install_language(args.language or "en")
        return selftest() if args.selftest else screenshot(args.screenshot, args.screenshot_what, args.theme,
                                                                        args.game)
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
