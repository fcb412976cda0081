"""Names are shown as the GM typed them, never as markup (issue 19): a combatant called ``<img src=…>`` made the Roll
initiative dialog draw (and load) an image, because Qt reads a label, a tooltip or a message box as rich text when
its first line looks like HTML.

Every game's sample fight, its combatants, an effect and the encounter renamed to markup, is shown in the window,
the player view, the details of everyone, the Roll initiative, attack, damage and settings dialogs and the Remove
question; no label, tooltip, table tooltip or message box may then hold that markup where Qt would render it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QEvent, QModelIndex, Qt
from PySide6.QtGui import Qt as GuiQt
from PySide6.QtWidgets import QAbstractItemView, QApplication, QDialog, QLabel, QMessageBox, QWidget

from app.storage import save_encounter
from rules.combatants import EditCombatant, EditEncounter
from rules.effects import AddEffect
from rules.encounter import Effect
from rules.systems import all_systems
from rules.turns import current_actor
from tests.ui.conftest import WindowFactory
from ui.commands.fight import FightCommands
from ui.dialogs.encounter_settings import EncounterSettingsDialog
from ui.dialogs.harm import HarmDialog
from ui.dialogs.initiative import RollInitiativeDialog
from ui.games import game_ui
from ui.main_window import MainWindow

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support (propagateSizeHints|raise)\(\)")

MARKUP = "<img"


def markup_name(number: object) -> str:
    return f'<b>Bold {number}</b><img src="missing-{number}.png">'


def renamed_sample(system_id: str, folder: Path) -> Path:
    """The game's sample with every name turned to markup, saved."""
    history = all_systems()[system_id].sample()
    for number, combatant_id in enumerate(list(history.state.combatants)):
        history.do(EditCombatant(combatant_id, "name", markup_name(number)))
    history.do(EditEncounter("name", markup_name("encounter")))
    target = next(iter(history.state.combatants))
    history.do(AddEffect(Effect("e-markup", markup_name("effect"), target=target, remaining=3)))
    path = folder / f"{system_id}.bojovka"
    save_encounter(history, path)
    return path


def _rendered_as_markup(text: object) -> bool:
    """Whether Qt would render ``text`` as rich text showing the markup name (not its escaped letters)."""
    return isinstance(text, str) and MARKUP in text and bool(GuiQt.mightBeRichText(text))


def _model_tips(view: QAbstractItemView) -> Iterator[object]:
    model = view.model()
    root = QModelIndex()
    try:
        columns = model.columnCount(root)
    except TypeError:  # a list model (PySide keeps its columnCount private)
        columns = 1
    for row in range(min(model.rowCount(root), 300)):
        for column in range(columns):
            yield model.index(row, column, root).data(Qt.ItemDataRole.ToolTipRole)


def shown_as_markup() -> list[str]:
    """Every label, tooltip and table tooltip of every widget that would show a markup name as markup."""
    found = []
    for widget in QApplication.allWidgets():
        if isinstance(widget, QLabel) and widget.textFormat() != Qt.TextFormat.PlainText \
                and MARKUP in widget.text():
            found.append(f"label in {_place(widget)}: {widget.text()[:80]}")
        if _rendered_as_markup(widget.toolTip()):
            found.append(f"tooltip of {_place(widget)}: {widget.toolTip()[:80]}")
        if isinstance(widget, QAbstractItemView) and widget.model() is not None:
            found += [f"table tooltip in {_place(widget)}: {str(tip)[:80]}" for tip in _model_tips(widget)
                      if _rendered_as_markup(tip)]
    return found


def _place(widget: QWidget) -> str:
    names: list[str] = []
    current: QWidget | None = widget
    while current is not None and len(names) < 4:
        names.append(type(current).__name__)
        current = current.parentWidget()
    return "/".join(names)


def _settle() -> None:
    QApplication.processEvents()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def _dialogs(window: MainWindow) -> Iterator[QDialog]:
    state, session = window.document.state, window.session
    yield RollInitiativeDialog(session, window)
    yield HarmDialog(session, list(state.combatants)[:2], heal=False, parent=window)
    yield EncounterSettingsDialog(window.document, window)
    attack = game_ui(window.document.system.id).attack_dialog()
    attacker = current_actor(state) or next(iter(state.combatants))
    if attack is not None:
        for target in (combatant_id for combatant_id in state.combatants if combatant_id != attacker):
            yield attack(window.document, session.roller, attacker, target, window)


@pytest.mark.parametrize("system_id", sorted(all_systems()))
def test_no_name_is_shown_as_markup(system_id: str, open_window: WindowFactory, tmp_path: Path,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []

    def question(*args: Any) -> QMessageBox.StandardButton:
        asked.append(args[2])
        return QMessageBox.StandardButton.No

    monkeypatch.setattr(QMessageBox, "question", question)
    window = open_window(system_id)
    window.workspace.open(renamed_sample(system_id, tmp_path))
    window.show()
    window.on_initiative_chart()
    window.open_player_view()
    problems: list[str] = []
    for combatant_id in window.document.state.combatants:
        window.table.select_combatant(combatant_id)
        _settle()
        window.grab()
        problems += shown_as_markup()
    for dialog in _dialogs(window):
        dialog.show()
        _settle()
        dialog.grab()
        problems += shown_as_markup()
        dialog.close()
        dialog.deleteLater()
        _settle()
    window.table.select_combatant(next(iter(window.document.state.combatants)))
    FightCommands(window).on_remove()
    assert asked and not [text for text in asked if _rendered_as_markup(text)]
    assert not sorted(set(problems)), "\n".join(sorted(set(problems)))
