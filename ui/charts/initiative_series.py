"""What the initiative chart draws, as plain numbers: no Qt here, so the layout is tested without a screen.

Rows (lanes) are combatants, top first. Columns are grouped in bands:

* pass-based games (SR3): one band per initiative pass of the shown turn; inside a band x runs down the
  phases like a countdown (the highest score on the left, phase 0, "the end of the pass", on the right),
  one x unit per phase, so the seed's ``37 → 27 → 17 → 7`` reads as a mark in each pass band;
* round-based games: one band per round; inside a band one column per slot of the order, so a simultaneous
  group (Souboj's tie, Walka's seat) is one column, captioned with its score or seat.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from app.i18n import _
from rules.timeline import Mark, MarkKind, TurnTimeline

#: Empty x units between two bands.
BAND_GAP: Final[float] = 3.0
ROUND_GAP: Final[float] = 1.5
#: Above this many lanes the phase numbers beside the marks would only be clutter.
LABEL_LANES: Final[int] = 40
#: Score steps sit in the lower part of their lane, clear of the combatant's own marks.
STEP_OFFSET: Final[float] = 0.3
#: Marks that stand for a turn (as opposed to a ghost of one).
TURN_KINDS: Final[tuple[MarkKind, ...]] = (MarkKind.ACTED, MarkKind.SCHEDULED, MarkKind.DELAYED, MarkKind.TAKEN)

Points = tuple[tuple[float, ...], tuple[float, ...]]
EMPTY: Final[Points] = ((), ())


@dataclass(frozen=True)
class Band:
    """A group of columns: one pass of the shown turn, or one round; ``ticks`` label its columns."""

    title: str
    left: float
    right: float
    ticks: tuple[tuple[float, str], ...]

    @property
    def centre(self) -> float:
        """Where the band's title goes."""
        return (self.left + self.right) / 2


@dataclass(frozen=True)
class Label:
    """A short text at a point of the chart (a phase number, a score step)."""

    x: float
    y: float
    text: str


@dataclass(frozen=True)
class ChartSeries:
    """Everything the chart draws, in chart coordinates (lane i is at y = i, the first lane on top)."""

    title: str
    passes: bool = False  # bands are the passes of one turn (else rounds)
    lanes: tuple[str, ...] = ()
    lane_names: tuple[str, ...] = ()
    points: Mapping[MarkKind, Points] = field(default_factory=dict)
    delay_links: Points = EMPTY  # pairs of points: held → taken
    shift_links: Points = EMPTY  # pairs: where the roll put a turn → where it is now
    group_links: Points = EMPTY  # pairs: the top and bottom member of a simultaneous group
    steps: Points = EMPTY
    labels: tuple[Label, ...] = ()
    bands: tuple[Band, ...] = ()
    now_x: float | None = None
    now_points: Points = EMPTY

    @property
    def empty(self) -> bool:
        """True before the first initiative roll."""
        return not self.bands

    def x_range(self) -> tuple[float, float]:
        """Left and right edge of everything drawn."""
        if not self.bands:
            return (0.0, 1.0)
        return (self.bands[0].left - 1.0, self.bands[-1].right + 1.0)


def _pairs(segments: Sequence[tuple[float, float, float, float]]) -> Points:
    xs = tuple(value for x0, _y0, x1, _y1 in segments for value in (x0, x1))
    ys = tuple(value for _x0, y0, _x1, y1 in segments for value in (y0, y1))
    return (xs, ys)


def _points(marks: Sequence[tuple[float, float]]) -> Points:
    return (tuple(x for x, _y in marks), tuple(y for _x, y in marks))


# --- pass-based: one turn, its passes as bands ----------------------------------------------------


class _PassGeometry:
    """x of a (pass, phase): bands side by side, each counting down from its highest phase to 0."""

    def __init__(self, turn: TurnTimeline) -> None:
        tops: dict[int, int] = dict.fromkeys(range(1, turn.passes + 1), 1)
        for mark in turn.marks:
            tops[mark.pass_no] = max(tops.get(mark.pass_no, 1), mark.phase or 0)
        for step in turn.steps:
            tops[step.pass_no] = max(tops.get(step.pass_no, 1), step.at_phase or 0, step.before)
        self.tops = dict(sorted(tops.items()))
        self.left: dict[int, float] = {}
        start = 0.0
        for pass_no, top in self.tops.items():
            self.left[pass_no] = start
            start += top + BAND_GAP

    def x(self, pass_no: int, phase: int | None) -> float:
        return self.left[pass_no] + self.tops[pass_no] - (phase or 0)

    def bands(self) -> tuple[Band, ...]:
        return tuple(Band(_("Pass {number}").format(number=pass_no), self.left[pass_no],
                          self.left[pass_no] + top, self._ticks(pass_no, top))
                     for pass_no, top in self.tops.items())

    def _ticks(self, pass_no: int, top: int) -> tuple[tuple[float, str], ...]:
        every = 5 if top <= 30 else 10
        phases = [phase for phase in range(top, 0, -1) if phase % every == 0 or phase == top]
        if len(phases) > 1 and phases[0] - phases[1] < every / 2:
            phases.pop(1)  # the highest phase is labelled; a round number right beside it would overlap it
        return tuple((self.x(pass_no, phase), str(phase)) for phase in phases)


def pass_series(turn: TurnTimeline) -> ChartSeries:
    """The chart of one turn of a pass-based game."""
    geometry = _PassGeometry(turn)
    lanes = turn.lanes
    row = {combatant: index for index, combatant in enumerate(lanes)}

    def at(mark: Mark) -> tuple[float, float]:
        return geometry.x(mark.pass_no, mark.phase), float(row[mark.combatant])

    points = {kind: _points([at(m) for m in turn.marks if m.kind is kind]) for kind in MarkKind}
    turns = {(m.combatant, m.pass_no): m for m in turn.marks if m.kind in TURN_KINDS[:3]}
    shifts = [(*at(m), *at(turns[(m.combatant, m.pass_no)])) for m in turn.marks
              if m.kind is MarkKind.PLANNED and (m.combatant, m.pass_no) in turns]
    delays = [(*at(link.held), *at(link.taken)) for link in turn.links]
    steps = [(geometry.x(s.pass_no, s.at_phase if s.at_phase is not None else s.before),
              row[s.combatant] + STEP_OFFSET, s) for s in turn.steps if s.combatant in row]
    labels = [Label(x, y, _step_text(step.before, step.after)) for x, y, step in steps]
    if len(lanes) <= LABEL_LANES:
        labels += [Label(*at(m), str(m.phase)) for m in turn.marks if m.kind in TURN_KINDS and m.phase]
    now = turn.now
    now_x = geometry.x(now.pass_no, now.phase) if now is not None else None
    return ChartSeries(
        _("Round {number}: initiative passes").format(number=turn.round), True, lanes,
        tuple(turn.names[i] for i in lanes), points, _pairs(delays), _pairs(shifts), EMPTY,
        _points([(x, y) for x, y, _step in steps]), tuple(labels), geometry.bands(), now_x,
        _points([(now_x, float(row[i])) for i in now.ids if i in row]) if now is not None and now_x is not None
        else EMPTY)


def _step_text(before: int, after: int | None) -> str:
    """The change with a real minus (``−2``), or ``✕`` when it took the turn in this pass away."""
    if after is None:
        return "✕"
    change = after - before
    return f"−{-change}" if change < 0 else f"+{change}"


# --- round-based: a few rounds, their order as columns ---------------------------------------------


def _lanes(turns: Sequence[TurnTimeline]) -> tuple[tuple[str, ...], dict[str, str]]:
    """Everyone in any of the rounds, in roster order (stable from round to round, unlike the order)."""
    lanes: dict[str, None] = {}
    names: dict[str, str] = {}
    for turn in turns:
        lanes.update(dict.fromkeys(turn.roster))
        names.update(turn.names)
    return tuple(lanes), names


def round_series(turns: Sequence[TurnTimeline]) -> ChartSeries:
    """The chart of consecutive rounds of a round-based game (oldest first)."""
    lanes, names = _lanes(turns)
    row = {combatant: index for index, combatant in enumerate(lanes)}
    marks: dict[MarkKind, list[tuple[float, float]]] = {kind: [] for kind in MarkKind}
    bands, delays, groups = [], [], []
    now_x: float | None = None
    now_points: list[tuple[float, float]] = []
    left = 0.0
    for turn in turns:
        columns = max(turn.slots.values(), default=1)
        members: dict[int, list[float]] = {}
        for mark in turn.marks:
            marks[mark.kind].append((left + mark.slot, float(row[mark.combatant])))
            if mark.kind in TURN_KINDS:
                members.setdefault(mark.slot, []).append(float(row[mark.combatant]))
        groups += [(left + slot, min(ys), left + slot, max(ys)) for slot, ys in members.items() if len(ys) > 1]
        delays += [(left + link.held.slot, float(row[link.held.combatant]), left + link.taken.slot,
                    float(row[link.taken.combatant])) for link in turn.links]
        bands.append(Band(_("Round {number}").format(number=turn.round), left, left + columns - 1,
                          _column_ticks(turn, left, columns)))
        if turn.now is not None and turn.now.slot is not None:
            now_x = left + turn.now.slot
            now_points = [(now_x, float(row[i])) for i in turn.now.ids if i in row]
        left += columns - 1 + ROUND_GAP + 1
    first, last = turns[0].round, turns[-1].round
    title = (_("Round {number}: order of play").format(number=last) if first == last
             else _("Rounds {first}–{last}: order of play").format(first=first, last=last))
    return ChartSeries(title, False, lanes, tuple(names.get(i, i) for i in lanes),
                       {kind: _points(found) for kind, found in marks.items()}, _pairs(delays), EMPTY,
                       _pairs(groups), EMPTY, (), tuple(bands), now_x, _points(now_points))


def _column_ticks(turn: TurnTimeline, left: float, columns: int) -> tuple[tuple[float, str], ...]:
    """Each column's caption (the seat, the shared score), or its place in the order."""
    captions: dict[int, str] = {}
    for mark in turn.marks:
        if mark.caption and mark.kind in TURN_KINDS:
            captions.setdefault(mark.slot, mark.caption)
    return tuple((left + slot, captions.get(slot, str(slot + 1))) for slot in range(columns))


def series_for(turns: Sequence[TurnTimeline]) -> ChartSeries:
    """Pass-based: the last turn given; round-based: every round given. Nothing given: an empty chart."""
    if not turns:
        return ChartSeries(_("Roll initiative to see the chart."))
    if turns[-1].has_passes:
        return pass_series(turns[-1])
    return round_series(turns)
