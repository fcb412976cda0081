"""The main window: composes the initiative table, docks, menus and toolbar; slots call app services."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDockWidget,
    QFileDialog,
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QStackedWidget,
    QToolBar,
    QUndoView,
    QVBoxLayout,
    QWidget,
)

from app.document import Change
from app.i18n import _, ngettext
from app.paths import ENCOUNTER_SUFFIX, documents_dir
from app.workspace import Workspace
from rules.errors import RulesError
from rules.systems import all_systems, system_ids
from ui.actions import ACTIONS, Menu, build_action, set_tip
from ui.charts.initiative_chart import InitiativeChart
from ui.charts.odds_dock import OddsDock
from ui.games import game_ui
from ui.models.initiative_model import InitiativeModel
from ui.models.log_model import LogModel
from ui.printing.dialogs import Printing
from ui.status import fight_status
from ui.theme import STYLE_SHEET, apply_theme
from ui.widgets.details import CombatantDetails
from ui.widgets.dice_line import DiceLine
from ui.widgets.effects_list import EffectsPanel
from ui.widgets.initiative_table import InitiativeTable
from ui.widgets.log_view import LogView

if TYPE_CHECKING:
    from ui.welcome import WelcomePage

FILE_FILTER = "Bojovka (*.bojovka)"
LIBRARY_FILTER = "JSON (*.json)"
REMINDER_MS = 8000


class MainWindow(QMainWindow):
    """Bojovka's main window."""

    #: The GM chose another language in the preferences (the shell rebuilds the window in it).
    language_chosen = Signal(str)

    def __init__(self, workspace: Workspace) -> None:
        super().__init__()
        self._retiring = False
        self.workspace = workspace
        self.document = workspace.document
        self.session = workspace.session
        self.actions_by_name: dict[str, QAction] = {}
        self.setObjectName("MainWindow")
        self.setStyleSheet(STYLE_SHEET)
        self._fit_to_screen(1280, 800)
        self._build_central()
        self._build_docks()
        self._build_actions()
        self._build_menus_and_toolbar()
        self.player_view: QWidget | None = None
        self.printing = Printing(self, workspace)
        self.document.changed.connect(self._on_changed)
        self.document.replaced.connect(self._on_replaced)
        self.document.path_changed.connect(self._update_title)
        self.initiative_model.error.connect(self.show_error)
        self.document.journal_failed.connect(self._warn_journal)
        self.document.history_damaged.connect(self._warn_history)
        QGuiApplication.styleHints().colorSchemeChanged.connect(self._on_scheme_changed)
        self._restore_layout()
        self._on_replaced()

    def _fit_to_screen(self, width: int, height: int) -> None:
        """A first-run size that fits a small laptop screen (a remembered layout replaces it)."""
        screen = self.screen() or QGuiApplication.primaryScreen()
        if screen is not None:
            available = screen.availableGeometry()
            width, height = min(width, available.width()), min(height, available.height() - 30)
        self.resize(width, height)

    # --- composition ---------------------------------------------------------------------------
    def _build_central(self) -> None:
        self.initiative_model = InitiativeModel(self.document)
        self.table = InitiativeTable(self.initiative_model)
        self.reminder = QLabel()
        self.reminder.setWordWrap(True)
        self.reminder.setVisible(False)
        self.reminder.setProperty("error", True)
        self.round_label = QLabel()
        self.round_label.setProperty("heading", True)
        fight = QWidget()
        layout = QVBoxLayout(fight)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.round_label)
        layout.addWidget(self.reminder)
        layout.addWidget(self.table, 1)
        self.welcome: WelcomePage | None = None  # built the first time it is shown (start-up need not wait)
        self.fight_page = fight
        self.pages = QStackedWidget()
        self.pages.addWidget(fight)
        self.setCentralWidget(self.pages)
        self._reminder_timer = QTimer(self, singleShot=True, interval=REMINDER_MS)
        self._reminder_timer.timeout.connect(lambda: self.reminder.setVisible(False))

    def _dock(self, title: str, name: str, widget: QWidget, area: Qt.DockWidgetArea | None) -> QDockWidget:
        """A dock in ``area``; with no area it stays out of the layout until it is first asked for."""
        dock = QDockWidget(title, self)
        dock.setObjectName(name)  # saveState() needs stable names to remember the layout
        dock.setWidget(widget)
        if area is None:
            dock.setVisible(False)
        else:
            self.addDockWidget(area, dock)
        return dock

    def _build_docks(self) -> None:
        self.details = CombatantDetails(self.document)
        self.table.selected.connect(self.details.set_combatant)
        self.effects = EffectsPanel(self.document)
        self.log_model = LogModel(self.document)
        self.log_view = LogView(self.log_model)
        self.dice_line = DiceLine(self.session)
        self.initiative_chart = InitiativeChart(self.document)
        self.undo_view = QUndoView(self.document.undo_stack)
        self.undo_view.setEmptyLabel(_("<start of the fight>"))
        self.odds = OddsDock(self.document)
        right, bottom = Qt.DockWidgetArea.RightDockWidgetArea, Qt.DockWidgetArea.BottomDockWidgetArea
        self.details_dock = details = self._dock(_("Combatant"), "dock_details", self.details, right)
        self.effects_dock = effects = self._dock(_("Effects"), "dock_effects", self.effects, right)
        self.log_dock = log = self._dock(_("Combat log"), "dock_log", self.log_view, bottom)
        self.dice_dock = dice = self._dock(_("Dice line"), "dock_dice", self.dice_line, bottom)
        # The undo history and the odds join the layout when first opened: Qt drew a stale second tab bar
        # (over the dice line, over the details) for a dock hidden in a tab group built before the first show.
        self.undo_dock = undo = self._dock(_("Undo history"), "dock_undo", self.undo_view, None)
        self.chart_dock = chart = self._dock(_("Initiative chart"), "dock_initiative_chart", self.initiative_chart,
                                             bottom)
        self.odds_dock = odds = self._dock(_("Odds"), "dock_odds", self.odds, None)
        #: In the order the View menu lists them.
        self.docks = (details, effects, log, dice, undo, chart, odds)
        chart.visibilityChanged.connect(lambda shown: self.initiative_chart.catch_up() if shown else None)
        self.splitDockWidget(log, dice, Qt.Orientation.Vertical)  # the dice line sits under the log
        self.tabifyDockWidget(log, chart)  # a tab behind the log: it draws nothing until the GM looks at it
        log.raise_()
        self._late_places: dict[QDockWidget, Callable[[], None]] = {
            undo: lambda: self.splitDockWidget(effects, undo, Qt.Orientation.Vertical),
            odds: lambda: self.splitDockWidget(log, odds, Qt.Orientation.Horizontal),  # beside the log: low and wide
        }
        for late in self._late_places:
            late.toggleViewAction().triggered.connect(lambda shown, dock=late: self._dock_late(dock) if shown else None)
        self.resizeDocks([details, effects], [560, 180], Qt.Orientation.Vertical)
        self.resizeDocks([log, dice], [220, 60], Qt.Orientation.Vertical)
        self.resizeDocks([details], [380], Qt.Orientation.Horizontal)

    def _dock_late(self, dock: QDockWidget) -> bool:
        """Put a dock kept out of the layout where it belongs; True the first time (it was placed now)."""
        if self.dockWidgetArea(dock) != Qt.DockWidgetArea.NoDockWidgetArea or dock.isFloating():
            return False
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, dock)
        self._late_places[dock]()
        dock.show()
        return True

    def _build_actions(self) -> None:
        for spec in ACTIONS:
            action = build_action(spec, self)
            handler: Callable[[], None] = getattr(self, f"on_{spec.name}")
            action.triggered.connect(lambda _checked=False, run=handler: self._guarded(run))
            self.actions_by_name[spec.name] = action
            self.addAction(action)
        undo = self.document.undo_stack.createUndoAction(self, _("&Undo"))
        undo.setShortcut(QKeySequence.StandardKey.Undo)
        redo = self.document.undo_stack.createRedoAction(self, _("&Redo"))
        redo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence(QKeySequence.StandardKey.Redo)])
        self.actions_by_name.update(undo=undo, redo=redo)

    def _build_menus_and_toolbar(self) -> None:
        menus = {menu: self.menuBar().addMenu(_(menu.value)) for menu in Menu}
        self._new_menu(menus[Menu.FILE])
        edit = menus[Menu.EDIT]
        edit.addAction(self.actions_by_name["undo"])
        edit.addAction(self.actions_by_name["redo"])
        toolbar = QToolBar(_("Fight"), self)
        toolbar.setObjectName("toolbar_fight")
        toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.addToolBar(toolbar)
        for spec in ACTIONS:
            if spec.separator_before:
                menus[spec.menu].addSeparator()
            menus[spec.menu].addAction(self.actions_by_name[spec.name])
            if spec.toolbar:
                toolbar.addAction(self.actions_by_name[spec.name])
        view = menus[Menu.VIEW]
        view.addSeparator()
        for dock in self.docks:
            view.addAction(dock.toggleViewAction())

    def _new_menu(self, file_menu: QMenu) -> None:
        new = file_menu.addMenu(_("&New encounter"))
        for number, system_id in enumerate(system_ids()):
            action = new.addAction(system_id)  # the game's title once the menu opens: no game imported before
            if number == 0:
                action.setShortcut(QKeySequence.StandardKey.New)
            action.triggered.connect(lambda _checked=False, sid=system_id: self.new_encounter(sid))
        new.aboutToShow.connect(lambda: self._name_games(new))

    @staticmethod
    def _name_games(menu: QMenu) -> None:
        for action, system in zip(menu.actions(), all_systems().values(), strict=True):
            action.setText(_(system.title))

    # --- keeping up with the document ----------------------------------------------------------
    def _on_changed(self, change: Change) -> None:
        self._update_status()
        if change.reminders:
            self.reminder.setText("\n".join(reminder.text for reminder in change.reminders))
            self.reminder.setVisible(True)
            self._reminder_timer.start()

    def _on_replaced(self) -> None:
        self._update_title()
        self._update_status()
        self._fit_actions_to_the_game()
        self.details.set_combatant(None)

    def _fit_actions_to_the_game(self) -> None:
        """Delaying into the next pass only where rounds have passes; the Delay tip in the game's words."""
        units = self.document.system.time_units()
        self.actions_by_name["delay_next_pass"].setVisible(units.has_passes)
        set_tip(self.actions_by_name["delay"], _(units.delay_hint))

    def _update_title(self) -> None:
        self.setWindowTitle(f"{self.document.title()} — Bojovka")
        self.setWindowModified(self.document.modified)

    def _update_status(self) -> None:
        text = fight_status(self.document.state, self.document.system)
        self.round_label.setText(text)
        self.statusBar().showMessage(text)

    def show_error(self, message: str) -> None:
        """A refused command: say why in the status bar, never a traceback."""
        self.statusBar().showMessage(message, 10_000)

    def _warn_journal(self, problem: str) -> None:
        QMessageBox.warning(self, _("Autosave failed"), _(
            "{problem}\n\nThe fight is still here, but a crash now could lose the latest changes. "
            "Save it to another disk with File → Save as.").format(problem=problem))

    def _warn_history(self, problem: str) -> None:
        # Raised from inside Qt's undo stack: show the box once the stack has finished its step.
        QTimer.singleShot(0, lambda: QMessageBox.warning(self, _("Cannot undo further"), problem))

    def show_fight(self) -> None:
        """Switch from the welcome page to the fight."""
        self.pages.setCurrentWidget(self.fight_page)
        self.table.setFocus()

    def welcome_page(self) -> WelcomePage:
        """The welcome page (built on first use)."""
        if self.welcome is None:
            from ui.welcome import WelcomePage

            self.welcome = WelcomePage(list(self.workspace.settings.recent_files))
            self.welcome.new_requested.connect(self.new_encounter)
            self.welcome.open_requested.connect(self.open_file)
            self.welcome.sample_requested.connect(self.open_sample)
            self.welcome.browse_requested.connect(self.on_open)
            self.welcome.continue_requested.connect(self.show_fight)
            self.pages.addWidget(self.welcome)
        return self.welcome

    def _guarded(self, run: Callable[[], None]) -> None:
        try:
            run()
        except RulesError as refused:
            self.show_error(str(refused))

    # --- commands ------------------------------------------------------------------------------
    @staticmethod
    def _run_dialog(dialog: QDialog) -> None:
        """Run a dialog modally; it is deleted once closed, so a closed dialog never follows the document.

        PySide happens to destroy a temporary dialog after ``exec``; this makes it a rule, for every way a
        dialog can be run (the GUI monkey shows them without blocking, and a lingering Walka attack dialog
        then raised on every change of the SR3 fight opened after it)."""
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.exec()

    def _selected_or_current(self) -> str | None:
        return self.table.selected_id() or self.session.current_actor()

    def _current_or_selected(self) -> str | None:
        return self.session.current_actor() or self.table.selected_id()

    def on_next_turn(self) -> None:
        self.session.next_turn()

    def on_back(self) -> None:
        self.session.back()

    def on_encounter_settings(self) -> None:
        from ui.dialogs.encounter_settings import EncounterSettingsDialog

        self._run_dialog(EncounterSettingsDialog(self.document, self))

    def on_roll_initiative(self) -> None:
        from ui.dialogs.initiative import RollInitiativeDialog

        self._run_dialog(RollInitiativeDialog(self.session, self))

    def on_delay(self) -> None:
        actor = self.session.current_actor()
        if actor is not None:
            self.session.delay(actor)

    def on_delay_next_pass(self) -> None:
        actor = self.session.current_actor()
        if actor is not None:
            self.session.delay(actor, into_next_pass=True)

    def on_act_now(self) -> None:
        chosen = self.table.selected_id()
        if chosen is None:
            self.show_error(_("Select the combatant who takes the delayed action."))
            return
        self.session.act_now(chosen)

    def on_yield_turn(self) -> None:
        actor = self.session.current_actor()
        if actor is not None:
            self.session.yield_turn(actor)

    def on_attack(self) -> None:
        dialog_class = game_ui(self.document.system.id).attack_dialog()
        if dialog_class is None:
            self.show_error(_("Attacks for this game are resolved with the dice line and Damage."))
            return
        target = self.table.selected_id()
        attacker = self.session.current_actor()
        self._run_dialog(dialog_class(self.document, self.session.roller, attacker,
                                      target if target != attacker else None, self))

    def on_damage(self) -> None:
        from ui.dialogs.harm import HarmDialog

        self._run_dialog(HarmDialog(self.session, self._selected_or_current(), heal=False, parent=self))

    def on_heal(self) -> None:
        from ui.dialogs.harm import HarmDialog

        self._run_dialog(HarmDialog(self.session, self._selected_or_current(), heal=True, parent=self))

    def on_add(self) -> None:
        from ui.dialogs.add_combatants import AddCombatantsDialog

        self._run_dialog(AddCombatantsDialog(self.document, self.workspace.library, self))
        self.show_fight()

    def on_remove(self) -> None:
        chosen = self.table.selected_id()
        if chosen is None:
            return
        name = self.document.state.combatant(chosen).name
        answer = QMessageBox.question(self, _("Remove combatant"), _("Remove {name} from the fight?").format(
            name=name))
        if answer == QMessageBox.StandardButton.Yes:
            self.session.remove(chosen)

    def on_player_view(self) -> None:
        from ui.widgets.player_view import PlayerView

        if self.player_view is None:
            self.player_view = PlayerView(self.document)
        self.player_view.show()
        self.player_view.raise_()

    def on_initiative_chart(self) -> None:
        self.chart_dock.show()
        self.chart_dock.raise_()
        self.initiative_chart.slider.setFocus()

    def on_odds(self) -> None:
        dock, log = self.odds_dock, self.log_dock
        placed = self._dock_late(dock)
        dock.show()
        dock.raise_()
        if placed:  # room for the form beside a readable chart; the log keeps the rest
            self.resizeDocks([log, dock], [max(300, self.width() - 640), 640], Qt.Orientation.Horizontal)
        self.odds.question_box.setFocus()

    def on_theme_system(self) -> None:
        self._set_theme("system")

    def on_theme_light(self) -> None:
        self._set_theme("light")

    def on_theme_dark(self) -> None:
        self._set_theme("dark")

    def _on_scheme_changed(self) -> None:
        """The desktop switched light/dark: follow it when the GM chose "follow the system"."""
        if self.workspace.settings.theme == "system":
            application = QApplication.instance()
            assert isinstance(application, QApplication)
            apply_theme(application, "system")

    def _set_theme(self, theme: str) -> None:
        application = QApplication.instance()
        assert isinstance(application, QApplication)
        apply_theme(application, theme)
        self.workspace.update_settings(theme=theme)

    def on_preferences(self) -> None:
        from ui.dialogs.preferences import PreferencesDialog

        dialog = PreferencesDialog(self.workspace.settings, self)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        self._set_theme(dialog.chosen_theme())
        if dialog.chosen_language() != self.workspace.settings.language:
            self.workspace.update_settings(language=dialog.chosen_language())
            self.language_chosen.emit(dialog.chosen_language())

    def on_about(self) -> None:
        QMessageBox.about(self, _("About Bojovka"), _(
            "Bojovka — an offline combat tracker for tabletop game masters.\n"
            "Games: {games}.").format(games=", ".join(_(s.title) for s in all_systems().values())))

    def on_save_to_library(self) -> None:
        chosen = self._selected_or_current()
        if chosen is None:
            self.show_error(_("Select the combatant to keep."))
            return
        entry = self.workspace.keep_in_library(chosen)
        self.statusBar().showMessage(_("{name} is now in the roster/bestiary.").format(name=entry.name), 5000)

    def on_import_library(self) -> None:
        name, _filter = QFileDialog.getOpenFileName(self, _("Import roster/bestiary"), str(documents_dir()),
                                                    LIBRARY_FILTER)
        if name:
            count = self.workspace.import_library(Path(name))
            self.statusBar().showMessage(ngettext("Imported {count} entry.", "Imported {count} entries.", count)
                                         .format(count=count), 5000)

    def on_export_library(self) -> None:
        name, _filter = QFileDialog.getSaveFileName(self, _("Export roster/bestiary"),
                                                    str(documents_dir() / "bojovka-library.json"), LIBRARY_FILTER)
        if name:
            count = self.workspace.export_library(Path(name))
            self.statusBar().showMessage(ngettext("Exported {count} entry.", "Exported {count} entries.", count)
                                         .format(count=count), 5000)

    def on_print_summary(self) -> None:
        self.printing.print_summary()

    def on_print_preview(self) -> None:
        self.printing.preview_summary()

    def on_export_summary_pdf(self) -> None:
        self.printing.export_summary_pdf()

    def on_print_prep_sheet(self) -> None:
        self.printing.preview_prep_sheet()

    def on_welcome(self) -> None:
        state = self.document.state
        page = self.welcome_page()
        page.offer_continue(state.name or self.document.title().replace("[*]", "") if state.combatants else None)
        self.pages.setCurrentWidget(page)

    def on_quit(self) -> None:
        self.close()

    # --- files ---------------------------------------------------------------------------------
    def new_encounter(self, system_id: str) -> None:
        """Start an empty encounter of a game (asks to save the current one first)."""
        if self._may_discard():
            self.workspace.new(system_id)
            self.show_fight()

    def open_file(self, path: Path) -> None:
        """Open an encounter file; a bad file gets a clear message and changes nothing."""
        self._open(lambda: self.workspace.open(path))

    def open_sample(self, system_id: str) -> None:
        """Open a copy of a game's shipped sample fight (saving it asks for a new file)."""
        self._open(lambda: self.workspace.open_sample(system_id))

    def _open(self, load: Callable[[], None]) -> None:
        if not self._may_discard():
            return
        try:
            load()
        except RulesError as problem:
            QMessageBox.warning(self, _("Cannot open the encounter"), str(problem))
            return
        self.show_fight()

    def on_open(self) -> None:
        name, _filter = QFileDialog.getOpenFileName(self, _("Open an encounter"), str(documents_dir()), FILE_FILTER)
        if name:
            self.open_file(Path(name))

    def on_save(self) -> None:
        if self.document.path is None:
            self.on_save_as()
            return
        self._save(None)

    def on_save_as(self) -> None:
        suggested = str(documents_dir() / f"{self.document.state.name or _('Encounter')}{ENCOUNTER_SUFFIX}")
        name, _filter = QFileDialog.getSaveFileName(self, _("Save the encounter"), suggested, FILE_FILTER)
        if name:
            self._save(Path(name))

    def _save(self, path: Path | None) -> bool:
        try:
            saved = self.workspace.save(path)
        except RulesError as problem:
            QMessageBox.warning(self, _("Cannot save the encounter"), str(problem))
            return False
        self.statusBar().showMessage(_("Saved {file}").format(file=saved.name), 5000)
        return True

    def _may_discard(self) -> bool:
        """Ask before replacing a fight with unsaved changes (it is journaled either way)."""
        if not self.document.modified:
            return True
        answer = QMessageBox.question(
            self, _("Unsaved changes"), _("Save the changes to “{name}” first?").format(
                name=self.document.title().replace("[*]", "")),
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel)
        if answer == QMessageBox.StandardButton.Save:
            self.on_save()
            return not self.document.modified
        return answer == QMessageBox.StandardButton.Discard

    # --- layout and closing --------------------------------------------------------------------
    def _restore_layout(self) -> None:
        settings = self.workspace.settings
        if settings.window_geometry:
            self.restoreGeometry(QByteArray.fromBase64(settings.window_geometry.encode()))
        if settings.window_state:
            self.restoreState(QByteArray.fromBase64(settings.window_state.encode()))

    def retire(self) -> None:
        """Close for a rebuilt window over the same workspace: no questions, the fight stays open."""
        self._retiring = True
        if self.player_view is not None:
            self.player_view.close()
        self.close()

    def closeEvent(self, event: QCloseEvent) -> None:
        if self._retiring:
            event.accept()
            return
        if not self._may_discard():
            event.ignore()
            return
        self.workspace.update_settings(
            window_geometry=bytes(self.saveGeometry().toBase64().data()).decode(),
            window_state=bytes(self.saveState().toBase64().data()).decode())
        self.workspace.close(keep_journal=False)
        if self.player_view is not None:
            self.player_view.close()
        event.accept()
