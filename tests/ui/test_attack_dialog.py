"""The attack-dialog base, through the smallest game dialog it allows: one die of damage on the target."""

from __future__ import annotations

import gc
from collections.abc import Callable
from typing import Any, ClassVar

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QDialog, QLineEdit, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from app.document import Change, EncounterDocument
from app.samples import _builders
from rules.combatants import AddCombatant, ApplyHarm, RemoveCombatant, SetDamage
from rules.dice import Roller, parse
from rules.encounter import Side
from rules.history import Operation, new_history
from rules.systems import system_ids
from rules.systems.walka.sample import sample
from ui.dialogs.attack_dialog import AttackDialog, Marked, ResolvedForm
from ui.games import game_ui
from ui.widgets.dice_entry import DiceEntry
from ui.widgets.odds_table import OddsTable

# The Walka sample: Kira (c1, a player) acts; Ganger 1 (c5, an opponent) has lost 2 Hit Points.
KIRA, OSA, GANGER_1 = "c1", "c2", "c5"


class ToyDialog(AttackDialog):
    """A sixth game's dialog as the base's docstring shows it: its form, its odds and its operation."""

    def _build(self, roller: Roller) -> None:
        self.recomputed = 0
        self.dice = DiceEntry("Damage", roller)
        self.track = QLineEdit("hp")
        self.odds = OddsTable()
        content = QWidget()
        layout = QVBoxLayout(content)
        form = self._pickers_form()
        form.addRow("Track", self.track)
        layout.addLayout(form)
        layout.addWidget(self.odds)
        layout.addWidget(self.dice)
        layout.addWidget(self.result_label)
        self._lay_out(content)

    def _connect(self) -> None:
        super()._connect()
        self._edits.watch(self.track)

    def entries(self) -> tuple[DiceEntry, ...]:
        return (self.dice,)

    def _odds_views(self) -> tuple[Marked, ...]:
        return (self.odds,)

    def _recompute(self) -> None:
        self.recomputed += 1
        self.odds.set_outcomes([("Hit", 1.0)])
        self.dice.set_expression(parse("1d6") if self._target() is not None else None, "Choose a target.")

    def operation(self) -> Operation | None:
        attacker, target = self._attacker(), self._target()
        if attacker is None or target is None or self.problem():
            return None
        damage = sum(face for chain in self.dice.faces() for face in chain)
        return ApplyHarm(target.id, self.track.text(), damage, attacker.name)

    def rolled_outcome(self, operation: Operation) -> str | None:
        return "Hit"


class DiceLockedToyDialog(ToyDialog):
    """The same game with only the dice locked once resolved (as SR3's shots)."""

    resolved_form: ClassVar[ResolvedForm] = ResolvedForm.DICE_LOCKED


class OpenToyDialog(ToyDialog):
    """The same game with a form that stays open after resolving (as the Institute's pages)."""

    resolved_form: ClassVar[ResolvedForm] = ResolvedForm.OPEN

    def _after_resolve(self, operation: Operation, change: Change) -> None:
        self.dice.clear()  # fresh dice for the next attack at once


DialogFactory = Callable[..., ToyDialog]


@pytest.fixture
def document() -> EncounterDocument:
    return EncounterDocument(sample())


@pytest.fixture
def dialog_for(qtbot: QtBot, document: EncounterDocument) -> DialogFactory:
    def make(kind: type[ToyDialog] = ToyDialog, **kwargs: Any) -> ToyDialog:
        dialog = kind(document, Roller.seeded(1), **kwargs)
        qtbot.addWidget(dialog)
        return dialog

    return make


def _changes(document: EncounterDocument) -> list[Change]:
    seen: list[Change] = []
    document.changed.connect(seen.append)
    return seen


def test_the_current_actor_attacks_someone_on_another_side(dialog_for: DialogFactory,
                                                            document: EncounterDocument) -> None:
    dialog = dialog_for()
    assert dialog.attacker.currentData() == KIRA
    assert dialog.target.findData(KIRA) == -1  # nobody attacks themself
    target = document.state.combatant(dialog.target.currentData())
    assert target.side is not Side.PLAYER
    chosen = dialog_for(attacker_id=GANGER_1, target_id=KIRA)
    assert (chosen.attacker.currentData(), chosen.target.currentData()) == (GANGER_1, KIRA)


def test_resolving_applies_one_operation_with_the_dialog_as_initiator(dialog_for: DialogFactory,
                                                                      document: EncounterDocument) -> None:
    dialog = dialog_for(target_id=GANGER_1)
    assert not dialog.resolve_button.isEnabled()
    assert dialog.status_label.text() == "Roll or type the dice, then press Enter to resolve."
    assert dialog.status_label.property("error") is False  # the dice still to come: a hint, not an error
    seen = _changes(document)
    dialog.dice.set_faces_text("4")
    assert dialog.resolve_button.isEnabled() and dialog.resolve_button.isDefault()
    dialog.resolve()
    assert len(seen) == 1 and seen[0].initiator is dialog and seen[0].made_by(dialog)
    assert document.state.combatant(GANGER_1).boxes("hp") == 2 + 4
    assert dialog.result_label.text() == seen[0].entry.text()
    assert dialog.odds.highlighted() == "Hit"
    assert not dialog.resolve_button.isEnabled() and dialog.next_button.isEnabled()
    assert dialog.next_button.isDefault() and not dialog.dice.isEnabled()
    assert dialog.status_label.text() == "Enter sets up the next attack; Esc closes."
    dialog.resolve()  # already applied: nothing twice
    assert len(seen) == 1
    dialog.next_attack()
    assert dialog.dice.faces() == () and dialog.odds.highlighted() is None and dialog.result_label.text() == ""
    assert dialog.resolve_button.isDefault() and not dialog.next_button.isEnabled() and dialog.dice.isEnabled()


def test_a_refusal_is_shown_and_nothing_changes(dialog_for: DialogFactory, document: EncounterDocument) -> None:
    dialog = dialog_for(target_id=GANGER_1)
    dialog.track.setText("wounds")  # Walka counts Hit Points
    before = document.state
    dialog.dice.set_faces_text("4")
    dialog.resolve()
    assert dialog.status_label.text() == "Ganger 1 has no condition track 'wounds'."
    assert dialog.status_label.property("error") is True
    assert document.state is before
    assert not dialog.next_button.isEnabled() and dialog.result_label.text() == ""


def test_its_own_echo_is_ignored_and_everyone_elses_change_followed(dialog_for: DialogFactory,
                                                                    document: EncounterDocument) -> None:
    dialog = dialog_for(target_id=GANGER_1)
    dialog.dice.set_faces_text("3")
    computed = dialog.recomputed
    dialog.resolve()
    assert dialog.recomputed == computed  # its own change: the result stays as it is
    assert dialog.next_button.isEnabled() and dialog.result_label.text()
    document.apply(SetDamage(GANGER_1, "hp", 1))  # someone else's (a panel)
    assert dialog.recomputed == computed + 1
    assert not dialog.next_button.isEnabled() and dialog.result_label.text() == ""
    assert dialog.dice.faces() == () and dialog.odds.highlighted() is None
    dialog.dice.set_faces_text("2")
    document.undo_stack.undo()  # the GM takes it back from the window: the dice typed stay
    assert dialog.recomputed == computed + 2 and dialog.dice.faces() == ((2,),)


def test_a_new_roster_refills_the_pickers(dialog_for: DialogFactory, document: EncounterDocument) -> None:
    dialog = dialog_for(target_id=GANGER_1)
    document.apply(AddCombatant("c9", "Ganger 4", Side.OPPONENT))
    assert dialog.target.findData("c9") >= 0 and dialog.attacker.findData("c9") >= 0
    assert (dialog.attacker.currentData(), dialog.target.currentData()) == (KIRA, GANGER_1)  # the choice stays
    document.apply(RemoveCombatant(GANGER_1))
    assert dialog.target.findData(GANGER_1) == -1
    assert dialog.target.currentData() == OSA  # the default again: the first on another side


def test_changing_the_attacker_refills_the_targets(dialog_for: DialogFactory) -> None:
    dialog = dialog_for(target_id=GANGER_1)
    computed = dialog.recomputed
    dialog.attacker.setCurrentIndex(dialog.attacker.findData(GANGER_1))
    assert dialog.target.findData(GANGER_1) == -1 and dialog.target.findData(KIRA) >= 0
    assert dialog.recomputed == computed + 1  # once, for the attacker and the targets together


def test_another_fight_loaded_closes_the_dialog(qtbot: QtBot, dialog_for: DialogFactory,
                                               document: EncounterDocument) -> None:
    dialog = dialog_for()
    with qtbot.waitSignal(dialog.rejected, timeout=1000):
        document.replace_history(new_history("walka"), None)


def test_an_open_form_starts_the_next_attack_at_the_next_edit(dialog_for: DialogFactory,
                                                               document: EncounterDocument) -> None:
    dialog = dialog_for(OpenToyDialog, target_id=GANGER_1)
    dialog.dice.set_faces_text("1")
    dialog.resolve()
    assert dialog.dice.isEnabled() and dialog.dice.faces() == () and dialog.odds.highlighted() == "Hit"
    assert dialog.next_button.isEnabled() and dialog.next_button.isDefault()
    assert dialog.status_label.text() == "Enter sets up the next attack; Esc closes."
    dialog.dice.set_faces_text("2")  # the next attack's dice
    assert dialog.odds.highlighted() is None and not dialog.next_button.isEnabled()
    assert dialog.dice.faces() == ((2,),) and dialog.result_label.text()  # kept: the last log lines too
    assert dialog.resolve_button.isEnabled() and dialog.resolve_button.isDefault()
    dialog.resolve()
    assert document.state.combatant(GANGER_1).boxes("hp") == 2 + 1 + 2
    dialog.target.setCurrentIndex(dialog.target.findData(OSA))  # any other edit starts the next one as well
    assert dialog.odds.highlighted() is None and not dialog.next_button.isEnabled()


def test_a_form_with_locked_dice_starts_the_next_attack_at_any_other_edit(dialog_for: DialogFactory,
                                                                          document: EncounterDocument) -> None:
    dialog = dialog_for(DiceLockedToyDialog, target_id=GANGER_1)
    before = document.state.combatant(GANGER_1).boxes("hp")
    dialog.dice.set_faces_text("3")
    dialog.resolve()
    assert document.state.combatant(GANGER_1).boxes("hp") == before + 3
    # The dice stay as rolled and cannot change; the rest of the form can.
    assert not dialog.dice.isEnabled() and dialog.dice.faces() == ((3,),) and dialog.odds.highlighted() == "Hit"
    assert dialog.track.isEnabled() and dialog.target.isEnabled() and dialog.attacker.isEnabled()
    assert not dialog.resolve_button.isEnabled() and dialog.next_button.isDefault()
    dialog.resolve()  # Enter again does not apply the same dice twice
    assert document.state.combatant(GANGER_1).boxes("hp") == before + 3
    dialog.target.setCurrentIndex(dialog.target.findData(OSA))  # the next shot, at another target
    assert dialog.target.currentData() == OSA  # the edit is kept
    assert dialog.dice.isEnabled() and dialog.dice.faces() == ()  # fresh dice, as after Next
    assert dialog.odds.highlighted() is None and not dialog.next_button.isEnabled()
    osa_before = document.state.combatant(OSA).boxes("hp")
    dialog.dice.set_faces_text("2")
    dialog.resolve()
    assert document.state.combatant(OSA).boxes("hp") == osa_before + 2
    assert document.state.combatant(GANGER_1).boxes("hp") == before + 3


@pytest.mark.parametrize("game", ["toy", *system_ids()])
def test_a_closed_dialog_is_freed_at_once(qtbot: QtBot, game: str) -> None:
    window = QWidget()
    qtbot.addWidget(window)
    document = EncounterDocument(sample() if game == "toy" else _builders()[game]())
    kind = ToyDialog if game == "toy" else game_ui(game).attack_dialog()
    assert kind is not None
    gc.disable()  # a reference cycle would keep the dialog (following the fight) until the collector came by
    try:
        dialog = kind(document, Roller.seeded(1), None, None, window)
        QTimer.singleShot(0, dialog.reject)
        dialog.exec()
        del dialog
        assert window.findChildren(QDialog) == []
    finally:
        gc.enable()
