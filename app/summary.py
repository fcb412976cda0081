"""The printable encounter summary: QTextDocuments built from :func:`rules.report.summarize`.

Everything is in the GM's language (``_``/``ngettext``), numbers and dates formatted by QLocale. Print it
with :func:`app.printing.print_document` (printer, preview) or :func:`app.printing.write_pdf`: as the parts of
:func:`summary_documents` (a long fight's log is longer than Qt lays out in one document, see
:mod:`app.print_parts`), or as the one document of :func:`summary_document`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Final

from PySide6.QtCore import QDate, QLocale, QUrl
from PySide6.QtGui import QFont, QImage, QTextDocument

from app.i18n import _, ngettext
from app.print_parts import Piece, Table, cell_rows, joined, parts
from app.printing import document_font
from app.track_drawing import install, summary_drawing
from rules.encounter import STATUS_LABELS, Status
from rules.history import History, LogLine
from rules.report import (
    NOTABLE_AT_MOST,
    Condition,
    LogGroup,
    Moment,
    Participant,
    Summary,
    heading_text,
    side_label,
    summarize,
)
from rules.systems import get_system

#: The printout's look: QTextDocument's CSS subset; grey rules and headings that survive a black-and-white printer.
STYLE: Final[str] = """
h1 { font-size: 16pt; margin-bottom: 0px; }
h2 { font-size: 11.5pt; margin-top: 14px; margin-bottom: 5px; }
p.meta { color: #444444; margin-top: 2px; margin-bottom: 6px; }
table { border-collapse: collapse; margin-bottom: 4px; }
th { background-color: #e6e6e6; font-weight: bold; text-align: left; }
td, th { border: 1px solid #9a9a9a; padding: 3px; vertical-align: top; }
.small { color: #444444; font-size: 7.5pt; }
.status { font-weight: bold; }
.chance { text-align: right; white-space: nowrap; }
.notes { white-space: pre-wrap; }
td.plain { border-style: none; padding: 1px 6px 1px 0px; vertical-align: middle; }
table.plain { margin: 0px; }
"""
#: Column widths (percent) of the participants table.
PARTICIPANT_COLUMNS: Final[tuple[int, ...]] = (14, 13, 26, 15, 15, 17)  # room for "Нанесенный", "Způsobené"
CHART: Final[str] = "chart:initiative"
#: How wide the initiative chart is shown, in CSS pixels (the width of an A4 or Letter text column).
CHART_WIDTH: Final[int] = 660


# --- shared with the prep sheet ------------------------------------------------------------------------


def new_document(title: str, font: QFont | None = None) -> QTextDocument:
    """An empty document with the printout's font, style and title."""
    document = QTextDocument()
    document.setDefaultFont(font or document_font())
    document.setDefaultStyleSheet(STYLE)
    document.setMetaInformation(QTextDocument.MetaInformation.DocumentTitle, title)
    return document


def fill(document: QTextDocument, body: str, images: Mapping[str, QImage] | None = None) -> QTextDocument:
    """Set the document's HTML, then the images it shows (a document forgets its images when given HTML) and
    the drawings of its condition tracks."""
    document.setHtml(f"<html><body>{body}</body></html>")
    for name, image in (images or {}).items():
        document.addResource(QTextDocument.ResourceType.ImageResource, QUrl(name), image)
    install(document)
    return document


def encounter_title(name: str) -> str:
    """The encounter's name, or a stand-in when it has none."""
    return name.strip() or _("Untitled encounter")


def date_text(date: QDate | None) -> str:
    """A date in the GM's locale, long form ("18 May 2026"); today when None."""
    return QLocale().toString(date or QDate.currentDate(), QLocale.FormatType.LongFormat)


def number(value: int) -> str:
    """A whole number in the GM's locale."""
    return QLocale().toString(value)


def nowrap(text: str) -> str:
    """Escaped ``text`` whose words stay on one line ("Physical 6/10" never splits after "Physical")."""
    return escape(text).replace(" ", "&nbsp;")


def condition_html(condition: Condition, *, drawn: bool = True, notes: bool = True) -> str:
    """Marked tracks (drawn, with their numbers), the status and, for the hurt or fallen, the game's notes
    (for the unhurt they are about the round, not the condition); "Unhurt" if nothing is marked."""
    parts = [f"{summary_drawing(track).tag() if drawn else ''} {nowrap(track.text())}"
             for track in condition.tracks if track.marked]
    status = _(STATUS_LABELS[condition.status])
    if condition.status is not Status.ACTIVE:
        parts.append(f'<span class="status">{escape(status)}</span>')
    shown = [note for note in condition.notes if note != status] if notes and parts else []
    if shown:
        parts.append(f'<span class="small">{escape(" · ".join(shown))}</span>')
    return "<br>".join(parts) if parts else escape(_("Unhurt"))


# --- the summary ---------------------------------------------------------------------------------------


def summary_document(history: History, *, date: QDate | None = None, chart_image: QImage | None = None,
                     font: QFont | None = None) -> QTextDocument:
    """The whole summary of the fight ``history`` records in one document (to read; print the parts)."""
    summary = summarize(history)
    document = new_document(encounter_title(summary.name), font)
    return fill(document, joined(_pieces(summary, date, chart_image)), _images(chart_image))


def summary_documents(history: History, *, date: QDate | None = None, chart_image: QImage | None = None,
                      font: QFont | None = None) -> list[QTextDocument]:
    """The summary in parts Qt can lay out, ready to print one after the other (one part for most fights)."""
    summary = summarize(history)
    return [fill(new_document(encounter_title(summary.name), font), body, _images(chart_image))
            for body in parts(_pieces(summary, date, chart_image))]


def _pieces(summary: Summary, date: QDate | None, chart_image: QImage | None) -> list[Piece]:
    return [_heading(summary, date), _participants(summary), _chart(chart_image), *_moments(summary),
            *_log(summary.log), _notes(summary.notes)]


def _images(chart_image: QImage | None) -> dict[str, QImage] | None:
    return {CHART: chart_image} if chart_image is not None else None


def fight_length(summary: Summary) -> str:
    """ "3 rounds · 12 initiative passes · 53 turns" in the game's words (passes only in a game that has them,
    where a round had more than one)."""
    units = summary.units
    parts = [_counted(units.rounds.singular, units.rounds.plural, summary.rounds)]
    if units.passes is not None and summary.passes > summary.rounds:
        parts.append(_counted(units.passes.counted.singular, units.passes.counted.plural, summary.passes))
    parts.append(ngettext("{count} turn", "{count} turns", summary.turns).format(count=number(summary.turns)))
    return " · ".join(parts)


def _counted(singular: str, plural: str, count: int) -> str:
    """A count of a game's unit (English sources from its TimeUnits) with the number in the GM's locale."""
    return ngettext(singular, plural, count).format(count=number(count))


def _heading(summary: Summary, date: QDate | None) -> str:
    game = _(get_system(summary.system_id).title)
    meta = " · ".join((game, date_text(date), fight_length(summary)))
    return (f"<h1>{escape(encounter_title(summary.name))}</h1>"
            f'<p class="meta">{escape(_("Encounter summary"))} · {escape(meta)}</p>')


def _participants(summary: Summary) -> Table:
    titles = (_("Combatant"), _("At the start"), _("At the end"), _("Damage dealt"), _("Damage taken"),
              _("Out of the fight"))
    head = "".join(f'<th width="{width}%">{escape(title)}</th>'
                   for title, width in zip(titles, PARTICIPANT_COLUMNS, strict=True))
    return Table(f'<table width="100%"><thead><tr>{head}</tr></thead>',
                 [_participant_row(participant) for participant in summary.participants],
                 before=f"<h2>{escape(_('Who fought'))}</h2>")


def _participant_row(participant: Participant) -> str:
    about = [side_label(participant.side)] + ([_("left the fight")] if participant.left else [])
    who = f'<b>{escape(participant.name)}</b><br><span class="small">{"<br>".join(map(escape, about))}</span>'
    cells = (who,
             condition_html(participant.start, drawn=participant.start.hurt, notes=False),
             condition_html(participant.end),
             _harm(participant.dealt), _harm(participant.taken),
             "<br>".join(escape(fall.text()) for fall in participant.falls) or "–")
    return "<tr>" + "".join(f"<td>{cell}</td>" for cell in cells) + "</tr>"


def _harm(harm: Mapping[str, int]) -> str:
    if not harm:
        return "–"
    return "<br>".join(escape(_("{track} {amount}").format(track=_(label), amount=number(amount)))
                       for label, amount in harm.items())


def _chart(chart_image: QImage | None) -> str:
    """The initiative-pass chart.

    The ui layer draws it (``ui.printing.summary_chart``); without an image the section is left out rather
    than printed empty.
    """
    if chart_image is None or chart_image.isNull():
        return ""
    width = min(CHART_WIDTH, chart_image.width())
    height = round(chart_image.height() * width / chart_image.width())
    tag = f'<img src="{CHART}" width="{width}" height="{height}">'
    # Passes where the game has them, the order of play elsewhere: the chart's own title says which.
    return f"<h2>{escape(_('Initiative chart'))}</h2><p>{tag}</p>"


def chance_text(probability: float) -> str:
    """A probability as a percentage in the GM's locale, with "1 in N" when it is below 1 %."""
    locale, percent = QLocale(), probability * 100
    if percent >= 9.5:
        shown = locale.toString(percent, "f", 0)
    elif percent >= 0.95:
        shown = locale.toString(percent, "f", 1)
    else:
        shown = locale.toString(max(percent, 0.01), "f", 2)
    text = _("{percent} %").format(percent=shown)
    if 0 < probability < 0.01:
        text += " " + _("(about 1 in {count})").format(count=number(round(1 / probability)))
    return text


def _moments(summary: Summary) -> list[Piece]:
    moments: tuple[Moment, ...] = summary.moments
    title = f"<h2>{escape(_('Notable moments'))}</h2>"
    if not moments:
        calm = _("Nothing unlikely happened: every roll's result had a chance of more than {chance}.")
        return [f"{title}<p>{escape(calm.format(chance=chance_text(NOTABLE_AT_MOST)))}</p>"]
    head = (f'<th width="22%">{escape(_("When"))}</th><th>{escape(_("What happened"))}</th>'
            f'<th width="15%">{escape(_("Chance of a result this extreme"))}</th>')
    rows = [f"<tr><td>{escape(heading_text(m.round, m.pass_no, summary.units))}</td><td>{_lines(m.log)}</td>"
            f'<td class="chance">{escape(chance_text(m.probability))}</td></tr>' for m in moments]
    return [Table(f'<table width="100%"><thead><tr>{head}</tr></thead>', rows, before=title)]


def _lines(lines: Sequence[LogLine]) -> str:
    return "<br>".join(escape(line.render()) for line in lines)


def _log(groups: tuple[LogGroup, ...]) -> list[Piece]:
    title = f"<h2>{escape(_('Round by round'))}</h2>"
    if not groups:
        return [title]
    return [Table(f'<table width="100%"><thead><tr><th>{escape(group.heading())}</th></tr></thead>',
                  [row for entry in group.entries for row in _entry_rows(entry)], before="" if index else title)
            for index, group in enumerate(groups)]


def _entry_rows(entry: tuple[LogLine, ...]) -> list[str]:
    return cell_rows([escape(line.render()) for line in entry])


def _notes(notes: str) -> str:
    if not notes.strip():
        return ""
    return f"<h2>{escape(_('GM notes'))}</h2><p class=\"notes\">{escape(notes)}</p>"
