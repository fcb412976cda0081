"""A printout's HTML in parts of bounded length, which :mod:`app.printing` lays out one after the other and pages
through as one flow.

Qt lays a QTextDocument out in fixed-point units that end at 8,388,607 device pixels (``QFIXED_MAX`` in Qt's
qtextdocumentlayout.cpp). The summary of a fight of 50,000 operations is taller than that at a PDF's 300 dpi (a
fourth of it at a printer's 1,200): everything past the end was left without a layout, and asking where its
tables were crashed the process. So a printout is made of pieces (HTML, and tables that may be split between
rows), packed into parts of at most :data:`PART_LINES` printed lines each; a table split between two parts
starts the second one with its header row again, as a page that breaks inside a table does.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Final

#: Printed lines in one part, at most (about 170,000 pixels at 300 dpi, 700,000 at 1,200: far from the limit).
PART_LINES: Final[int] = 3_000
#: Characters a printed line is counted to hold (a narrow table cell holds about this many; most hold more).
CHARS_PER_LINE: Final[int] = 60


def printed_lines(html: str) -> int:
    """How many lines ``html`` prints to, counted on the safe side (markup counts as text)."""
    return 1 + html.count("<br") + html.count("<tr") + len(html) // CHARS_PER_LINE


@dataclass(frozen=True)
class Table:
    """A table that may be split between rows: ``before`` it (a heading that stays with it), its opening tag and
    header row (``head``, shown again where it continues in the next part), then its rows."""

    head: str
    rows: Sequence[str]
    before: str = ""

    def html(self) -> str:
        """The whole table as one piece of HTML."""
        return self.before + self.head + "".join(self.rows) + "</table>"


Piece = str | Table


def joined(pieces: Sequence[Piece]) -> str:
    """Every piece in one HTML body."""
    return "".join(piece if isinstance(piece, str) else piece.html() for piece in pieces)


def cell_rows(lines: Sequence[str]) -> list[str]:
    """Table rows of one cell holding ``lines`` (HTML) one under another: one row, or several where the lines are
    too long for one part (an entry of 1,000 long log lines in a hostile file)."""
    rows: list[list[str]] = [[]]
    used = 0
    for line in lines:
        if rows[-1] and used + printed_lines(line) > PART_LINES // 2:
            rows.append([])
            used = 0
        rows[-1].append(line)
        used += printed_lines(line)
    return [f"<tr><td>{'<br>'.join(chunk)}</td></tr>" for chunk in rows]


def parts(pieces: Sequence[Piece]) -> list[str]:
    """The pieces packed into HTML bodies of at most :data:`PART_LINES` printed lines each (a single piece or row
    that is longer makes a part of its own)."""
    packer = _Packer(PART_LINES)
    for piece in pieces:
        if isinstance(piece, str):
            packer.add(piece)
        else:
            packer.add_table(piece)
    return list(packer.finished())


class _Packer:
    """Fills parts in order; a table goes row by row, closed at the end of a part and opened again in the next."""

    def __init__(self, budget: int) -> None:
        self._budget = budget
        self._done: list[str] = []
        self._current: list[str] = []
        self._used = 0

    def add(self, html: str) -> None:
        lines = printed_lines(html)
        if self._used and self._used + lines > self._budget:
            self._next_part()
        self._current.append(html)
        self._used += lines

    def add_table(self, table: Table) -> None:
        whole = printed_lines(table.html())
        if self._used and self._used + whole > self._budget >= whole:
            self._next_part()  # a table that fits a part is not split: it starts the next one
        # The heading, the header row and the first row stay together: never a heading at the end of a part.
        self.add(table.before + table.head + "".join(table.rows[:1]))
        for row in table.rows[1:]:
            lines = printed_lines(row)
            if self._used + lines > self._budget:
                self._current.append("</table>")
                self._next_part()
                self._current.append(table.head)
                self._used = printed_lines(table.head)
            self._current.append(row)
            self._used += lines
        self._current.append("</table>")

    def _next_part(self) -> None:
        self._done.append("".join(self._current))
        self._current, self._used = [], 0

    def finished(self) -> Iterator[str]:
        yield from self._done
        if self._current or not self._done:
            yield "".join(self._current)
