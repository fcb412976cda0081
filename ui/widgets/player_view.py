"""The player view: a second window for a projector or a second screen.

It shows what the table may know: round and pass, who acts now (very large), the order of the pass and the
player characters' condition as bars. Opponents appear by name only: no scores, no monitors, no GM notes.
Dark by default (projectors wash out light backgrounds); the text scales with the window; F11 toggles full
screen and Esc leaves it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from PySide6.QtCore import QByteArray, QEvent, QModelIndex, QPersistentModelIndex, QRect, QSize, Qt, Signal
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QColor,
    QFont,
    QKeySequence,
    QPainter,
    QPaintEvent,
    QPalette,
    QResizeEvent,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QGridLayout,
    QLabel,
    QLayout,
    QListView,
    QSizePolicy,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.document import EncounterDocument
from app.i18n import _
from rules.encounter import STATUS_LABELS, Encounter, Side, Status
from rules.systems.base import RuleSystem
from ui.models.order_model import TurnOrderModel
from ui.widgets.condition_track import paint_track

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


@dataclass(frozen=True)
class PartyEntry:
    """One player character: name, a status word when not active, and each track as (label, value, size)."""

    name: str
    status: str
    tracks: tuple[tuple[str, int, int], ...]


def party(state: Encounter, system: RuleSystem) -> list[PartyEntry]:
    """The player characters' condition (never an opponent's)."""
    entries = []
    for combatant in state.combatants.values():
        if combatant.side is not Side.PLAYER:
            continue
        status = system.status(combatant, state)
        word = _(STATUS_LABELS[status]) if status is not Status.ACTIVE else ""
        tracks = tuple((_(spec.label), combatant.boxes(spec.key), spec.size)
                       for spec in system.tracks(combatant, state))
        entries.append(PartyEntry(combatant.name, word, tracks))
    return entries


class PartyPanel(QWidget):
    """The player characters, each with a bar per condition track."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._entries: list[PartyEntry] = []
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)

    def set_entries(self, entries: list[PartyEntry]) -> None:
        """Show these player characters."""
        self._entries = entries
        self.updateGeometry()
        self.update()

    def entries(self) -> list[PartyEntry]:
        """The player characters shown."""
        return list(self._entries)

    def texts(self) -> list[str]:
        """Every text the panel draws."""
        return [text for entry in self._entries for text in (entry.name, entry.status, *(t[0] for t in entry.tracks))
                if text]

    def _line(self) -> int:
        return self.fontMetrics().height()

    def _entry_height(self) -> int:
        """A name line, a line with every track side by side, a small gap."""
        return self._line() * 2 + self._line() * 2 // 5

    def _shared_labels(self) -> tuple[str, ...] | None:
        """The track labels, when every character has the same tracks (then they head the panel once)."""
        labels = {tuple(track[0] for track in entry.tracks) for entry in self._entries}
        return labels.pop() if len(labels) == 1 else None

    def sizeHint(self) -> QSize:
        heading = self._line() if self._shared_labels() else 0
        return QSize(self.fontMetrics().horizontalAdvance("M") * 18,
                     heading + len(self._entries) * self._entry_height())

    def minimumSizeHint(self) -> QSize:
        return QSize(self.fontMetrics().horizontalAdvance("M") * 8, self._line())

    def _cells(self, row: QRect, count: int) -> list[QRect]:
        """``count`` equal cells side by side in ``row``, with a gap between them."""
        share, pad = row.width() // max(1, count), self._line() // 2
        return [QRect(row.left() + number * share, row.top(), share - pad, row.height()) for number in range(count)]

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        line, top = self._line(), 0
        shared = self._shared_labels()
        if shared:
            painter.setPen(self.palette().color(QPalette.ColorRole.PlaceholderText))
            for cell, label in zip(self._cells(QRect(line // 2, 0, self.width() - line // 2, line), len(shared)),
                                   shared, strict=True):
                painter.drawText(cell, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, label)
            top += line
        for entry in self._entries:
            self._paint_name(painter, entry, QRect(0, top, self.width(), line))
            self._paint_tracks(painter, entry, QRect(line // 2, top + line, self.width() - line // 2, line),
                               labelled=shared is None)
            top += self._entry_height()
        painter.end()

    def _paint_tracks(self, painter: QPainter, entry: PartyEntry, row: QRect, labelled: bool) -> None:
        """Each track gets an equal share of the row: its label (unless the panel is headed), then its bar."""
        for cell, (label, value, size) in zip(self._cells(row, len(entry.tracks)), entry.tracks, strict=True):
            label_width = 0
            if labelled:
                painter.setPen(self.palette().color(QPalette.ColorRole.PlaceholderText))
                painter.drawText(cell, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, label)
                label_width = self.fontMetrics().horizontalAdvance(label) + self._line() // 4
            bar = QRect(cell.left() + label_width, cell.top() + cell.height() // 6, cell.width() - label_width,
                        cell.height() * 2 // 3)
            paint_track(painter, bar, min(value, size), size, max(0, value - size), self.palette())

    def _paint_name(self, painter: QPainter, entry: PartyEntry, rect: QRect) -> None:
        font = QFont(self.font())
        font.setBold(True)
        painter.setFont(font)
        painter.setPen(self.palette().color(QPalette.ColorRole.WindowText))
        text = f"{entry.name} · {entry.status}" if entry.status else entry.name
        painter.drawText(rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                         painter.fontMetrics().elidedText(text, Qt.TextElideMode.ElideRight, rect.width()))
        painter.setFont(self.font())


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
        painter.drawText(inner, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                         painter.fontMetrics().elidedText(text, Qt.TextElideMode.ElideRight, inner.width()))
        if option.state & QStyle.StateFlag.State_HasFocus:
            painter.setPen(palette.color(QPalette.ColorRole.Mid))
            painter.drawRect(rect.adjusted(0, 0, -1, -1))
        painter.restore()


class PlayerView(QWidget):
    """A top-level window for the players: round, current actor, order, the party's condition.

    ``geometry`` (base64 of ``saveGeometry()``, as ``placed`` gave it) puts it back where it was last time:
    on the projector, full screen if it was."""

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
        self.round_label = QLabel()
        self.now_caption = QLabel(_("Now acting"))
        self.current_label = QLabel()
        self.current_label.setWordWrap(True)
        self.order_caption = QLabel(_("Order"))
        self.party_caption = QLabel(_("Party"))
        self.order = QListView()
        self.order.setModel(self.model)
        self.order.setItemDelegate(OrderDelegate(self.order))
        self.order.setFrameShape(QFrame.Shape.NoFrame)
        self.order.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.order.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.party = PartyPanel()
        for caption in (self.now_caption, self.order_caption, self.party_caption):
            caption.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.full_screen_button = QToolButton()
        self.full_screen_button.setAutoRaise(True)
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
        party.addStretch(1)
        grid.addLayout(party, 4, 1, 1, 2)
        grid.setColumnStretch(0, 3)
        grid.setColumnStretch(1, 2)
        grid.setRowStretch(4, 1)

    def _build_actions(self) -> None:
        self.full_screen_action = QAction(_("Full screen"), self)
        self.full_screen_action.setCheckable(True)
        self.full_screen_action.setShortcut(QKeySequence(Qt.Key.Key_F11))
        self.full_screen_action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.full_screen_action.toggled.connect(self.set_full_screen)
        self.leave_full_screen_action = QAction(_("Leave full screen"), self)
        self.leave_full_screen_action.setShortcut(QKeySequence(Qt.Key.Key_Escape))
        self.leave_full_screen_action.triggered.connect(lambda: self.set_full_screen(False))
        self.addAction(self.full_screen_action)
        self.addAction(self.leave_full_screen_action)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        self.full_screen_button.setDefaultAction(self.full_screen_action)
        self.full_screen_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)

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
        self.current_label.setText(current.display if current is not None else "—")
        self.party.set_entries(party(state, system))
        self.party_caption.setVisible(bool(self.party.texts()))
        self._scale_fonts()  # more rows may need smaller text

    def shown_texts(self) -> list[str]:
        """Every text the window shows (labels, order rows, party panel): what the players can read."""
        labels = [label.text() for label in self.findChildren(QLabel) if label.isVisibleTo(self)]
        rows = [str(self.model.index(row, 0).data()) for row in range(self.model.rowCount())]
        return labels + rows + self.party.texts() + [self.full_screen_button.text()]

    # --- scaling -------------------------------------------------------------------------------
    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._scale_fonts()

    def base_pixel_size(self) -> int:
        """The body text size for this window size, shrunk so that every row of the order and the party fits."""
        # In units of the base size: the heading lines, then the taller of the two columns (see _scale_fonts).
        heading = (1.4 + 1.0 + 3.2 + 1.0) * LINE_HEIGHT
        party_lines = (len(party(self._document.state, self._document.system)) * 2.4 + 1) * 1.2 * LINE_HEIGHT
        order_lines = self.model.rowCount() * 1.5 * 1.5
        fit = (self.height() - CHROME) / (heading + max(party_lines, order_lines, 1.0))
        return int(max(12, min(self.width() / 42, fit, 72)))

    def _scale_fonts(self) -> None:
        base = self.base_pixel_size()
        if base == self._base:
            return
        self._base = base
        sizes = {self.round_label: 1.4, self.now_caption: 1.0, self.current_label: 3.2, self.order_caption: 1.0,
                 self.party_caption: 1.0, self.order: 1.5, self.party: 1.2, self.full_screen_button: 0.8}
        for widget, factor in sizes.items():
            font = QFont(self.font())
            font.setPixelSize(max(8, int(base * factor)))
            font.setBold(widget in (self.current_label, self.round_label))
            widget.setFont(font)
        self.party.updateGeometry()
