"""``--selftest`` and ``--screenshot``: prove a build works, and show what the GM sees, without a screen.

The self-test builds the main window offscreen, runs a short scripted SR3 fight through the same services
the window uses, saves, reloads and compares, and checks that the build finds everything it ships
(:mod:`app.bundle_check`: translations, samples, rule data, bestiary, icon, Qt plugins) — this is what the
packaged app runs in CI and after installing. Both run with BOJOVKA_HOME pointing at a temporary folder.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from PySide6.QtCore import QRect
from PySide6.QtWidgets import QApplication, QWidget

from app.bundle_check import bundle_problems
from app.console import attach_parent_console
from app.storage import load_encounter
from app.workspace import Workspace
from rules.combatants import AddCombatant
from rules.dice import Roller
from rules.encounter import Side, frozen_map
from rules.history import Batch
from rules.serialize import to_data
from rules.systems.sr3 import Sr3Attack
from ui.main_window import MainWindow
from ui.theme import apply_theme


def _check(condition: bool, what: str) -> None:
    if not condition:
        raise AssertionError(what)


def _scripted_fight(window: MainWindow) -> None:
    workspace = window.workspace
    workspace.new("sr3", "Self-test")
    document, session = workspace.document, workspace.session
    people = (("Runner", Side.PLAYER), ("Ganger 1", Side.OPPONENT), ("Ganger 2", Side.OPPONENT))
    adds = tuple(AddCombatant(f"c{number}", name, side, frozen_map({"reaction": 5, "initiative_dice": 2}))
                 for number, (name, side) in enumerate(people, start=1))
    document.apply(Batch(adds, "Add"))
    session.roll_initiative()
    attacker = session.current_actor()
    _check(attacker is not None, "somebody acts after rolling initiative")
    target = next(cid for cid in document.state.combatants if cid != attacker)
    document.apply(Sr3Attack(str(attacker), target, "Pistol", 9, "M", 4, ((6,), (5,), (4,)), 9, ((1,), (2,))))
    _check(document.state.combatant(target).boxes("physical") > 0, "the attack hurt the target")
    session.next_turn()
    QApplication.processEvents()


def _save_and_reload(window: MainWindow) -> None:
    workspace = window.workspace
    path = Path(tempfile.mkdtemp(prefix="bojovka-selftest-")) / "selftest.bojovka"
    workspace.save(path)
    reloaded = load_encounter(path)
    _check(to_data(reloaded.state) == to_data(workspace.document.state), "the saved fight reloads identically")


def _fight_problems() -> list[str]:
    try:
        application = QApplication.instance()
        assert isinstance(application, QApplication)
        apply_theme(application, "light")
        window = MainWindow(Workspace(roller=Roller.seeded(1)))
        window.show()
        _scripted_fight(window)
        _save_and_reload(window)
        window.workspace.close(keep_journal=False)
    except Exception as problem:  # the self-test reports every failure as a line, never a traceback
        return [f"the scripted fight failed: {problem!r}"]
    return []


def selftest() -> int:
    """Print ``ok`` and return 0 when everything works; otherwise print each problem and return 1."""
    attach_parent_console()
    problems = _fight_problems() + bundle_problems()
    for problem in problems:
        print(f"selftest failed: {problem}", file=sys.stderr)
    if problems:
        return 1
    print("ok")
    return 0


#: The screen a screenshot shows the dialogs on: a common laptop's, whatever screen it is taken on (Qt's offscreen
#: platform has an 800×800 one, where the attack dialogs had to scroll and their odds column was cut off).
LAPTOP = QRect(0, 0, 1366, 768)


def _window_for(what: str, window: MainWindow) -> QWidget:
    if what == "welcome":
        window.on_welcome()
        return window
    if what == "player":
        view = window.open_player_view()
        view.resize(1280, 720)
        return view
    if what == "attack":
        return _attack_dialog(window) or window
    return window


def _attack_dialog(window: MainWindow) -> QWidget | None:
    """The game's attack dialog on a foe, sized as it opens on a laptop."""
    from ui.dialogs.attack_dialog import AttackDialog
    from ui.games import game_ui

    dialog_class = game_ui(window.document.system.id).attack_dialog()
    if dialog_class is None:
        return None
    session = window.session
    dialog = dialog_class(window.document, session.roller, session.current_actor(), _a_foe(window), window)
    dialog.show()
    QApplication.processEvents()  # laid out: its content's size hint is the real one now
    if isinstance(dialog, AttackDialog):
        dialog.fit_to(LAPTOP)
    return dialog


def _a_foe(window: MainWindow) -> str | None:
    """Someone on another side than whoever acts now: the target an attack screenshot shows."""
    state = window.document.state
    actor = state.combatants.get(window.session.current_actor() or "")
    foes = [c.id for c in state.combatants.values() if actor is None or c.side is not actor.side]
    return foes[0] if foes else None


def staged(what: str = "main", theme: str = "light", game: str | None = None) -> tuple[MainWindow, QWidget]:
    """The main window on a game's sample encounter (the GM's default game's), and what a screenshot of
    ``what`` grabs (the window itself, the player view or the attack dialog), laid out and painted."""
    application = QApplication.instance()
    assert isinstance(application, QApplication)
    apply_theme(application, theme)
    window = MainWindow(Workspace(roller=Roller.seeded(1)))
    window.workspace.open_sample(game or window.workspace.settings.default_system)
    window.resize(LAPTOP.size())
    window.show_fight()
    window.show()
    foe = _a_foe(window)
    if foe is not None:
        window.table.select_combatant(foe)
    target = _window_for(what, window)
    for _round in range(3):
        application.processEvents()
    return window, target


def put_away(window: MainWindow, target: QWidget) -> None:
    """Close what :func:`staged` opened, asking nothing and remembering nothing."""
    if target is not window:
        target.close()
    window.retire()
    window.workspace.close(keep_journal=False)


def screenshot(path: Path, what: str = "main", theme: str = "light", game: str | None = None) -> int:
    """Render a window with a game's sample encounter (the GM's default game's) to ``path`` (PNG)."""
    attach_parent_console()
    window, target = staged(what, theme, game)
    saved = target.grab().save(str(path))
    put_away(window, target)
    print(path if saved else f"could not write {path}")
    return 0 if saved else 1
