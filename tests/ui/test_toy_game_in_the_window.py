"""A sixth game through the real window: the toy game (tests/toy_game) is one rules package and one UI package,
and the generic window runs it — add combatants, roll initiative, Next, its attack, undo, save, reopen, and the
printed summary as a PDF — with no generic file naming it.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from PySide6.QtWidgets import QFileDialog

from rules.encounter import Side
from rules.systems.base import RuleSystem
from tests.every_game import log_texts, same
from tests.toy_game import TOY_ID
from tests.ui.conftest import WindowFactory
from ui.dialogs.add_combatants import AddCombatantsDialog
from ui.dialogs.initiative import RollInitiativeDialog
from ui.main_window import MainWindow
from ui.printing.dialogs import PDF_FILTERS

if TYPE_CHECKING:
    from tests.toy_game.ui.attack import ToyAttackDialog

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")

PEOPLE = (("Ada", Side.PLAYER, 1, {"speed": 3, "skill": 2}),
          ("Goblin", Side.OPPONENT, 2, {"hit_points": 3, "defence": 3, "damage": 1}))


def _ids(window: MainWindow) -> dict[str, str]:
    return {c.name: c.id for c in window.document.state.combatants.values()}


def _add_everyone(window: MainWindow) -> None:
    dialog = AddCombatantsDialog(window.document, window.workspace.library, window)
    quick = dialog.quick_tab
    dialog.tabs.setCurrentWidget(quick)
    for name, side, count, stats in PEOPLE:
        quick.name_edit.setText(name)
        quick.side_combo.setCurrentIndex(quick.side_combo.findData(side.value))
        quick.count_box.setValue(count)
        for spec in window.document.system.attribute_specs():  # the toy's attributes, asked by the generic tab
            quick.attribute_boxes[spec.key].setValue(stats.get(spec.key, spec.default))
        dialog.add()
    dialog.close()


def _roll(window: MainWindow, ada: str) -> None:
    dialog = RollInitiativeDialog(window.session, window)
    dialog.fields[_ids(window)["Ada"]].setText(ada)  # the goblins are rolled by the app
    dialog.roll()
    assert dialog.result() == dialog.DialogCode.Accepted


def _acting(window: MainWindow) -> str | None:
    actor = window.session.current_actor()
    return window.document.state.combatant(actor).name if actor else None


def _choose_file(monkeypatch: pytest.MonkeyPatch, path: Path, chosen_filter: str = "") -> None:
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *args: (str(path), chosen_filter))


def _attack_dialog(window: MainWindow, monkeypatch: pytest.MonkeyPatch) -> ToyAttackDialog:
    """Trigger Attack as the GM does, keeping the dialog the window opens instead of running it modally."""
    from tests.toy_game.ui.attack import ToyAttackDialog  # not at the top: importing the toy registers its kinds

    opened: list[ToyAttackDialog] = []

    def keep(dialog: ToyAttackDialog) -> int:
        opened.append(dialog)
        return 0

    monkeypatch.setattr(ToyAttackDialog, "exec", keep)
    window.actions_by_name["attack"].trigger()
    assert len(opened) == 1
    dialog = opened[0]
    assert dialog.attacker.currentData() == window.session.current_actor()
    return dialog


def _pdf_text(path: Path) -> str | None:
    tool = shutil.which("pdftotext")
    if tool is None:  # poppler-utils (make print-deps): without it only the file itself is checked
        return None
    return subprocess.run([tool, str(path), "-"], capture_output=True, text=True, check=True).stdout


def test_the_toy_game_plays_in_the_window(toy_game: RuleSystem, open_window: WindowFactory, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.toy_game.rules import ToyAttack
    from tests.toy_game.ui.panel import HitPointsSection

    window = open_window(TOY_ID, "Toy brawl", seed=3)
    assert window.document.system is toy_game
    _add_everyone(window)
    ids = _ids(window)
    assert list(ids) == ["Ada", "Goblin 1", "Goblin 2"]

    window.table.select_combatant(ids["Goblin 1"])  # the toy's own section of the details panel
    section = window.details.findChild(HitPointsSection)
    assert section is not None and section.label.text() == "3 of 3 hit points left · Skill 1"

    _roll(window, "6")  # Ada: 3 + 6 = 9, more than a goblin's 2 + 1d6 can reach
    assert window.document.state.clock.round == 1 and _acting(window) == "Ada"

    before = window.document.state
    window.table.select_combatant(ids["Goblin 1"])
    dialog = _attack_dialog(window, monkeypatch)  # Fight → Attack (A): the toy's dialog, on the shared base
    assert [label for label, _chance in dialog.odds.outcomes()] == ["Hit", "Miss"]
    assert [chance for _label, chance in dialog.odds.outcomes()] == [1.0, 0.0]  # Skill 2 + any face ≥ Defence 3
    dialog.die.set_faces_text("4")  # 4 + 2 against Defence 3: a hit for 2
    dialog.resolve_button.click()
    assert dialog.odds.highlighted() == "Hit" and "a hit for 2" in dialog.result_label.text()
    dialog.close()
    assert window.log_model.plain_text().splitlines()[-1].endswith(
        "Ada rolls 4 + 2 against Goblin 1's Defence 3: a hit for 2.")
    assert section.label.text() == "1 of 3 hit points left · Skill 1"
    window.actions_by_name["back"].trigger()  # undo
    assert same(window.document.state, before) and section.label.text() == "3 of 3 hit points left · Skill 1"
    window.document.undo_stack.redo()
    after_attack = window.document.state

    window.actions_by_name["next_turn"].trigger()
    window.actions_by_name["next_turn"].trigger()
    assert _acting(window) is not None and _acting(window) != "Ada"
    window.document.apply(ToyAttack(window.session.current_actor() or "", ids["Ada"], 1))  # 1 + 1: a miss
    history = window.document.history

    saved = tmp_path / "toy.bojovka"
    _choose_file(monkeypatch, saved)
    window.actions_by_name["save_as"].trigger()
    assert saved.is_file() and not window.document.modified
    window.files.open_file(saved)
    reopened = window.document.history
    assert reopened is not history and window.document.path == saved
    assert same(reopened.state, history.state) and log_texts(reopened) == log_texts(history)
    for _step in range(3):  # the miss and the two Nexts: back to just after Ada's hit, as it was before saving
        window.actions_by_name["back"].trigger()
    assert same(window.document.state, after_attack)
    window.document.undo_stack.redo()

    pdf = tmp_path / "toy-summary.pdf"
    _choose_file(monkeypatch, pdf, PDF_FILTERS["a4"])
    window.actions_by_name["export_summary_pdf"].trigger()
    assert pdf.is_file() and pdf.stat().st_size > 1000
    text = _pdf_text(pdf)
    if text is not None:
        assert "Toy brawl" in text and "Toy game" in text and "Goblin 2" in text
        assert "a hit for 2." in text
