"""The main window: composes the initiative table, docks, menus and toolbar; slots call app services."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, cast

from PySide6.QtCore import QByteArray, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QStackedWidget,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from app.document import Change
from app.i18n import _
from app.workspace import Workspace
from rules.combatants import is_hidden
from rules.encounter import Side
from rules.errors import RulesError
from rules.systems import system_ids, system_title
from ui.actions import ACTIONS, COMMAND_NAME, Menu, build_action, first_shortcut, set_tip, unique_shortcuts
from ui.commands.fight import FightCommands
from ui.commands.files import FileCommands
from ui.commands.preferences import PreferenceCommands
from ui.games import game_ui
from ui.models.initiative_model import InitiativeModel
from ui.models.log_model import LogModel
from ui.status import fight_status
from ui.theme import make_heading
from ui.widgets.actor_strip import ActorStrip
from ui.widgets.details import CombatantDetails
from ui.widgets.dice_line import DiceLine
from ui.widgets.effects_list import EffectsPanel
from ui.widgets.initiative_table import InitiativeTable
from ui.widgets.inputs import guard_the_wheel
from ui.widgets.layout_firewall import LayoutFirewall
from ui.widgets.lazy import LazyWidget
from ui.widgets.log_view import LogView
from ui.widgets.messages import ReminderLine, as_written, mark_error, plain

if TYPE_CHECKING:
    from ui.charts.initiative_chart import InitiativeChart
    from ui.charts.odds_dock import OddsDock
    from ui.printing.dialogs import Printing
    from ui.welcome import WelcomePage
    from ui.widgets.player_view import PlayerView
    from ui.widgets.undo_history import UndoHistory

#: What a right click on a row of the initiative table offers (None: a separator), by action name.
ROW_ACTIONS = ("damage", "heal", None, "delay", "delay_next_pass", "add_effect", "reload", None,
               "hide_from_players", "duplicate", None, "remove")
#: The commands that only the acting combatant's row offers.
ACTING_ONLY = ("delay", "delay_next_pass")

REMINDER_MS = 8000
#: The dock layout's version in saveState(); a layout of another version is not restored (the window starts
#: with its own). 1: opening the odds dock no longer breaks the log's tab group, and a layout saved before
#: could hold a combat log lost for good (ticked in View, never drawn).
LAYOUT_VERSION = 1


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
        self.fight = FightCommands(self)
        self.files = FileCommands(self)
        self.preferences = PreferenceCommands(self)
        self.setObjectName("MainWindow")
        application = QApplication.instance()
        if isinstance(application, QApplication):
            guard_the_wheel(application)
        self._fit_to_screen(1280, 800)
        self._build_central()
        self._build_docks()
        self._build_actions()
        self._build_menus_and_toolbar()
        self.player_view: PlayerView | None = None
        self._printing: Printing | None = None
        self.document.changed.connect(self._on_changed)
        self.document.replaced.connect(self._on_replaced)
        self.document.path_changed.connect(self._update_title)
        self.initiative_model.error.connect(self.show_error)
        self.document.journal_failed.connect(self.warn_journal)
        self.document.history_damaged.connect(self._warn_history)
        self.table.selectionModel().selectionChanged.connect(lambda *_args: self._sync_hidden_check())
        QGuiApplication.styleHints().colorSchemeChanged.connect(self.preferences.follow_the_desktop)
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
        self.reminder = ReminderLine()  # keeps its line while hidden: the table never jumps
        mark_error(self.reminder, True)
        self.round_label = plain(QLabel())  # names who acts
        make_heading(self.round_label)
        self.strip = ActorStrip(self.document)  # whoever acts now, always in sight, right over the table
        self.strip.refused.connect(self.show_error)
        self.table.selected.connect(self.strip.follow_selection)
        fight = QWidget()
        layout = QVBoxLayout(fight)
        layout.setContentsMargins(4, 4, 4, 4)
        self.round_label.setWordWrap(True)  # a long line of names wraps (it never widens the window)
        layout.addWidget(LayoutFirewall(self.round_label))  # a new text never lays out (and repaints) the window
        layout.addWidget(self.reminder)
        layout.addWidget(LayoutFirewall(self.strip))  # a new actor never lays out (and repaints) the window
        layout.addWidget(self.table, 1)
        self.welcome: WelcomePage | None = None  # built the first time it is shown (start-up need not wait)
        self.fight_page = fight
        self.pages = QStackedWidget()
        self.pages.addWidget(fight)
        self.setCentralWidget(self.pages)
        self._reminder_timer = QTimer(self, singleShot=True, interval=REMINDER_MS)
        self._reminder_timer.timeout.connect(lambda: self.reminder.show_reminders(()))

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
        self.details = CombatantDetails(self.document, roller=self.session.roller)
        self.table.selected.connect(self.details.set_combatant)
        self.effects = EffectsPanel(self.document)
        self.log_model = LogModel(self.document)
        self.log_view = LogView(self.log_model)
        self.dice_line = DiceLine(self.session)
        # A tab behind the log: built (pyqtgraph, numpy, the canvas) when its tab is first chosen, or when asked
        # for (the property below), not before the first paint.
        self._chart_content = LazyWidget(self._build_initiative_chart)
        # Out of the layout until first opened, like the odds below: built when first painted or asked for.
        self._undo_content = LazyWidget(self._build_undo_view)
        # Out of the layout until first opened: built (with the odds engines and chart) when first shown or asked
        # for (the property below), not before the first paint.
        self._odds_content = LazyWidget(self._build_odds)
        right, bottom = Qt.DockWidgetArea.RightDockWidgetArea, Qt.DockWidgetArea.BottomDockWidgetArea
        self.details_dock = details = self._dock(_("Combatant"), "dock_details", self.details, right)
        self.effects_dock = effects = self._dock(_("Effects"), "dock_effects", self.effects, right)
        self.log_dock = log = self._dock(_("Combat log"), "dock_log", self.log_view, bottom)
        self.dice_dock = dice = self._dock(_("Dice line"), "dock_dice", self.dice_line, bottom)
        # The undo history and the odds join the layout when first opened: Qt drew a stale second tab bar
        # (over the dice line, over the details) for a dock hidden in a tab group built before the first show.
        self.undo_dock = undo = self._dock(_("Undo history"), "dock_undo", self._undo_content, None)
        self.chart_dock = chart = self._dock(_("Initiative chart"), "dock_initiative_chart", self._chart_content,
                                             bottom)
        self.odds_dock = odds = self._dock(_("Odds"), "dock_odds", self._odds_content, None)
        #: In the order the View menu lists them.
        self.docks = (details, effects, log, dice, undo, chart, odds)
        chart.visibilityChanged.connect(self._chart_shown)
        self.splitDockWidget(log, dice, Qt.Orientation.Vertical)  # the dice line sits under the log
        self.tabifyDockWidget(log, chart)  # a tab behind the log: it draws nothing until the GM looks at it
        log.raise_()
        #: Where a late dock goes: beside which dock, split which way.
        self._late_places: dict[QDockWidget, tuple[QDockWidget, Qt.Orientation]] = {
            undo: (effects, Qt.Orientation.Vertical),  # under the effects
            odds: (log, Qt.Orientation.Horizontal),  # beside the log (and the dice line under it): low and wide
        }
        for late in self._late_places:
            late.toggleViewAction().triggered.connect(lambda shown, dock=late: self._dock_late(dock) if shown else None)
        self.resizeDocks([details, effects], [560, 180], Qt.Orientation.Vertical)
        self.resizeDocks([log, dice], [220, 60], Qt.Orientation.Vertical)
        self.resizeDocks([details], [380], Qt.Orientation.Horizontal)

    def _build_undo_view(self) -> QWidget:
        from ui.widgets.undo_history import UndoHistory

        return UndoHistory(self.document.undo_stack)  # asks before a click undoes several steps

    @property
    def undo_view(self) -> UndoHistory:
        """The undo history dock's content (built now if it was not yet)."""
        return cast("UndoHistory", self._undo_content.build())

    def _build_initiative_chart(self) -> QWidget:
        from ui.charts.initiative_chart import InitiativeChart

        return InitiativeChart(self.document)

    @property
    def initiative_chart(self) -> InitiativeChart:
        """The initiative chart dock's content (built now if it was not yet)."""
        return cast("InitiativeChart", self._chart_content.build())

    def _chart_shown(self, shown: bool) -> None:
        """Its tab was chosen: a chart that is built catches up (an unbuilt one is drawn when it is built)."""
        if shown and self._chart_content.content is not None:
            self.initiative_chart.catch_up()

    def _build_odds(self) -> QWidget:
        from ui.charts.odds_dock import OddsDock

        return OddsDock(self.document)

    @property
    def odds(self) -> OddsDock:
        """The odds dock's content (built now if it was not yet)."""
        return cast("OddsDock", self._odds_content.build())

    def _dock_late(self, dock: QDockWidget) -> bool:
        """Put a dock kept out of the layout where it belongs; True the first time (it was placed now)."""
        if self.dockWidgetArea(dock) != Qt.DockWidgetArea.NoDockWidgetArea or dock.isFloating():
            return False
        content = dock.widget()
        if isinstance(content, LazyWidget):  # placed with its content's size, not the placeholder's (a squeezed dock)
            content.build()
        neighbour, orientation = self._late_places[dock]
        area = self.dockWidgetArea(neighbour)
        if area == Qt.DockWidgetArea.NoDockWidgetArea or neighbour.isFloating() or self.tabifiedDockWidgets(neighbour):
            # Split beside a dock in a tab group (the log, with the chart behind it), Qt loses the whole group:
            # the log vanished for good, still ticked in View, and saveState() kept it so. At the area's edge
            # instead, beside the group.
            self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea if area == Qt.DockWidgetArea.NoDockWidgetArea
                               else area, dock, orientation)
        else:
            self.splitDockWidget(neighbour, dock, orientation)
        dock.show()
        return True

    def _build_actions(self) -> None:
        for spec in ACTIONS:
            action = build_action(spec, self)
            handler: Callable[[], None] = self._handler(spec.name)
            action.triggered.connect(lambda _checked=False, run=handler: self._guarded(run))
            self.actions_by_name[spec.name] = action
            self.addAction(action)
        undo = self.document.undo_stack.createUndoAction(self, _("&Undo"))
        undo.setShortcuts(unique_shortcuts(QKeySequence.StandardKey.Undo))
        redo = self.document.undo_stack.createRedoAction(self, _("&Redo"))
        # Ctrl+Shift+Z everywhere (the GM's hands know it), and whatever the desktop uses besides.
        redo.setShortcuts(unique_shortcuts("Ctrl+Shift+Z", QKeySequence.StandardKey.Redo))
        undo.setProperty(COMMAND_NAME, _("&Undo"))  # their texts name the step; the list of shortcuts does not
        redo.setProperty(COMMAND_NAME, _("&Redo"))
        self.actions_by_name.update(undo=undo, redo=redo)

    def _handler(self, name: str) -> Callable[[], None]:
        """The ``on_<name>`` of whichever command object (or the window itself, for the View menu) has it."""
        owners = (self.fight, self.files, self.preferences, self)
        owner = next((o for o in owners if hasattr(o, f"on_{name}")), None)
        if owner is None:
            raise LookupError(f"no command object handles the action {name!r}")
        handler: Callable[[], None] = getattr(owner, f"on_{name}")
        return handler

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
        self.recent_menu = QMenu(_("Open &recent"), menus[Menu.FILE])
        self.recent_menu.setToolTipsVisible(True)  # a missing file says why it is greyed
        self.recent_menu.aboutToShow.connect(lambda: self.files.fill_recent_menu(self.recent_menu))
        menus[Menu.FILE].insertMenu(self.actions_by_name["save"], self.recent_menu)
        self.table.set_row_actions([self.actions_by_name[name] if name else None for name in ROW_ACTIONS],
                                   self._prepare_row_menu)

    def _prepare_row_menu(self, combatant_id: str | None) -> None:
        """Fit the row menu's commands to the row (``None``: the menu closed, back to the window's own state)."""
        current = self.document.state.clock.current
        for name in ACTING_ONLY:
            self.actions_by_name[name].setEnabled(combatant_id is None or (
                current is not None and combatant_id in current.ids))
        self._sync_hidden_check()

    def _sync_hidden_check(self) -> None:
        """"Hidden from the players" shows whether the selected combatant (else the acting one) is hidden."""
        action = self.actions_by_name["hide_from_players"]
        chosen = self.fight.selected_or_current()
        combatant = self.document.state.combatants.get(chosen) if chosen is not None else None
        action.setChecked(combatant is not None and is_hidden(combatant))
        action.setEnabled(combatant is not None and combatant.side is not Side.PLAYER)

    def _new_menu(self, file_menu: QMenu) -> None:
        new = file_menu.addMenu(_("&New encounter"))
        self.new_actions: dict[str, QAction] = {}
        for system_id in system_ids():
            action = new.addAction(_(system_title(system_id)))  # from the game's meta.json: no game imported
            action.setObjectName(f"action_new_{system_id}")
            action.triggered.connect(lambda _checked=False, sid=system_id: self.files.new_encounter(sid))
            self.new_actions[system_id] = action
        self.follow_default_game()

    def follow_default_game(self) -> None:
        """Ctrl+N starts an encounter of the GM's default game (the game of the last one they started)."""
        default = self.workspace.settings.default_system
        for system_id, action in self.new_actions.items():
            action.setShortcuts(first_shortcut(QKeySequence.StandardKey.New) if system_id == default else [])

    @property
    def printing(self) -> Printing:
        """The print commands, built on first use: the printing modules (PDF, the summary's chart) are not
        imported before the first paint."""
        if self._printing is None:
            from ui.printing.dialogs import Printing

            self._printing = Printing(self, self.workspace)
        return self._printing

    # --- keeping up with the document ----------------------------------------------------------
    def _on_changed(self, change: Change) -> None:
        if change.what.details:  # the encounter's name (an unsaved one's title)
            self._update_title()
        self._update_status()
        self._sync_hidden_check()
        if change.reminders:
            self.reminder.show_reminders([reminder.text for reminder in change.reminders])
            self._reminder_timer.start()

    def _on_replaced(self) -> None:
        self._update_title()
        self._update_status()
        self._fit_actions_to_the_game()
        self.details.set_combatant(None)
        self._sync_hidden_check()

    def _fit_actions_to_the_game(self) -> None:
        """Delaying into the next pass only where rounds have passes, the surprise test only in a game that has
        one; the Delay tip in the game's words."""
        units = self.document.system.time_units()
        self.actions_by_name["delay_next_pass"].setVisible(units.has_passes)
        self.actions_by_name["surprise_test"].setVisible(game_ui(self.document.system.id).has_surprise())
        set_tip(self.actions_by_name["delay"], _(units.delay_hint))

    def _update_title(self) -> None:
        # The game's name too: two encounters of different games look alike in the table.
        self.setWindowTitle(f"{self.document.title()} — {_(self.document.system.title)} — Bojovka")
        self.setWindowModified(self.document.modified)

    def _update_status(self) -> None:
        text = fight_status(self.document.state, self.document.system)
        self.round_label.setText(text)
        self.statusBar().showMessage(text)

    def show_error(self, message: str) -> None:
        """A refused command: say why in the status bar, never a traceback."""
        self.statusBar().showMessage(message, 10_000)

    def warn_journal(self, problem: str) -> None:
        """The journal cannot be written: a crash now would lose changes (the GM may save elsewhere)."""
        QMessageBox.warning(self, _("Autosave failed"), as_written(_(
            "{problem}\n\nThe fight is still here, but a crash now could lose the latest changes. "
            "Save it to another disk with File → Save as.").format(problem=problem)))

    def _warn_history(self, problem: str) -> None:
        # Raised from inside an undo step: show the box once the stack has finished its steps.
        QTimer.singleShot(0, lambda: QMessageBox.warning(self, _("Cannot undo further"),
                                                          as_written(problem)))

    def show_fight(self) -> None:
        """Switch from the welcome page to the fight."""
        self.pages.setCurrentWidget(self.fight_page)
        self.table.setFocus()

    def welcome_page(self) -> WelcomePage:
        """The welcome page (built on first use)."""
        if self.welcome is None:
            from ui.welcome import WelcomePage

            self.welcome = WelcomePage(list(self.workspace.settings.recent_files))
            self.welcome.new_requested.connect(self.files.new_encounter)
            self.welcome.open_requested.connect(self.files.open_file)
            self.welcome.sample_requested.connect(self.files.open_sample)
            self.welcome.browse_requested.connect(self.files.on_open)
            self.welcome.continue_requested.connect(self.show_fight)
            self.pages.addWidget(self.welcome)
        return self.welcome

    def rebuild_welcome_page(self) -> None:
        """Build the welcome page anew (its lists are read once), now if it is showing, else when next shown."""
        if self.welcome is None:
            return
        showing = self.pages.currentWidget() is self.welcome
        self.pages.removeWidget(self.welcome)
        self.welcome.deleteLater()
        self.welcome = None
        if showing:
            self.on_welcome()

    def _guarded(self, run: Callable[[], None]) -> None:
        try:
            run()
        except RulesError as refused:
            self.show_error(str(refused))
        finally:  # a checkable command the GM could not carry out shows the state as it is
            self._sync_hidden_check()
            self._sync_player_view_check()

    # --- commands ------------------------------------------------------------------------------

    def on_player_view(self) -> None:
        """F9: open the player view, or close it when it is open."""
        view = self.player_view
        if view is not None and view.isVisible():
            view.close()
        else:
            self.open_player_view()

    def open_player_view(self) -> PlayerView:
        """Show the player view (built the first time) and bring it to the front."""
        from ui.widgets.player_view import PlayerView

        if self.player_view is None:
            self.player_view = PlayerView(self.document, geometry=self.workspace.settings.player_view_geometry)
            self.player_view.placed.connect(lambda geometry: self.workspace.remember(player_view_geometry=geometry))
            # Next, Back and F9 work while the players' screen has the focus (it is a window of its own).
            self.player_view.share_actions([self.actions_by_name[name]
                                            for name in ("next_turn", "back", "player_view")])
            self.player_view.shown_changed.connect(lambda _shown: self._sync_player_view_check())
        self.player_view.show()
        self.player_view.raise_()
        self._sync_player_view_check()
        return self.player_view

    def _sync_player_view_check(self) -> None:
        shown = self.player_view is not None and self.player_view.isVisible()
        self.actions_by_name["player_view"].setChecked(shown)

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

    def on_welcome(self) -> None:
        state = self.document.state
        page = self.welcome_page()
        page.offer_continue(state.name or self.document.title().replace("[*]", "") if state.combatants else None)
        self.pages.setCurrentWidget(page)

    def on_quit(self) -> None:
        self.close()

    # --- files ---------------------------------------------------------------------------------

    # --- layout and closing --------------------------------------------------------------------
    def _restore_layout(self) -> None:
        settings = self.workspace.settings
        if settings.window_geometry:
            self.restoreGeometry(QByteArray.fromBase64(settings.window_geometry.encode()))
        if settings.window_state:
            self.restoreState(QByteArray.fromBase64(settings.window_state.encode()), LAYOUT_VERSION)
        self._build_docks_in_sight()

    def _build_docks_in_sight(self) -> None:
        """The lazy docks the remembered layout shows on their own (open, in no tab group) are built now: the first
        paint shows them as the GM left them. One in a tab group waits for its first paint (its tab may be behind)."""
        for dock in self.docks:
            content = dock.widget()
            if isinstance(content, LazyWidget) and not dock.isHidden() and not self.tabifiedDockWidgets(dock):
                content.build()

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
        if not self.files.may_discard():
            event.ignore()
            return
        self.workspace.remember(  # a full disk must not keep the window from closing
            window_geometry=bytes(self.saveGeometry().toBase64().data()).decode(),
            window_state=bytes(self.saveState(LAYOUT_VERSION).toBase64().data()).decode())
        self.workspace.close(keep_journal=False)
        if self.player_view is not None:
            self.player_view.close()
        event.accept()
