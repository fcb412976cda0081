"""The prep sheet: every combatant's stat line, pools, initiative, gear and empty condition tracks, to print
before the fight and fill in by hand at the table. Built from :func:`rules.report.prep_rows`.
"""

from __future__ import annotations

from html import escape
from typing import Final

from PySide6.QtCore import QDate
from PySide6.QtGui import QFont, QTextDocument

from app.i18n import N_, _
from app.summary import date_text, encounter_title, fill, new_document, nowrap
from app.track_drawing import blank_drawing
from rules.encounter import Encounter, Side
from rules.report import PrepRow, pool_label, prep_rows
from rules.systems import get_system

#: Section headings, one per side (English sources, translated when shown).
SIDE_HEADINGS: Final[dict[Side, str]] = {Side.PLAYER: N_("Player characters"), Side.ALLY: N_("Allies"),
                                         Side.OPPONENT: N_("Opponents")}
COLUMNS: Final[tuple[int, ...]] = (21, 34, 45)


def prep_sheet_document(encounter: Encounter, *, date: QDate | None = None,
                        font: QFont | None = None) -> QTextDocument:
    """The prep sheet of ``encounter``'s combatants as they stand now."""
    system = get_system(encounter.system_id)
    title = encounter_title(encounter.name)
    document = new_document(title, font)
    rows = prep_rows(encounter, system)
    meta = " · ".join((_("Prep sheet"), _(system.title), date_text(date)))
    body = f"<h1>{escape(title)}</h1><p class=\"meta\">{escape(meta)}</p>"
    for side in system.default_side_order():
        chosen = [row for row in rows if row.side is side]
        if chosen:
            body += _side_table(side, chosen)
    if not rows:
        body += "<p>" + escape(_("Nobody has joined this encounter yet.")) + "</p>"
    return fill(document, body)


def _side_table(side: Side, rows: list[PrepRow]) -> str:
    titles = (_("Combatant"), _("Numbers and gear"), _("Condition (mark it at the table)"))
    head = "".join(f'<th width="{width}%">{escape(title)}</th>' for title, width in zip(titles, COLUMNS, strict=True))
    body = "".join(_row(row) for row in rows)
    return (f"<h2>{escape(_(SIDE_HEADINGS[side]))}</h2>"
            f'<table width="100%"><thead><tr>{head}</tr></thead>{body}</table>')


def _row(row: PrepRow) -> str:
    return f"<tr><td>{_who(row)}</td><td>{_numbers(row)}</td><td>{_tracks(row)}</td></tr>"


def _who(row: PrepRow) -> str:
    lines = [f"<b>{escape(row.name)}</b>"]
    if row.group:
        lines.append(f'<span class="small">{escape(_("Group: {group}").format(group=row.group))}</span>')
    if row.seat:
        lines.append(f'<span class="small">{escape(_("Seat: {seat}").format(seat=row.seat))}</span>')
    lines.append(escape(_("Initiative: {dice}").format(dice=row.initiative)))
    lines.append(f'<span class="small">{escape(_("Rolled each round:"))}</span>')
    lines.append("____ ____ ____ ____")
    return "<br>".join(lines)


def _numbers(row: PrepRow) -> str:
    stats = " · ".join(nowrap(stat.text()) for stat in row.stats)
    lines = [stats]
    if row.pools:
        pools = ", ".join(_("{pool} {size}").format(pool=pool_label(key), size=size) for key, size in row.pools)
        lines.append(escape(_("Pools: {pools}").format(pools=pools)))
    if row.weapons:
        lines.append(escape(_("Weapons: {weapons}").format(weapons="; ".join(row.weapons))))
    if row.notes.strip():
        lines.append(f'<i>{escape(row.notes.strip()).replace(chr(10), "<br>")}</i>')
    return "<br>".join(lines)


def _tracks(row: PrepRow) -> str:
    """Each track's name beside its empty boxes (a line to write on when the track is too long to draw)."""
    lines = []
    for track in row.tracks:
        blank = blank_drawing(track)
        drawing = blank.tag() if blank is not None else f"______ / {track.size}"
        label = nowrap(_("{track} ({size})").format(track=_(track.label), size=track.size))
        lines.append(f'<tr><td class="plain">{label}</td><td class="plain">{drawing}</td></tr>')
    now = ""
    if row.now is not None:
        now = f'<span class="small">{escape(_("Now: {condition}").format(condition=row.now.text()))}</span>'
    return f'<table class="plain" width="100%">{"".join(lines)}</table>{now}'
