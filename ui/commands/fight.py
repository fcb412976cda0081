"""The Fight menu's commands: each asks the fight session (app) for one change, or opens the dialog that makes it.

The window builds the actions (``ui.actions``) and connects each to the ``on_<name>`` of its command object;
nothing here decides a rule: the session and the game do.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QDialog, QMessageBox

from app.i18n import _
from rules.combatants import is_hidden
from ui.games import game_ui
from ui.widgets.messages import as_written

if TYPE_CHECKING:
    from ui.main_window import MainWindow


def run_dialog(dialog: QDialog) -> None:
    """Run a dialog modally; it is deleted once closed, so a closed dialog never follows the document.

    PySide happens to destroy a temporary dialog after ``exec``; this makes it a rule, for every way a
    dialog can be run (the GUI monkey shows them without blocking, and a lingering Walka attack dialog
    then raised on every change of the SR3 fight opened after it)."""
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.exec()


class FightCommands:
    """What the GM does to the fight from the menu, the toolbar and the keyboard."""

    def __init__(self, window: MainWindow) -> None:
        self._window = window

    def selected_or_current(self) -> str | None:
        """The combatant selected in the table, else whoever acts now."""
        return self._window.table.selected_id() or self._window.session.current_actor()

    def on_next_turn(self) -> None:
        self._window.session.next_turn()

    def on_back(self) -> None:
        self._window.session.back()

    def on_encounter_settings(self) -> None:
        from ui.dialogs.encounter_settings import EncounterSettingsDialog

        run_dialog(EncounterSettingsDialog(self._window.document, self._window))

    def on_roll_initiative(self) -> None:
        if self._window.session.nothing_to_roll():
            self._window.session.roll_initiative()  # nobody rolls or chooses anything: one key starts the round
            return
        from ui.dialogs.initiative import RollInitiativeDialog

        run_dialog(RollInitiativeDialog(self._window.session, self._window))

    def acting_one(self) -> str | None:
        """Whom Delay and "let the ties go first" mean: the selected combatant if it acts now (one of a group
        acting together), else the current actor."""
        return self._window.session.actor_for(self._window.table.selected_id())

    def on_delay(self) -> None:
        actor = self.acting_one()
        if actor is not None:
            self._window.session.delay(actor)

    def on_delay_next_pass(self) -> None:
        actor = self.acting_one()
        if actor is not None:
            self._window.session.delay(actor, into_next_pass=True)

    def on_act_now(self) -> None:
        chosen = self._window.table.selected_id()
        if chosen is None:
            self._window.show_error(_("Select the combatant who takes the delayed action."))
            return
        self._window.session.act_now(chosen)

    def on_yield_turn(self) -> None:
        actor = self.acting_one()
        if actor is not None:
            self._window.session.yield_turn(actor)

    def on_surprise_test(self) -> None:
        dialog_class = game_ui(self._window.document.system.id).surprise_dialog()
        if dialog_class is None:
            self._window.show_error(_("This game has no surprise test."))
            return
        run_dialog(dialog_class(self._window.document, self._window.session.roller, self._window))

    def on_attack(self) -> None:
        self._open_attack(repeat=False)

    def on_repeat_attack(self) -> None:
        self._open_attack(repeat=True)

    def _open_attack(self, repeat: bool) -> None:
        """The attack dialog for the current actor; ``repeat``: its last weapon and target, the dice rolled (the
        selected row is then not taken as the target: the last attack's is; a selected row acting now with
        others, one of a group or seat acting together, is the one who repeats its attack)."""
        from ui.dialogs.attack_dialog import AttackDialog  # with the first attack, not at start-up

        dialog_class = game_ui(self._window.document.system.id).attack_dialog()
        if dialog_class is None:
            self._window.show_error(_("Attacks for this game are resolved with the dice line and Damage."))
            return
        selected = self._window.table.selected_id()
        attacker = self._window.session.actor_for(selected) if repeat else self._window.session.current_actor()
        target = None if repeat else selected
        dialog = dialog_class(self._window.document, self._window.session.roller, attacker,
                              target if target != attacker else None, self._window)
        if isinstance(dialog, AttackDialog):
            if repeat:
                dialog.roll_when_shown()
            dialog.effect_requested.connect(self._add_effect_later)
        run_dialog(dialog)

    def _add_effect_later(self, combatant_id: str) -> None:
        """The effects form for ``combatant_id``, once the dialog asking for it has closed (focus goes to the form)."""
        QTimer.singleShot(0, self._window, lambda: self._add_effect_on(combatant_id))

    def _add_effect_on(self, combatant_id: str | None) -> None:
        """The effects form for ``combatant_id`` (None: the whole encounter); nothing if they have left."""
        window = self._window
        if combatant_id is None or combatant_id in window.document.state.combatants:
            window.effects_dock.show()
            window.effects_dock.raise_()
            window.effects.open_form(target=combatant_id)

    def on_reload(self) -> None:
        chosen = self._window.table.selected_id() or self._window.session.current_actor()
        if chosen is None:
            self._window.show_error(_("Select the combatant who reloads."))
            return
        self._window.session.reload(chosen)

    def chosen_or_current(self) -> list[str]:
        """Every combatant selected in the table (a grenade's targets), else whoever acts now (or nobody)."""
        chosen = self._window.table.selected_ids()
        if chosen:
            return chosen
        actor = self._window.session.current_actor()
        return [actor] if actor is not None else []

    def on_damage(self) -> None:
        from ui.dialogs.harm import HarmDialog

        run_dialog(HarmDialog(self._window.session, self.chosen_or_current(), heal=False,
                              parent=self._window))

    def on_heal(self) -> None:
        from ui.dialogs.harm import HarmDialog

        run_dialog(HarmDialog(self._window.session, self.chosen_or_current(), heal=True, parent=self._window))

    def on_add(self) -> None:
        from ui.dialogs.add_combatants import AddCombatantsDialog

        run_dialog(AddCombatantsDialog(self._window.document, self._window.workspace.library, self._window))
        self._window.show_fight()

    def on_remove(self) -> None:
        chosen = self._window.table.selected_id()
        if chosen is None:
            return
        name = self._window.document.state.combatant(chosen).name
        answer = QMessageBox.question(self._window, _("Remove combatant"), as_written(
            _("Remove {name} from the fight?").format(name=name)))
        if answer == QMessageBox.StandardButton.Yes:
            self._window.session.remove(chosen)

    def on_duplicate(self) -> None:
        chosen = self.selected_or_current()
        if chosen is None:
            self._window.show_error(_("Select the combatant to duplicate."))
            return
        change = self._window.session.duplicate(chosen)
        for added in change.added:
            self._window.table.select_combatant(added)

    def on_hide_from_players(self) -> None:
        chosen = self.selected_or_current()
        if chosen is None:
            self._window.show_error(_("Select the combatant to hide or reveal."))
            return
        hidden = is_hidden(self._window.document.state.combatant(chosen))
        self._window.session.set_hidden(chosen, not hidden)

    def on_add_effect(self) -> None:
        self._add_effect_on(self.selected_or_current())

    def on_save_to_library(self) -> None:
        chosen = self.selected_or_current()
        if chosen is None:
            self._window.show_error(_("Select the combatant to keep."))
            return
        entry = self._window.workspace.keep_in_library(chosen)
        self._window.statusBar().showMessage(_("{name} is now in the roster/bestiary.").format(name=entry.name), 5000)
