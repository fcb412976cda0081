"""The player view: a second window for a projector or a second screen.

It shows what the table may know: round and pass, who acts now (very large), the order of the pass and the
player characters' condition as bars. Opponents appear by name only: no scores, no monitors, no GM notes.
Dark by default (projectors wash out light backgrounds); the text scales with the window; F11 toggles full
screen and Esc leaves it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from PySide6.QtCore import QByteArray, QEvent, QModelIndex, QPersistentModelIndex, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QColor,
    QFont,
    QFontMetrics,
    QFontMetricsF,
    QHideEvent,
    QKeySequence,
    QPainter,
    QPalette,
    QResizeEvent,
    QShowEvent,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QGridLayout,
    QLabel,
    QLayout,
    QListView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.document import EncounterDocument
from app.i18n import N_, _
from rules.encounter import Encounter, Side, Status
from rules.systems.base import RuleSystem
from ui.models.order_model import TurnOrderModel
from ui.widgets.messages import plain
from ui.widgets.party_panel import HEADING_LINES, FallenPanel, PartyPanel, fallen, party, wrapped_size
from ui.widgets.status_icons import paint_status_icon

#: Projector palette: light text on near-black (about 16:1), an amber band for whoever acts now.
DARK_COLORS: Final[dict[QPalette.ColorRole, str]] = {
    QPalette.ColorRole.Window: "#121212",
    QPalette.ColorRole.WindowText: "#f2f2f2",
    QPalette.ColorRole.Base: "#1c1c1c",
    QPalette.ColorRole.AlternateBase: "#242424",
    QPalette.ColorRole.Text: "#f2f2f2",
    QPalette.ColorRole.Button: "#2a2a2a",
    QPalette.ColorRole.ButtonText: "#f2f2f2",
    QPalette.ColorRole.Highlight: "#ffb300",
    QPalette.ColorRole.HighlightedText: "#000000",
    QPalette.ColorRole.PlaceholderText: "#a0a0a0",
    QPalette.ColorRole.Mid: "#5a5a5a",
}

#: Line height as a multiple of the pixel size, and the pixels taken by margins and spacing.
LINE_HEIGHT: Final[float] = 1.2
CHROME: Final[int] = 60


#: The player view's own commands (the Help menu's list of shortcuts names them too).
FULL_SCREEN: Final[str] = N_("Full screen")
FULL_SCREEN_KEY: Final[Qt.Key] = Qt.Key.Key_F11
LEAVE_FULL_SCREEN: Final[str] = N_("Leave full screen")
LEAVE_FULL_SCREEN_KEY: Final[Qt.Key] = Qt.Key.Key_Escape


def own_shortcuts() -> list[tuple[str, QKeySequence]]:
    """The player view's own commands and their keys, translated."""
    return [(_(FULL_SCREEN), QKeySequence(FULL_SCREEN_KEY)),
            (_(LEAVE_FULL_SCREEN), QKeySequence(LEAVE_FULL_SCREEN_KEY))]


def dark_palette() -> QPalette:
    """The player view's default palette."""
    palette = QPalette()
    for role, color in DARK_COLORS.items():
        palette.setColor(role, QColor(color))
    return palette


def round_text(state: Encounter, system: RuleSystem) -> str:
    """'Round 2 · Initiative pass 1' (the pass only for games that have passes)."""
    clock = state.clock
    if not clock.started:
        return _("The fight has not begun")
    if clock.pass_no == 0:
        return _("Round {round} is over · rolling initiative").format(round=clock.round)
    passes = system.time_units().passes
    if passes is not None:
        return _(passes.title).format(round=clock.round, pass_no=clock.pass_no)
    return _("Round {round}").format(round=clock.round)


class OrderDelegate(QStyledItemDelegate):
    """The order list: the current slot on an amber band, those who have acted dimmed with a tick."""

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        height = option.fontMetrics.height()
        return QSize(option.fontMetrics.horizontalAdvance("M") * 12, int(height * 1.5))

    def paint(self, painter: QPainter, option: QStyleOptionViewItem,
              index: QModelIndex | QPersistentModelIndex) -> None:
        palette, rect = option.palette, option.rect
        current = bool(index.data(TurnOrderModel.IsCurrentRole))
        acted = bool(index.data(TurnOrderModel.HasActedRole))
        painter.save()
        if current:
            painter.fillRect(rect, palette.color(QPalette.ColorRole.Highlight))
        font = QFont(option.font)
        font.setBold(current)
        font.setItalic(index.data(TurnOrderModel.SideRole) == Side.OPPONENT.value)  # opponents in italics
        painter.setFont(font)
        role = QPalette.ColorRole.HighlightedText if current else (
            QPalette.ColorRole.PlaceholderText if acted else QPalette.ColorRole.Text)
        painter.setPen(palette.color(role))
        text = str(index.data(Qt.ItemDataRole.DisplayRole) or "")
        text = f"✓ {text}" if acted else text
        inner = rect.adjusted(option.fontMetrics.horizontalAdvance("M") // 2, 0, 0, 0)
        status = Status(index.data(TurnOrderModel.StatusRole) or Status.ACTIVE.value)
        side = painter.fontMetrics().height()
        icon = QRectF(inner.left(), inner.center().y() - side / 2, side, side).adjusted(1, 1, -1, -1)
        if paint_status_icon(painter, icon, status, painter.pen().color()):  # the word is in the text
            inner.setLeft(inner.left() + side + side // 4)
        painter.drawText(inner, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                         painter.fontMetrics().elidedText(text, Qt.TextElideMode.ElideRight, inner.width()))
        if option.state & QStyle.StateFlag.State_HasFocus:
            painter.setPen(palette.color(QPalette.ColorRole.Mid))
            painter.drawRect(rect.adjusted(0, 0, -1, -1))
        painter.restore()


class PlayerView(QWidget):
    """A top-level window for the players: round, current actor, order, the party's condition.

    Nothing in it takes the keyboard focus, so no key presses a button there: the GM's keys go to the
    window's commands, which :meth:`share_actions` makes work here too (Space is Next on either screen).
    ``geometry`` (base64 of ``saveGeometry()``, as ``placed`` gave it) puts it back where it was last time:
    on the projector, full screen if it was.
    """

    #: The window was shown (True) or closed or hidden (False).
    shown_changed = Signal(bool)

    #: The window closes: where it was (base64 of saveGeometry()), for the next run to put it back there.
    placed = Signal(str)

    def __init__(self, document: EncounterDocument, parent: QWidget | None = None, *, dark: bool = True,
                 geometry: str = "") -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self._document = document
        self._base = 0
        self.setWindowTitle(_("Bojovka — player view"))
        if dark:
            self.setPalette(dark_palette())
        self.setAutoFillBackground(True)
        self.model = TurnOrderModel(document)
        self._build()
        self._build_actions()
        document.changed.connect(self.refresh)
        document.replaced.connect(self.refresh)
        self.model.modelReset.connect(self.refresh)
        self.resize(1024, 640)
        if geometry:
            self.restoreGeometry(QByteArray.fromBase64(geometry.encode()))
        self.refresh()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.placed.emit(bytes(self.saveGeometry().toBase64().data()).decode())
        super().closeEvent(event)

    def _build(self) -> None:
        self.round_label = plain(QLabel())
        self.now_caption = QLabel(_("Now acting"))
        self.current_label = plain(QLabel())  # names who acts
        self.current_label.setWordWrap(True)
        self.order_caption = QLabel(_("Order"))
        self.party_caption = QLabel(_("Party"))
        self.fallen_caption = QLabel(_("Out of the fight"))
        self.order = QListView()
        self.order.setModel(self.model)
        self.order.setItemDelegate(OrderDelegate(self.order))
        self.order.setFrameShape(QFrame.Shape.NoFrame)
        self.order.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.order.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.party = PartyPanel()
        self.fallen = FallenPanel()
        for caption in (self.now_caption, self.order_caption, self.party_caption, self.fallen_caption):
            caption.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.full_screen_button = QToolButton()
        self.full_screen_button.setAutoRaise(True)
        self.full_screen_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Space is Next, never this button
        grid = QGridLayout(self)
        # The text scales to the window, never the window to the text (and a projector has a fixed size).
        grid.setSizeConstraint(QLayout.SizeConstraint.SetNoConstraint)
        grid.addWidget(self.round_label, 0, 0, 1, 2)
        grid.addWidget(self.full_screen_button, 0, 2, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
        grid.addWidget(self.now_caption, 1, 0, 1, 3)
        grid.addWidget(self.current_label, 2, 0, 1, 3)
        grid.addWidget(self.order_caption, 3, 0)
        grid.addWidget(self.party_caption, 3, 1, 1, 2)
        grid.addWidget(self.order, 4, 0)
        party = QVBoxLayout()
        party.addWidget(self.party)
        party.addSpacing(self.fontMetrics().height())
        party.addWidget(self.fallen_caption)
        party.addWidget(self.fallen)
        party.addStretch(1)
        grid.addLayout(party, 4, 1, 1, 2)
        self._grid = grid
        self._share_columns(2)
        grid.setRowStretch(4, 1)

    def _build_actions(self) -> None:
        self.full_screen_action = QAction(_(FULL_SCREEN), self)
        self.full_screen_action.setCheckable(True)
        self.full_screen_action.setShortcut(QKeySequence(FULL_SCREEN_KEY))
        self.full_screen_action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.full_screen_action.toggled.connect(self.set_full_screen)
        self.leave_full_screen_action = QAction(_(LEAVE_FULL_SCREEN), self)
        self.leave_full_screen_action.setShortcut(QKeySequence(LEAVE_FULL_SCREEN_KEY))
        self.leave_full_screen_action.triggered.connect(lambda: self.set_full_screen(False))
        self.addAction(self.full_screen_action)
        self.addAction(self.leave_full_screen_action)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        self.full_screen_button.setDefaultAction(self.full_screen_action)
        self.full_screen_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)

    def share_actions(self, actions: Sequence[QAction]) -> None:
        """Make the main window's ``actions`` work while this window has the focus (and list them in its
        right-click menu): their shortcuts act on the main window's fight."""
        for action in actions:
            if action not in self.actions():
                self.addAction(action)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not event.spontaneous():
            self.shown_changed.emit(True)

    def hideEvent(self, event: QHideEvent) -> None:
        super().hideEvent(event)
        if not event.spontaneous():  # closed or hidden, not merely minimised
            self.shown_changed.emit(False)

    # --- full screen ---------------------------------------------------------------------------
    def set_full_screen(self, on: bool) -> None:
        """Enter or leave full screen."""
        if on == self.isFullScreen():
            return
        if on:
            self.showFullScreen()
        else:
            self.showNormal()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.WindowStateChange:
            full = self.isFullScreen()
            self.full_screen_action.blockSignals(True)
            self.full_screen_action.setChecked(full)
            self.full_screen_action.blockSignals(False)
            self.full_screen_button.setVisible(not full)  # nothing but the fight on the projector
        super().changeEvent(event)

    # --- content -------------------------------------------------------------------------------
    def refresh(self) -> None:
        """Show the encounter as it is now."""
        state, system = self._document.state, self._document.system
        self.round_label.setText(round_text(state, system))
        current = self.model.row(0) if self.model.rowCount() and self.model.row(0).is_current else None
        # The names only: the order just below gives their status words, and the big line must stay one line.
        self.current_label.setText(current.title if current is not None else "—")
        entries = party(state, system)
        self.party.set_entries(entries)
        self._share_columns(max((len(entry.tracks) for entry in entries), default=0))
        self.fallen.set_entries(fallen(state, system))
        self.fallen_caption.setVisible(bool(self.fallen.entries()))
        self.fallen.setVisible(bool(self.fallen.entries()))
        self.party_caption.setVisible(bool(self.party.texts()))
        self._scale_fonts()  # more rows may need smaller text

    def _share_columns(self, tracks: int) -> None:
        """The order's share of the width and the party's: more tracks side by side need a wider party."""
        order, party_share = (3, 2) if tracks <= 2 else ((1, 1) if tracks <= 4 else (2, 3))
        self._grid.setColumnStretch(0, order)
        self._grid.setColumnStretch(1, party_share)

    def shown_texts(self) -> list[str]:
        """Every text the window shows (labels, order rows, party panel): what the players can read."""
        labels = [label.text() for label in self.findChildren(QLabel) if label.isVisibleTo(self)]
        rows = [str(self.model.index(row, 0).data()) for row in range(self.model.rowCount())]
        return labels + rows + self.party.texts() + self.fallen.texts() + [self.full_screen_button.text()]

    # --- scaling -------------------------------------------------------------------------------
    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._scale_fonts()

    def base_pixel_size(self) -> int:
        """The body text size for this window size, shrunk so that every row of the order and the party fits."""
        ratio = self._line_ratio()
        widest = min(self.width() / 42, 72.0)
        base = self._fitting_size(ratio, 1)
        lines = self._current_lines(min(base, widest))
        if lines > 1:  # a simultaneous group's names wrap: fit again with the taller line
            base = self._fitting_size(ratio, lines)
        return int(max(12, min(widest, base)))

    def _line_ratio(self) -> float:
        """A line's height per pixel of font size, in this window's font (1.2 would underestimate some fonts)."""
        font = QFont(self.font())
        font.setPixelSize(100)
        return max(LINE_HEIGHT, QFontMetricsF(font).height() / 100)

    def _fitting_size(self, ratio: float, current_lines: int) -> float:
        """The largest base size at which the headings and the taller of the two columns fit the height."""
        # In units of the base size (see _scale_fonts): round, caption, the current actor's lines, caption.
        heading = (1.4 + 1.0 + 3.2 * current_lines + 1.0) * ratio
        # The party: its track labels (up to two lines), then each character's name and bars (2.4 lines).
        state, system = self._document.state, self._document.system
        entries = len(party(state, system))
        out = len(fallen(state, system))
        party_lines = ((HEADING_LINES + entries * 2.4) * 1.2 + ((out * 1.2 + 2.0) if out else 0)) * ratio
        order_lines = self.model.rowCount() * 1.5 * 1.5 * ratio
        rows = self.model.rowCount() + entries + 1  # each row can lose a pixel or two to rounding
        return (self.height() - CHROME - 2 * rows) / (heading + max(party_lines, order_lines, 1.0))

    def _current_lines(self, base: float) -> int:
        """How many lines the current actor's name takes at ``base`` (the label wraps)."""
        font = QFont(self.font())
        font.setPixelSize(max(8, int(base * 3.2)))
        font.setBold(True)
        width = self.width() - CHROME
        size = wrapped_size(QFontMetrics(font), self.current_label.text(), width)
        return max(1, round(size.height() / max(1, QFontMetrics(font).lineSpacing())))

    def _scale_fonts(self) -> None:
        base = self.base_pixel_size()
        if base == self._base:
            return
        self._base = base
        sizes = {self.round_label: 1.4, self.now_caption: 1.0, self.current_label: 3.2, self.order_caption: 1.0,
                 self.party_caption: 1.0, self.order: 1.5, self.party: 1.2,
                 self.fallen_caption: 1.0, self.fallen: 1.2, self.full_screen_button: 0.8}
        for widget, factor in sizes.items():
            font = QFont(self.font())
            font.setPixelSize(max(8, int(base * factor)))
            font.setBold(widget in (self.current_label, self.round_label))
            widget.setFont(font)
        self.party.updateGeometry()
