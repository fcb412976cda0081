"""Printing a QTextDocument on pages: paper sizes, page breaks that never split a table row, headers, PDF.

Qt's own pagination (``QTextDocument.setPageSize``) moves a line that does not fit to the next page, so a table
row whose cells wrap to several lines can start on one page and end on the next. Here the document is laid out
once without pages and cut only where a cut is safe: between two lines of a paragraph, before a block or a
table, or between two table rows; never right after a heading (it stays with what follows), never between a
table's header row and its first row. A page that breaks inside a table starts with the table's header row
again. Only a single row taller than a whole page is cut where the page ends.

A long printout comes in parts (:mod:`app.print_parts`: Qt lays no document out past 8,388,607 device pixels):
the parts are laid out one after the other and paged through as one flow, every step linear in its length.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
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
#: How far into a slice a line must reach to be drawn in it, in device pixels (see draw_slice).
EDGE: Final[float] = 0.5
#: The tallest part laid out, in device pixels: half of what Qt's text layout can hold (``QFIXED_MAX``).
SAFE_HEIGHT: Final[float] = 8_388_607 / 2

#: One document, or the parts of a long printout in order.
Printable = QTextDocument | Sequence[QTextDocument]


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


def _outside_tables(document: QTextDocument) -> Iterator[QTextBlock]:
    """The blocks that are in no table, in order (one walk beside the tables' spans, however many tables)."""
    spans = iter([(table.firstPosition(), table.lastPosition()) for table in _tables(document.rootFrame())])
    span = next(spans, None)
    for block in _blocks(document):
        while span is not None and span[1] < block.position():
            span = next(spans, None)
        if span is None or block.position() < span[0]:
            yield block


def _block_cuts(document: QTextDocument) -> tuple[list[Cut], list[tuple[float, float]]]:
    """Cuts before each block outside tables and between its lines; and the headings' (top, bottom)."""
    layout = document.documentLayout()
    cuts: list[Cut] = []
    headings: list[tuple[float, float]] = []
    for block in _outside_tables(document):  # rows are cut between, in _table_cuts
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


@dataclass(frozen=True)
class Placed:
    """A laid-out part of a printout and where its flow starts (``top``, the parts before it stacked above)."""

    document: QTextDocument
    top: float
    height: float


def _parts(printable: Printable) -> list[QTextDocument]:
    return [printable] if isinstance(printable, QTextDocument) else list(printable)


def stacked(printable: Printable) -> list[Placed]:
    """The laid-out parts one after the other (StorageError if one is too tall for Qt to lay out)."""
    placed, top = [], 0.0
    for document in _parts(printable):
        height = document.documentLayout().documentSize().height()
        if height >= SAFE_HEIGHT:  # past Qt's layout the tables have no place: asking for it crashed
            raise StorageError(_("The printout is too long to lay out for this printer."))
        placed.append(Placed(document, top, height))
        top += height
    return placed


def _shifted(cut: Cut, by: float) -> Cut:
    header = (cut.header[0] + by, cut.header[1] + by) if cut.header else None
    return replace(cut, end=cut.end + by, start=cut.start + by, header=header)


def paginate(printable: Printable, page_height: float) -> list[Page]:
    """Split the laid-out printable into pages of at most ``page_height``, cutting only at safe cuts."""
    parts = stacked(printable)
    total = parts[-1].top + parts[-1].height if parts else 0.0
    cuts = [_shifted(cut, part.top) for part in parts for cut in safe_cuts(part.document)]
    ends = [cut.end for cut in cuts]  # in order: each part's cuts are sorted, and the parts follow each other
    pages: list[Page] = []
    top, header = 0.0, None
    while top < total - 1:
        room = page_height - (header[1] - header[0] if header else 0.0)
        if top + room >= total:
            pages.append(Page(top, total, header))
            break
        last = bisect_right(ends, top + room) - 1  # the last cut that fits, if it is past the page's top
        cut = cuts[last] if last >= 0 and ends[last] > top + 1 else Cut(top + room, top + room)  # a row taller
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


def _draw_flow(painter: QPainter, parts: Sequence[Placed], top: float, bottom: float, y: float,
               width: float) -> None:
    """Paint the flow from ``top`` to ``bottom`` at height ``y`` of the page: each part's share of it."""
    for part in parts:
        start, end = max(top, part.top), min(bottom, part.top + part.height)
        if start < end:
            draw_slice(painter, part.document, start - part.top, end - part.top, y + start - top, width)


def draw_slice(painter: QPainter, document: QTextDocument, top: float, bottom: float, y: float,
               width: float) -> None:
    """Paint the document from ``top`` to ``bottom`` at height ``y`` of the page, black on white."""
    clip = QRectF(0, top, width, bottom - top)
    context = QAbstractTextDocumentLayout.PaintContext()
    context.palette = paper_palette()
    # Lines that only touch the slice's edges are not drawn at all: clipped away, their text still went into the
    # PDF, where copying or searching the page met it (the row under a repeated header touches the header's slice).
    context.clip = clip.adjusted(0, EDGE, 0, -EDGE)
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


def _butt(document: QTextDocument, after: bool, before: bool) -> None:
    """No margin of its own where a part meets the next one: the flow goes on as if it were one document. (Qt lays
    a document's first block out at its top, without the block's own top margin: the frame keeps it instead.)"""
    frame = document.rootFrame().frameFormat()
    if after:
        frame.setTopMargin(document.begin().blockFormat().topMargin())
    if before:
        frame.setBottomMargin(0)
    document.rootFrame().setFrameFormat(frame)


def print_document(printable: Printable, device: QPagedPaintDevice, title: str) -> int:
    """Lay ``printable`` out for ``device``'s pages, paint every page with its header; return the page count."""
    area = device.pageLayout().paintRectPixels(device.logicalDpiY())
    width, header = float(area.width()), _header_height(device)
    documents = _parts(printable)
    for index, document in enumerate(documents):
        _butt(document, index > 0, index < len(documents) - 1)
        document.documentLayout().setPaintDevice(device)
        document.setPageSize(QSizeF(width, -1))
        document.setTextWidth(width)
    parts = stacked(printable)
    pages = paginate(printable, area.height() - header)
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
            _draw_flow(painter, parts, page.header[0], page.header[1], y, width)
            y += page.header[1] - page.header[0]
        _draw_flow(painter, parts, page.top, page.bottom, y, width)
    painter.end()
    return len(pages)


def pdf_bytes(document: Printable, title: str, paper: Paper) -> tuple[bytes, int]:
    """The document (or the parts of one) as a PDF on ``paper`` (its bytes and page count)."""
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


def write_pdf(document: Printable, title: str, paper: Paper, path: Path) -> int:
    """Write the document as a PDF file (atomically, like every file Bojovka writes); return the page count."""
    data, count = pdf_bytes(document, title, paper)
    atomic_write_bytes(path, data)
    return count
