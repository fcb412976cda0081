"""The initiative table view: current actor highlighted, sides marked, condition drawn as compact bars beside its
numbers in the game's own terms, and a status icon and word for whoever is out of the fight."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PySide6.QtCore import (
    QEvent,
    QItemSelectionModel,
    QModelIndex,
    QPersistentModelIndex,
    QPoint,
    QRect,
    QSize,
    Qt,
    Signal,
)
from PySide6.QtGui import (
    QAction,
    QBrush,
    QColor,
    QContextMenuEvent,
    QFont,
    QFontMetrics,
    QHelpEvent,
    QIcon,
    QPainter,
    QPalette,
    QPixmap,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QMenu,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QToolTip,
    QWidget,
)

from ui.models.initiative_model import Column, InitiativeModel, Role
from ui.widgets.condition_track import paint_track
from ui.widgets.row_table import RowTable
from ui.widgets.status_icons import ICON_SIZE

Index = QModelIndex | QPersistentModelIndex

#: Side colours, chosen to stay distinguishable for the common colour-vision deficiencies (blue/orange).
SIDE_COLOURS = {"player": QColor("#2f74c0"), "ally": QColor("#2a9d8f"), "opponent": QColor("#d9730d")}
STRIPE = 4
LABEL_WIDTH = 12
MIN_BOX = 5  # pixels: below this a row of boxes stops being readable
TRACK_GAP = 4  # pixels between the tracks of a row (a pyramid's classes)
PADDING = 4
#: The condition drawing's width (pixels), at most this share of the cell: the words take the rest.
BARS_WIDTH = 80
BARS_SHARE = 0.4
GAP = 6
ICON_GAP = 4


@dataclass(frozen=True)
class ConditionLayout:
    """Where the condition cell draws its parts: the tracks (None when they cannot be drawn readably), the
    status icon (None when there is none) and the words."""

    bars: QRect | None
    icon: QRect | None
    text: QRect


def condition_layout(rect: QRect, tracks: list[tuple[str, int, int]], has_icon: bool) -> ConditionLayout:
    """The drawing first, at a width that does not depend on the text (so the bars line up row under row), then
    the icon and the words in what is left."""
    inner = rect.adjusted(PADDING, 3, -PADDING, -3)
    width = min(BARS_WIDTH, int(inner.width() * BARS_SHARE))
    bars = QRect(inner.left(), inner.top(), width, inner.height()) if _drawable(tracks, width) else None
    left = inner.left() + (width + GAP if bars is not None else 0)
    icon = None
    if has_icon:
        side = min(ICON_SIZE, inner.height())
        icon = QRect(left, inner.top() + (inner.height() - side) // 2, side, side)
        left += side + ICON_GAP
    return ConditionLayout(bars, icon, QRect(left, inner.top(), max(0, inner.right() + 1 - left), inner.height()))


def _row_box(tracks: list[tuple[str, int, int]], width: int) -> float:
    """The width of one box when every track is drawn in one row, ``TRACK_GAP`` between tracks."""
    total = sum(size for _label, _filled, size in tracks)
    return (width - TRACK_GAP * (len(tracks) - 1)) / total if total > 0 else 0.0


def _drawable(tracks: list[tuple[str, int, int]], width: int) -> bool:
    """One or two tracks always draw (stacked; a long one as a bar); more only as one row of readable boxes."""
    if not tracks or width <= LABEL_WIDTH:
        return False
    if len(tracks) <= 2:
        return True
    return _row_box(tracks, width) >= MIN_BOX


#: Painted cells kept for reuse: a few screens of a six-column table (a cell is ~30 KB at 270 × 30 px).
PIXMAP_CACHE_CELLS = 600
#: What painting a cell reads of the model. The status icon is drawn from the status and the palette (the palette
#: is part of every key), so the status stands for it: the model makes a new icon each time it is asked.
PAINTED_ROLES = (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.FontRole, Qt.ItemDataRole.ForegroundRole,
                 Qt.ItemDataRole.BackgroundRole, Qt.ItemDataRole.TextAlignmentRole, Qt.ItemDataRole.CheckStateRole,
                 Role.IS_CURRENT, Role.SIDE, Role.STATUS, Role.TRACKS)


def _comparable(value: object) -> object:
    """A role's value as something hashable that is equal exactly when it paints the same."""
    if isinstance(value, QFont):
        return value.key()
    if isinstance(value, QBrush):
        return value.color().rgba(), value.style().value
    if isinstance(value, QColor):
        return value.rgba()
    if isinstance(value, list):
        return tuple(_comparable(item) for item in value)
    if isinstance(value, tuple):
        return tuple(_comparable(item) for item in value)
    return value


class InitiativeDelegate(QStyledItemDelegate):
    """Paints the current row's highlight, the side stripe, and the condition: bars, status icon and words.

    Every change moves rows (the order is re-read) and Qt then repaints every visible cell; painting one from
    Python takes ~0.3 ms (eight roles asked, the style's drawing, the condition's boxes). So each painted cell is
    kept as a pixmap, under what it shows (:data:`PAINTED_ROLES`) and how (its size, state and palette), and drawn
    again only when one of those changed: a cell is never stale, however the change reached it.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._pixmaps: OrderedDict[tuple[object, ...], QPixmap] = OrderedDict()

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        model = index.model()
        if not isinstance(model, InitiativeModel):
            self._paint_cell(painter, option, index)
            return
        ratio = painter.device().devicePixelRatioF()
        shown = model.derived(index, "painted", lambda: tuple(
            _comparable(model.data(index, role)) for role in PAINTED_ROLES))
        key = (index.column(), shown, option.rect.width(), option.rect.height(), option.state.value,
               option.features.value, option.palette.cacheKey(), ratio, painter.font().key())
        pixmap = self._pixmaps.get(key)
        if pixmap is None:
            pixmap = self._pixmaps[key] = self._rendered(painter, option, index, ratio)
            if len(self._pixmaps) > PIXMAP_CACHE_CELLS:
                self._pixmaps.popitem(last=False)
        else:
            self._pixmaps.move_to_end(key)
        painter.drawPixmap(option.rect.topLeft(), pixmap)

    def _rendered(self, painter: QPainter, option: QStyleOptionViewItem, index: Index, ratio: float) -> QPixmap:
        """The cell painted into a pixmap of its size, as it would be painted in place."""
        pixmap = QPixmap(option.rect.size() * ratio)
        pixmap.setDevicePixelRatio(ratio)
        pixmap.fill(Qt.GlobalColor.transparent)
        local = QStyleOptionViewItem(option)
        local.rect = QRect(QPoint(0, 0), option.rect.size())
        cell = QPainter(pixmap)
        try:
            cell.setFont(painter.font())
            cell.setRenderHints(painter.renderHints())
            self._paint_cell(cell, local, index)
        finally:
            cell.end()
        return pixmap

    def _paint_cell(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        if index.data(Role.IS_CURRENT) and not option.state & QStyle.StateFlag.State_Selected:
            highlight = option.palette.color(QPalette.ColorRole.Highlight)
            highlight.setAlpha(70)
            painter.fillRect(option.rect, highlight)
        if index.column() == Column.CONDITION:
            self._paint_condition(painter, option, index)
            return
        super().paint(painter, option, index)
        if index.column() == Column.NAME:
            colour = SIDE_COLOURS.get(index.data(Role.SIDE), QColor("gray"))
            rect: QRect = option.rect
            painter.fillRect(QRect(rect.left(), rect.top() + 2, STRIPE, rect.height() - 4), colour)

    @staticmethod
    def _layout(option: QStyleOptionViewItem, index: Index) -> ConditionLayout:
        icon = index.data(Qt.ItemDataRole.DecorationRole)
        return condition_layout(option.rect, index.data(Role.TRACKS) or [], isinstance(icon, QIcon))

    def _paint_condition(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        if selected:
            painter.fillRect(option.rect, option.palette.highlight())
        layout = self._layout(option, index)
        if layout.bars is not None:
            self._paint_bars(painter, option, layout.bars, index.data(Role.TRACKS))
        icon = index.data(Qt.ItemDataRole.DecorationRole)
        if layout.icon is not None and isinstance(icon, QIcon):
            icon.paint(painter, layout.icon, Qt.AlignmentFlag.AlignCenter,
                       QIcon.Mode.Selected if selected else QIcon.Mode.Normal)
        painter.save()
        font = index.data(Qt.ItemDataRole.FontRole)
        if isinstance(font, QFont):
            painter.setFont(font)
        painter.setPen(self._text_colour(option, index, selected))
        text = str(index.data(Qt.ItemDataRole.DisplayRole) or "")
        shown = painter.fontMetrics().elidedText(text, Qt.TextElideMode.ElideRight, layout.text.width())
        painter.drawText(layout.text, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), shown)
        painter.restore()

    @staticmethod
    def _text_colour(option: QStyleOptionViewItem, index: Index, selected: bool) -> QColor:
        if selected:
            return option.palette.color(QPalette.ColorRole.HighlightedText)
        brush = index.data(Qt.ItemDataRole.ForegroundRole)
        return brush.color() if isinstance(brush, QBrush) else option.palette.color(QPalette.ColorRole.Text)

    def _paint_bars(self, painter: QPainter, option: QStyleOptionViewItem, rect: QRect,
                    tracks: list[tuple[str, int, int]]) -> None:
        if len(tracks) > 2:  # pyramids and per-type tracks: one row of boxes, a gap between tracks
            self._paint_row(painter, option, rect, tracks)
            return
        height = max(4, (rect.height() - 2 * (len(tracks) - 1)) // len(tracks))
        painter.save()
        font = painter.font()
        font.setPointSizeF(max(6.0, font.pointSizeF() * 0.75))
        painter.setFont(font)
        painter.setPen(option.palette.color(QPalette.ColorRole.Text))
        for number, (label, filled, size) in enumerate(tracks):
            row = QRect(rect.left(), rect.top() + number * (height + 2), rect.width(), height)
            painter.drawText(row.adjusted(0, -2, 0, 2), Qt.AlignmentFlag.AlignVCenter, label[:1])
            paint_track(painter, row.adjusted(LABEL_WIDTH, 0, 0, 0), min(filled, size), size,
                        max(0, filled - size), option.palette)
        painter.restore()

    @staticmethod
    def _paint_row(painter: QPainter, option: QStyleOptionViewItem, rect: QRect,
                   tracks: list[tuple[str, int, int]]) -> None:
        box = _row_box(tracks, rect.width())
        left = float(rect.left())
        for _label, filled, size in tracks:
            width = round(box * size)
            paint_track(painter, QRect(round(left), rect.top() + 4, width, rect.height() - 8), min(filled, size),
                        size, 0, option.palette)  # overflow is in the words ("+1"): the row keeps its width
            left += box * size + TRACK_GAP

    def helpEvent(self, event: QHelpEvent, view: QAbstractItemView, option: QStyleOptionViewItem,
                  index: Index) -> bool:
        """A condition cell too narrow for its words shows them whole in its tooltip, above the game's notes."""
        if event.type() != QEvent.Type.ToolTip or index.column() != Column.CONDITION:
            return super().helpEvent(event, view, option, index)
        text = str(index.data(Qt.ItemDataRole.DisplayRole) or "")
        notes = index.data(Qt.ItemDataRole.ToolTipRole)
        if not self.elided(option, index):
            return super().helpEvent(event, view, option, index)
        QToolTip.showText(event.globalPos(), "\n".join(part for part in (text, notes) if part), view)
        return True

    def elided(self, option: QStyleOptionViewItem, index: Index) -> bool:
        """Whether the condition cell's words do not fit (they are drawn elided)."""
        font = index.data(Qt.ItemDataRole.FontRole)
        metrics = QFontMetrics(font) if isinstance(font, QFont) else option.fontMetrics
        text = str(index.data(Qt.ItemDataRole.DisplayRole) or "")
        return metrics.horizontalAdvance(text) > self._layout(option, index).text.width()

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        hint = super().sizeHint(option, index)
        if index.column() != Column.CONDITION:
            return hint
        font = index.data(Qt.ItemDataRole.FontRole)
        metrics = QFontMetrics(font) if isinstance(font, QFont) else option.fontMetrics
        words = metrics.horizontalAdvance(str(index.data(Qt.ItemDataRole.DisplayRole) or ""))
        icon = ICON_SIZE + ICON_GAP if isinstance(index.data(Qt.ItemDataRole.DecorationRole), QIcon) else 0
        bars = BARS_WIDTH + GAP if index.data(Role.TRACKS) else 0
        return QSize(max(hint.width(), 2 * PADDING + bars + icon + words + 2), max(hint.height(), 26))


class InitiativeTable(RowTable):
    """The order of the fight; selecting a row selects the combatant the other panels show.

    A right click selects the row under the mouse and offers the window's own commands on it
    (:meth:`set_row_actions`), so the menu's texts and shortcuts are the menus' and the toolbar's.
    """

    selected = Signal(object)  # combatant id or None

    def __init__(self, model: InitiativeModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._row_actions: tuple[QAction | None, ...] = ()
        self._prepare_menu: Callable[[str | None], None] = lambda _combatant_id: None
        self.setModel(model)
        self.setItemDelegate(InitiativeDelegate(self))
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        # Several rows (Ctrl/Shift+click, Shift+arrows) take one hit together: a grenade, a blast.
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                             | QAbstractItemView.EditTrigger.EditKeyPressed)
        self.setAlternatingRowColors(True)
        self.verticalHeader().setVisible(False)
        self.verticalHeader().setDefaultSectionSize(30)
        header = self.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        # Together at most ~850 px, so that the effects keep a column in a window 1366 px wide.
        for column, width in ((Column.NAME, 150), (Column.SIDE, 130), (Column.INITIATIVE, 110),
                              (Column.ACTIONS, 190), (Column.CONDITION, 270)):
            self.setColumnWidth(column, width)
        self.selectionModel().currentRowChanged.connect(self._on_current_row)

    def _on_current_row(self, current: QModelIndex, _previous: QModelIndex) -> None:
        self.selected.emit(current.data(Role.COMBATANT_ID) if current.isValid() else None)

    def selected_id(self) -> str | None:
        """The combatant the GM selected (a row Qt merely made current on focus does not count).

        With several rows selected: the current one if it is among them (the one the details panel shows), else
        the first in the table's order."""
        current = self.currentIndex()
        if current.isValid() and self.selectionModel().isRowSelected(current.row(), current.parent()):
            return str(current.data(Role.COMBATANT_ID))
        chosen = self.selected_ids()
        return chosen[0] if chosen else None

    def selected_ids(self) -> list[str]:
        """Every combatant selected, in the table's order (empty: nobody)."""
        rows = sorted(self.selectionModel().selectedRows(), key=lambda index: index.row())
        return [str(index.data(Role.COMBATANT_ID)) for index in rows]

    def select_combatant(self, combatant_id: str) -> None:
        """Select that combatant's row alone and make it the current one (so focusing the table afterwards
        cannot add the first row to a multi-row selection)."""
        model = self.model()
        assert isinstance(model, InitiativeModel)
        row = model.row_of(combatant_id)
        if row >= 0:
            flags = (QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows)
            self.selectionModel().setCurrentIndex(model.index(row, 0), flags)

    # --- the right-click menu ------------------------------------------------------------------
    def set_row_actions(self, actions: Sequence[QAction | None],
                        prepare: Callable[[str | None], None] | None = None) -> None:
        """The commands a right click on a row offers (None: a separator).

        ``prepare(combatant_id)`` runs before the menu shows (to enable or check what applies to that row),
        ``prepare(None)`` once it has closed (to put the commands back as they were for the window)."""
        self._row_actions = tuple(actions)
        if prepare is not None:
            self._prepare_menu = prepare

    def row_menu(self, row: int) -> QMenu | None:
        """Select ``row`` and build its menu (None for no row); the caller shows it and deletes it."""
        model = self.model()
        if not 0 <= row < model.rowCount():
            return None
        combatant_id = model.index(row, 0).data(Role.COMBATANT_ID)
        # A row inside a selection keeps it (the menu's Damage hits every selected row, as a desktop's menus
        # act on the whole selection); another row is selected alone. Not selectRow: it reads the keyboard's
        # modifiers, so a Ctrl still held (or stuck after a key event whose release never came) toggled the
        # row off and the menu acted on nobody.
        if not self.selectionModel().isRowSelected(row, QModelIndex()):
            self.select_combatant(combatant_id)
        else:
            self.selectionModel().setCurrentIndex(model.index(row, 0), QItemSelectionModel.SelectionFlag.NoUpdate)
        self._prepare_menu(combatant_id)
        menu = QMenu(self)
        for action in self._row_actions:
            if action is None:
                menu.addSeparator()
            elif action.isVisible():
                menu.addAction(action)
        return menu

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        position = event.pos()
        if event.reason() == QContextMenuEvent.Reason.Keyboard:  # the menu key: the selected row
            row = self.currentIndex().row()
            position = self.visualRect(self.model().index(max(row, 0), 0)).center()
        else:
            row = self.rowAt(position.y())
        menu = self.row_menu(row)
        if menu is None:
            return
        try:
            menu.exec(self.viewport().mapToGlobal(QPoint(position)))
        finally:
            self._prepare_menu(None)
            menu.deleteLater()
