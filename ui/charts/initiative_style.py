"""Colours and marker shapes of the initiative chart, for the light and the dark theme.

Colours are from the Okabe–Ito palette (told apart with every common colour-vision deficiency), picked per
theme for at least 3:1 contrast with the background (WCAG's bar for graphics); every kind of mark also has
its own shape or fill, so colour is never the only cue.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from PySide6.QtGui import QColor, QPalette

from app.i18n import N_
from rules.timeline import MarkKind

OKABE_ITO: Final[dict[str, str]] = {
    "black": "#000000", "orange": "#E69F00", "sky_blue": "#56B4E9", "bluish_green": "#009E73",
    "yellow": "#F0E442", "blue": "#0072B2", "vermillion": "#D55E00", "reddish_purple": "#CC79A7",
}


@dataclass(frozen=True)
class MarkStyle:
    """How one kind of mark is drawn: pyqtgraph symbol name, size in pixels, filled or hollow."""

    symbol: str
    size: int
    filled: bool
    legend: str  # English source, translated when shown


MARK_STYLES: Final[dict[MarkKind, MarkStyle]] = {
    MarkKind.ACTED: MarkStyle("o", 12, True, N_("acted")),
    MarkKind.SCHEDULED: MarkStyle("o", 12, False, N_("still to come")),
    MarkKind.DELAYED: MarkStyle("s", 12, False, N_("delayed (action held)")),
    MarkKind.TAKEN: MarkStyle("d", 14, True, N_("delayed action taken")),
    MarkKind.PLANNED: MarkStyle("o", 9, False, N_("as rolled, before a change")),
}
STEP_STYLE: Final[MarkStyle] = MarkStyle("t", 13, True, N_("score change (wound)"))
NOW_STYLE: Final[MarkStyle] = MarkStyle("o", 22, False, N_("acting now"))
GROUP_LEGEND: Final[str] = N_("acting together (one score or seat)")


@dataclass(frozen=True)
class ChartColors:
    """Every colour the chart uses in one theme."""

    dark: bool
    background: str
    text: str
    lane: str  # every other lane's stripe
    band: str  # a pass's or round's background
    turn: str  # acted and still to come
    delay: str  # held and taken, and the line between them
    wound: str  # score steps and the line from the rolled place to the new one
    ghost: str  # where the roll had put a turn
    group: str  # the bar joining a simultaneous group
    now: str  # the line and ring at the slot being played

    def mark(self, kind: MarkKind) -> str:
        """The colour of a kind of mark."""
        if kind in (MarkKind.DELAYED, MarkKind.TAKEN):
            return self.delay
        return self.ghost if kind is MarkKind.PLANNED else self.turn


LIGHT: Final[ChartColors] = ChartColors(
    dark=False, background="#ffffff", text="#1a1a1a", lane="#f1f3f5", band="#e4ecf4",
    turn=OKABE_ITO["blue"], delay=OKABE_ITO["reddish_purple"], wound=OKABE_ITO["vermillion"],
    ghost="#767676", group=OKABE_ITO["bluish_green"], now=OKABE_ITO["black"])
DARK: Final[ChartColors] = ChartColors(
    dark=True, background="#1f2023", text="#e6e6e6", lane="#27292d", band="#2c3440",
    turn=OKABE_ITO["sky_blue"], delay=OKABE_ITO["reddish_purple"], wound=OKABE_ITO["vermillion"],
    ghost="#9a9a9a", group=OKABE_ITO["bluish_green"], now=OKABE_ITO["yellow"])


def is_dark(palette: QPalette) -> bool:
    """Whether a palette is a dark theme (its window colour is dark)."""
    return palette.color(QPalette.ColorRole.Window).lightness() < 128


def colors_for(palette: QPalette) -> ChartColors:
    """The chart's colours for the theme a palette belongs to (the chart keeps its own background)."""
    return DARK if is_dark(palette) else LIGHT


def qcolor(value: str, alpha: int = 255) -> QColor:
    """A QColor from ``#rrggbb`` with an alpha."""
    color = QColor(value)
    color.setAlpha(alpha)
    return color
