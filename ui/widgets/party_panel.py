"""The player view's party panel: each player character's name and condition bars, headed by the track labels.

The labels never get cut: they shrink and wrap to fit their columns (six tracks of a game, in Russian, on a
1024-pixel projector), and break inside a word only when a single word is still too wide.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from PySide6.QtCore import QRect, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPaintEvent, QPalette, QResizeEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

from app.i18n import _
from rules.combatants import is_hidden
from rules.encounter import STATUS_LABELS, Encounter, Side, Status
from rules.systems.base import RuleSystem
from ui.widgets.condition_track import paint_track
from ui.widgets.status_icons import paint_status_icon

#: The track labels heading the party panel wrap onto this many lines, shrinking to MIN_FIT of the panel's text
#: (never below MIN_PIXELS) before anything is cut.
HEADING_LINES: Final[int] = 2
MIN_FIT: Final[float] = 0.5
MIN_PIXELS: Final[int] = 8
#: A line of the out-of-the-fight list, in font heights.
FALLEN_LINE: Final[float] = 1.2


@dataclass(frozen=True)
class PartyEntry:
    """One player character: name, a status word when not active, and each track as (label, value, size)."""

    name: str
    status: str
    tracks: tuple[tuple[str, int, int], ...]
    state: Status = Status.ACTIVE  # what the icon before the name shows


@dataclass(frozen=True)
class FallenEntry:
    """An NPC out of the fight: its name, the status word and the status (for the icon). No numbers."""

    name: str
    status: str
    state: Status


def _status_word(status: Status) -> str:
    return _(STATUS_LABELS[status]) if status is not Status.ACTIVE else ""


def party(state: Encounter, system: RuleSystem) -> list[PartyEntry]:
    """The player characters' condition (never an opponent's)."""
    entries = []
    for combatant in state.combatants.values():
        if combatant.side is not Side.PLAYER:
            continue
        status = system.status(combatant, state)
        tracks = tuple((_(spec.label), combatant.boxes(spec.key), spec.size)
                       for spec in system.tracks(combatant, state))
        entries.append(PartyEntry(combatant.name, _status_word(status), tracks, status))
    return entries


def fallen(state: Encounter, system: RuleSystem) -> list[FallenEntry]:
    """The NPCs (opponents and allies) out of the fight, by name and status word only."""
    entries = []
    for combatant in state.combatants.values():
        status = system.status(combatant, state)
        if combatant.side is not Side.PLAYER and status is not Status.ACTIVE and not is_hidden(combatant):
            entries.append(FallenEntry(combatant.name, _status_word(status), status))
    return entries


def paint_named_status(painter: QPainter, rect: QRect, name: str, word: str, status: Status, ink: QColor) -> None:
    """``[icon] Name · Word`` in ``rect`` (just the name for someone active), elided to fit."""
    left = rect.left()
    if paint_status_icon(painter, QRectF(left, rect.top(), rect.height(), rect.height()).adjusted(1, 1, -1, -1),
                         status, ink):
        left += rect.height() + rect.height() // 4
    text = f"{name} · {word}" if word else name
    area = QRect(left, rect.top(), max(0, rect.right() + 1 - left), rect.height())
    painter.setPen(ink)
    painter.drawText(area, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                     painter.fontMetrics().elidedText(text, Qt.TextElideMode.ElideRight, area.width()))


def wrapped_size(metrics: QFontMetrics, text: str, width: int, wrap: Qt.TextFlag = Qt.TextFlag.TextWordWrap) -> QSize:
    """The size of ``text`` wrapped at ``width`` (by words: wider than ``width`` when one word is)."""
    flags = int(Qt.AlignmentFlag.AlignLeft) | int(wrap)
    return metrics.boundingRect(QRect(0, 0, max(1, width), 10_000), flags, text).size()


def fitted_font(font: QFont, texts: Sequence[str], width: int, lines: int) -> QFont:
    """``font``, or a smaller one (down to MIN_FIT of it), in which every text fits ``width`` on ``lines`` lines."""
    fitted = QFont(font)
    pixels = font.pixelSize() if font.pixelSize() > 0 else QFontMetrics(font).height()
    smallest = max(MIN_PIXELS, int(pixels * MIN_FIT))
    for size in range(pixels, smallest - 1, -1):
        fitted.setPixelSize(size)
        metrics = QFontMetrics(fitted)
        if all(_fits(metrics, text, width, lines) for text in texts):
            break
    return fitted


def _fits(metrics: QFontMetrics, text: str, width: int, lines: int) -> bool:
    size = wrapped_size(metrics, text, width)
    return size.width() <= width and size.height() <= metrics.lineSpacing() * lines + 1


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

    def _heading_cells(self, count: int) -> list[QRect]:
        line = self._line()
        return self._cells(QRect(line // 2, 0, self.width() - line // 2, line), count)

    def heading_font(self) -> QFont:
        """The font of the track labels heading the panel: the panel's, shrunk until each label fits its column
        on at most two lines (a long label in a narrow column, six tracks in Russian, is never cut)."""
        labels = self._shared_labels() or ()
        cells = self._heading_cells(len(labels))
        width = min((cell.width() for cell in cells), default=0)
        return fitted_font(self.font(), labels, width, HEADING_LINES)

    def heading_wrap(self) -> Qt.TextFlag:
        """How the headings wrap: at words, or anywhere when a word is wider than its column even in the
        smallest heading font (better a broken word than a cut one)."""
        labels = self._shared_labels() or ()
        width = min((cell.width() for cell in self._heading_cells(len(labels))), default=0)
        metrics = QFontMetrics(self.heading_font())
        if all(wrapped_size(metrics, label, width).width() <= width for label in labels):
            return Qt.TextFlag.TextWordWrap
        return Qt.TextFlag.TextWrapAnywhere

    def _heading_flags(self) -> int:
        # From the top: a one-line label ("Wounds") on the same line as the first of a two-line one beside it
        # ("Shadow damage"), not a line lower, so the headings read as one row over the bars.
        return int(Qt.AlignmentFlag.AlignLeft) | int(Qt.AlignmentFlag.AlignTop) | int(self.heading_wrap())

    def _heading_boxes(self, count: int) -> list[QRect]:
        """Each heading's column, as tall as the tallest heading."""
        height = self._heading_height()
        return [QRect(cell.left(), 0, cell.width(), height) for cell in self._heading_cells(count)]

    def heading_places(self) -> list[QRect]:
        """Where each track label heading the panel is drawn (empty when the characters' tracks differ)."""
        labels = self._shared_labels()
        if not labels:
            return []
        metrics = QFontMetrics(self.heading_font())
        return [metrics.boundingRect(box, self._heading_flags(), label)
                for box, label in zip(self._heading_boxes(len(labels)), labels, strict=True)]

    def _heading_height(self) -> int:
        labels = self._shared_labels()
        if not labels:
            return 0
        metrics, wrap = QFontMetrics(self.heading_font()), self.heading_wrap()
        width = max(1, min(cell.width() for cell in self._heading_cells(len(labels))))
        return max(wrapped_size(metrics, label, width, wrap).height() for label in labels)

    def _entry_height(self) -> int:
        """A name line, a line with every track side by side, a small gap."""
        return self._line() * 2 + self._line() * 2 // 5

    def _shared_labels(self) -> tuple[str, ...] | None:
        """The track labels, when every character has the same tracks (then they head the panel once)."""
        labels = {tuple(track[0] for track in entry.tracks) for entry in self._entries}
        return labels.pop() if len(labels) == 1 else None

    def sizeHint(self) -> QSize:
        return QSize(self.fontMetrics().horizontalAdvance("M") * 18,
                     self._heading_height() + len(self._entries) * self._entry_height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.updateGeometry()  # the headings wrap, or not, with the width

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
            top = self._heading_height()
            painter.setPen(self.palette().color(QPalette.ColorRole.PlaceholderText))
            painter.setFont(self.heading_font())
            for place, label in zip(self._heading_boxes(len(shared)), shared, strict=True):
                painter.drawText(place, self._heading_flags(), label)
            painter.setFont(self.font())
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
            if labelled:  # the label takes at most half its cell, in a smaller font when it must
                font = fitted_font(self.font(), (label,), cell.width() // 2, 1)
                painter.setFont(font)
                painter.setPen(self.palette().color(QPalette.ColorRole.PlaceholderText))
                metrics = QFontMetrics(font)
                text = metrics.elidedText(label, Qt.TextElideMode.ElideRight, cell.width() // 2)
                painter.drawText(cell, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, text)
                painter.setFont(self.font())
                label_width = metrics.horizontalAdvance(text) + self._line() // 4
            bar = QRect(cell.left() + label_width, cell.top() + cell.height() // 6, cell.width() - label_width,
                        cell.height() * 2 // 3)
            paint_track(painter, bar, min(value, size), size, max(0, value - size), self.palette())

    def _paint_name(self, painter: QPainter, entry: PartyEntry, rect: QRect) -> None:
        font = QFont(self.font())
        font.setBold(True)
        painter.setFont(font)
        paint_named_status(painter, rect, entry.name, entry.status, entry.state,
                           self.palette().color(QPalette.ColorRole.WindowText))
        painter.setFont(self.font())


class FallenPanel(QWidget):
    """The NPCs out of the fight, one line each: the status icon, the name and the status word."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._entries: list[FallenEntry] = []
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)

    def set_entries(self, entries: list[FallenEntry]) -> None:
        """Show these NPCs."""
        self._entries = entries
        self.updateGeometry()
        self.update()

    def entries(self) -> list[FallenEntry]:
        """The NPCs shown."""
        return list(self._entries)

    def texts(self) -> list[str]:
        """Every text the panel draws."""
        return [text for entry in self._entries for text in (entry.name, entry.status)]

    def _line(self) -> int:
        return int(self.fontMetrics().height() * FALLEN_LINE)

    def sizeHint(self) -> QSize:
        return QSize(self.fontMetrics().horizontalAdvance("M") * 18, len(self._entries) * self._line())

    def minimumSizeHint(self) -> QSize:
        return QSize(self.fontMetrics().horizontalAdvance("M") * 8, len(self._entries) * self._line())

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        ink = self.palette().color(QPalette.ColorRole.WindowText)
        for number, entry in enumerate(self._entries):
            row = QRect(0, number * self._line(), self.width(), self._line())
            paint_named_status(painter, row, entry.name, entry.status, entry.state, ink)
        painter.end()
