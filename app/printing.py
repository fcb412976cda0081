"""Printing a QTextDocument on pages: paper sizes, page breaks that never split a table row, headers, PDF.

Qt's own pagination (``QTextDocument.setPageSize``) moves a line that does not fit to the next page, so a table
row whose cells wrap to several lines can start on one page and end on the next. Here the document is laid out
once without pages and cut only where a cut is safe: between two lines of a paragraph, before a block or a
table, or between two table rows; never right after a heading (it stays with what follows), never between a
table's header row and its first row. A page that breaks inside a table starts with the table's header row
again. Only a single row taller than a whole page is cut where the page ends.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QLocale, QMarginsF, QRectF, QSizeF, Qt
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QColor,
    QFont,
    QPagedPaintDevice,
    QPageLayout,
    QPageSize,
    QPainter,
    QPalette,
    QPdfWriter,
    QTextBlock,
    QTextCursor,
    QTextDocument,
    QTextFrame,
    QTextTable,
)

from app.i18n import _
from app.storage import StorageError, atomic_write_bytes

Paper = Literal["a4", "letter"]
PAPERS: Final[tuple[Paper, ...]] = ("a4", "letter")
PAGE_SIZES: Final[dict[Paper, QPageSize.PageSizeId]] = {"a4": QPageSize.PageSizeId.A4,
                                                        "letter": QPageSize.PageSizeId.Letter}
MARGINS_MM: Final[QMarginsF] = QMarginsF(15, 12, 15, 12)
PDF_RESOLUTION: Final[int] = 300
BODY_POINT_SIZE: Final[float] = 9.0
#: Sans-serif families tried in turn, so the same machine always prints (and paginates) alike.
FONT_FAMILIES: Final[list[str]] = ["DejaVu Sans", "Noto Sans", "Liberation Sans", "Arial", "Helvetica"]
HEADER_POINT_SIZE: Final[float] = 7.5
HEADER_GREY: Final[QColor] = QColor("#555555")


def default_paper(locale: QLocale | None = None) -> Paper:
    """Letter where the system's locale measures in US units (the US…), A4 everywhere else.

    The system's locale, not the language's: a GM in Prague using Bojovka in English still prints on A4.
    """
    system = (locale or QLocale.system()).measurementSystem()
    return "letter" if system == QLocale.MeasurementSystem.ImperialUSSystem else "a4"


def paper_from_setting(setting: str) -> Paper:
    """The paper a setting names ("a4", "letter"); anything else ("auto") follows the locale."""
    return "letter" if setting == "letter" else "a4" if setting == "a4" else default_paper()


def page_layout(paper: Paper) -> QPageLayout:
    """Portrait ``paper`` with the printout's margins."""
    return QPageLayout(QPageSize(PAGE_SIZES[paper]), QPageLayout.Orientation.Portrait, MARGINS_MM,
                       QPageLayout.Unit.Millimeter)


def document_font() -> QFont:
    """The printout's body font: a sans-serif at 9 pt."""
    font = QFont()
    font.setFamilies(FONT_FAMILIES)
    font.setStyleHint(QFont.StyleHint.SansSerif)
    font.setPointSizeF(BODY_POINT_SIZE)
    return font


# --- where a page may end ------------------------------------------------------------------------


@dataclass(frozen=True)
class Cut:
    """A safe place to end a page: the page before draws up to ``end``, the page after from ``start``.

    Between table rows ``start`` < ``end``: both pages draw the border between the rows. ``header`` is the
    table's header row (top, bottom) to draw again on top of the next page; the page then starts at ``end``.
    """

    end: float
    start: float
    header: tuple[float, float] | None = None


@dataclass(frozen=True)
class Page:
    """One page: an optional repeated table header, then the document from ``top`` to ``bottom``."""

    top: float
    bottom: float
    header: tuple[float, float] | None = None


def _blocks(document: QTextDocument) -> Iterator[QTextBlock]:
    block = document.begin()
    while block.isValid():
        yield block
        block = block.next()


def _tables(frame: QTextFrame) -> Iterator[QTextTable]:
    """The document's own tables (a table inside a cell moves with its row, so it offers no cuts)."""
    for child in frame.childFrames():
        if isinstance(child, QTextTable):
            yield child


def _block_cuts(document: QTextDocument) -> tuple[list[Cut], list[tuple[float, float]]]:
    """Cuts before each block outside tables and between its lines; and the headings' (top, bottom)."""
    layout = document.documentLayout()
    cuts: list[Cut] = []
    headings: list[tuple[float, float]] = []
    for block in _blocks(document):
        if QTextCursor(block).currentTable() is not None:  # rows are cut between, in _table_cuts
            continue
        rect = layout.blockBoundingRect(block)
        cuts.append(Cut(rect.top(), rect.top()))
        lines = block.layout()
        cuts += [Cut(rect.top() + lines.lineAt(i).y(), rect.top() + lines.lineAt(i).y())
                 for i in range(1, lines.lineCount())]
        if block.blockFormat().headingLevel() > 0:
            headings.append((rect.top(), rect.bottom()))
    return cuts, headings


def _row_extent(document: QTextDocument, table: QTextTable, row: int) -> tuple[float, float]:
    """The top of the row's first lines and the bottom of its last lines, in document coordinates."""
    layout = document.documentLayout()
    tops, bottoms = [], []
    for column in range(table.columns()):
        cell = table.cellAt(row, column)
        tops.append(layout.blockBoundingRect(cell.firstCursorPosition().block()).top())
        bottoms.append(layout.blockBoundingRect(cell.lastCursorPosition().block()).bottom())
    return min(tops), max(bottoms)


def _border_room(document: QTextDocument) -> float:
    """Four CSS pixels in layout units: a collapsed cell border is drawn across the table's edge, half of it
    above the table's top, so a page ending right at the top would show a sliver of the next table."""
    device = document.documentLayout().paintDevice()
    return (device.logicalDpiY() if device is not None else 96) / 24


def _table_cuts(document: QTextDocument, table: QTextTable) -> list[Cut]:
    """Before the table, and between rows after the header row and the first row under it."""
    room = _border_room(document)
    frame_top = document.documentLayout().frameBoundingRect(table).top() - room
    extents = [_row_extent(document, table, row) for row in range(table.rows())]
    header_rows = max(0, min(table.format().headerRowCount(), table.rows() - 1))
    header = (frame_top, extents[header_rows][0]) if header_rows else None
    cuts = [Cut(frame_top, frame_top)]
    for row in range(header_rows + 1, table.rows()):
        above, below = extents[row - 1][1], extents[row][0]
        # The page ends just past the border between the rows (at the middle of the padding around it).
        cuts.append(Cut((above + below) / 2 + room / 4, above, header))
    return cuts


def safe_cuts(document: QTextDocument) -> list[Cut]:
    """Every place a page of the laid-out ``document`` may end, top to bottom."""
    cuts, headings = _block_cuts(document)
    for table in _tables(document.rootFrame()):
        cuts += _table_cuts(document, table)
    cuts.sort(key=lambda cut: cut.end)
    ends = [cut.end for cut in cuts]
    barred: set[float] = set()
    for top, bottom in headings:  # a heading stays with what follows it: no cut inside or just after it
        barred.update(end for end in ends[bisect_right(ends, top):bisect_left(ends, bottom)])
        following = bisect_left(ends, bottom)
        if following < len(ends):
            barred.add(ends[following])
    return [cut for cut in cuts if cut.end not in barred]


def paginate(document: QTextDocument, page_height: float) -> list[Page]:
    """Split the laid-out ``document`` into pages of at most ``page_height``, cutting only at safe cuts."""
    total = document.documentLayout().documentSize().height()
    cuts = safe_cuts(document)
    pages: list[Page] = []
    top, header = 0.0, None
    while top < total - 1:
        room = page_height - (header[1] - header[0] if header else 0.0)
        fitting = [cut for cut in cuts if top + 1 < cut.end <= top + room]
        if top + room >= total:
            pages.append(Page(top, total, header))
            break
        cut = fitting[-1] if fitting else Cut(top + room, top + room)  # a row taller than a page
        pages.append(Page(top, cut.end, header))
        top, header = (cut.end, cut.header) if cut.header else (cut.start, None)
    return pages or [Page(0.0, total)]


# --- painting --------------------------------------------------------------------------------------


def _header_height(device: QPagedPaintDevice) -> float:
    return HEADER_POINT_SIZE / 72 * device.logicalDpiY() * 2.2


def paper_palette() -> QPalette:
    """Black on white: paper is white whatever the window's theme (QTextDocument.drawContents would take the
    application's palette, and print the dark theme's light grey text on white paper)."""
    palette = QPalette(QColor("#ffffff"))
    for role in (QPalette.ColorRole.Text, QPalette.ColorRole.WindowText, QPalette.ColorRole.ButtonText):
        palette.setColor(role, QColor("#000000"))
    palette.setColor(QPalette.ColorRole.Base, QColor("#ffffff"))
    palette.setColor(QPalette.ColorRole.Link, QColor("#0072B2"))
    return palette


def draw_slice(painter: QPainter, document: QTextDocument, top: float, bottom: float, y: float,
               width: float) -> None:
    """Paint the document from ``top`` to ``bottom`` at height ``y`` of the page, black on white."""
    clip = QRectF(0, top, width, bottom - top)
    context = QAbstractTextDocumentLayout.PaintContext()
    context.palette = paper_palette()
    context.clip = clip
    painter.save()
    painter.translate(0, y - top)
    painter.setClipRect(clip)
    document.documentLayout().draw(painter, context)
    painter.restore()


def _draw_header(painter: QPainter, device: QPagedPaintDevice, title: str, number: int, count: int,
                 width: float) -> None:
    painter.save()
    font = document_font()
    font.setPointSizeF(HEADER_POINT_SIZE)
    painter.setFont(font)
    painter.setPen(HEADER_GREY)
    height = _header_height(device)
    line = QRectF(0, 0, width, height * 0.6)
    page = _("page {number} of {count}").format(number=number, count=count)
    painter.drawText(line, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                     _("Bojovka — {title}").format(title=title))
    painter.drawText(line, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, page)
    painter.drawLine(line.bottomLeft(), line.bottomRight())
    painter.restore()


def print_document(document: QTextDocument, device: QPagedPaintDevice, title: str) -> int:
    """Lay ``document`` out for ``device``'s pages, paint every page with its header; return the page count."""
    area = device.pageLayout().paintRectPixels(device.logicalDpiY())
    width, header = float(area.width()), _header_height(device)
    document.documentLayout().setPaintDevice(device)
    document.setPageSize(QSizeF(width, -1))
    document.setTextWidth(width)
    pages = paginate(document, area.height() - header)
    painter = QPainter()
    if not painter.begin(device):
        raise StorageError(_("Could not start printing (the printer or file refused)."))
    # Smooth scaling: the preview shrinks the track drawings, and nearest-pixel scaling drops their thin lines.
    painter.setRenderHints(QPainter.RenderHint.SmoothPixmapTransform | QPainter.RenderHint.Antialiasing)
    for number, page in enumerate(pages, start=1):
        if number > 1:
            device.newPage()
        _draw_header(painter, device, title, number, len(pages), width)
        y = header
        if page.header is not None:
            draw_slice(painter, document, page.header[0], page.header[1], y, width)
            y += page.header[1] - page.header[0]
        draw_slice(painter, document, page.top, page.bottom, y, width)
    painter.end()
    return len(pages)


def pdf_bytes(document: QTextDocument, title: str, paper: Paper) -> tuple[bytes, int]:
    """The document as a PDF on ``paper`` (its bytes and page count)."""
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = QPdfWriter(buffer)
    writer.setResolution(PDF_RESOLUTION)
    writer.setPageLayout(page_layout(paper))
    writer.setTitle(title)
    writer.setCreator("Bojovka")
    count = print_document(document, writer, title)  # ending the painter finishes the PDF
    buffer.close()
    return bytes(data.data()), count


def write_pdf(document: QTextDocument, title: str, paper: Paper, path: Path) -> int:
    """Write the document as a PDF file (atomically, like every file Bojovka writes); return the page count."""
    data, count = pdf_bytes(document, title, paper)
    atomic_write_bytes(path, data)
    return count
