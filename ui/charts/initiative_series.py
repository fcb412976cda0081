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
from rules.time_units import PassWords, TimeUnits
from rules.timeline import Mark, MarkKind, TurnTimeline

#: Empty x units between two bands.
BAND_GAP: Final[float] = 3.0
ROUND_GAP: Final[float] = 1.5
#: Above this many lanes the phase numbers beside the marks would only be clutter.
LABEL_LANES: Final[int] = 40
#: How far above its lane (in lanes) a held action's place at the end of a pass is written.
END_LABEL_RISE: Final[float] = 0.3
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


Segment = tuple[float, float, float, float]


def _pairs(segments: Sequence[Segment]) -> Points:
    xs = tuple(value for x0, _y0, x1, _y1 in segments for value in (x0, x1))
    ys = tuple(value for _x0, y0, _x1, y1 in segments for value in (y0, y1))
    return (xs, ys)


def _points(marks: Sequence[tuple[float, float]]) -> Points:
    return (tuple(x for x, _y in marks), tuple(y for _x, y in marks))


@dataclass
class _Drawing:
    """Points, segments and labels collected for one series; lanes fix each combatant's row."""

    lanes: tuple[str, ...]
    points: dict[MarkKind, list[tuple[float, float]]] = field(
        default_factory=lambda: {kind: [] for kind in MarkKind})
    delays: list[Segment] = field(default_factory=list)
    shifts: list[Segment] = field(default_factory=list)
    groups: list[Segment] = field(default_factory=list)
    steps: list[tuple[float, float]] = field(default_factory=list)
    labels: list[Label] = field(default_factory=list)
    now_x: float | None = None
    now: list[tuple[float, float]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._row = {combatant: float(index) for index, combatant in enumerate(self.lanes)}

    def lane(self, combatant: str) -> float:
        """The row of a combatant's lane."""
        return self._row[combatant]

    def now_at(self, x: float, ids: Sequence[str]) -> None:
        """The slot being played is at ``x``; ring its actors."""
        self.now_x = x
        self.now = [(x, self._row[i]) for i in ids if i in self._row]

    def series(self, title: str, passes: bool, names: Mapping[str, str], bands: Sequence[Band]) -> ChartSeries:
        """The collected drawing as a series."""
        return ChartSeries(title, passes, self.lanes, tuple(names.get(i, i) for i in self.lanes),
                           {kind: _points(found) for kind, found in self.points.items()}, _pairs(self.delays),
                           _pairs(self.shifts), _pairs(self.groups), _points(self.steps), tuple(self.labels),
                           tuple(bands), self.now_x, _points(self.now))


# --- pass-based: one turn, its passes as bands ----------------------------------------------------


class _PassGeometry:
    """x of a (pass, phase): bands side by side, each counting down from its highest phase to 0."""

    def __init__(self, turn: TurnTimeline, words: PassWords) -> None:
        self.words = words
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
        return tuple(Band(_(self.words.band).format(number=pass_no), self.left[pass_no],
                          self.left[pass_no] + top, self._ticks(pass_no, top))
                     for pass_no, top in self.tops.items())

    def _ticks(self, pass_no: int, top: int) -> tuple[tuple[float, str], ...]:
        every = 5 if top <= 30 else 10
        phases = [phase for phase in range(top, 0, -1) if phase % every == 0 or phase == top]
        if len(phases) > 1 and phases[0] - phases[1] < every / 2:
            phases.pop(1)  # the highest phase is labelled; a round number right beside it would overlap it
        return tuple((self.x(pass_no, phase), str(phase)) for phase in phases)


def pass_series(turn: TurnTimeline, words: PassWords) -> ChartSeries:
    """The chart of one turn of a pass-based game (``words``: what the game calls its passes)."""
    geometry = _PassGeometry(turn, words)
    drawing = _Drawing(turn.lanes)

    def at(mark: Mark) -> tuple[float, float]:
        return geometry.x(mark.pass_no, mark.phase), drawing.lane(mark.combatant)

    for mark in turn.marks:
        drawing.points[mark.kind].append(at(mark))
    turns = {(m.combatant, m.pass_no): m for m in turn.marks if m.kind in TURN_KINDS[:3]}
    drawing.shifts = [(*at(m), *at(turns[(m.combatant, m.pass_no)])) for m in turn.marks
                      if m.kind is MarkKind.PLANNED and (m.combatant, m.pass_no) in turns]
    drawing.delays = [(*at(link.held), *at(link.taken)) for link in turn.links]
    _add_steps(drawing, turn, geometry)
    if len(turn.lanes) <= LABEL_LANES:
        drawing.labels += [Label(*at(m), str(m.phase)) for m in turn.marks if m.kind in TURN_KINDS and m.phase]
        # Above the lane: the next pass's highest phase sits right beside the end of this one.
        drawing.labels += [Label(at(m)[0], at(m)[1] - END_LABEL_RISE, text) for m, text in _at_the_end(turn.marks)]
    if turn.now is not None:
        drawing.now_at(geometry.x(turn.now.pass_no, turn.now.phase), turn.now.ids)
    title = _(words.chart_title).format(number=turn.round)
    return drawing.series(title, True, turn.names, geometry.bands())


def _at_the_end(marks: Sequence[Mark]) -> list[tuple[Mark, str]]:
    """Held actions taken at the end of a pass share its x: each is labelled with its place among them (the order
    the game took them in: SR3's tied-initiative order), where the others show their phase."""
    ends: dict[int, list[Mark]] = {}
    for mark in marks:
        if mark.kind is MarkKind.TAKEN and not mark.phase:
            ends.setdefault(mark.pass_no, []).append(mark)
    labelled = []
    for taken in ends.values():
        if len(taken) > 1:
            taken.sort(key=lambda mark: mark.slot)
            labelled += [(mark, _("{place}.").format(place=place)) for place, mark in enumerate(taken, 1)]
    return labelled


def _add_steps(drawing: _Drawing, turn: TurnTimeline, geometry: _PassGeometry) -> None:
    """A score step sits where the fight stood when it happened, in the lower part of the lane."""
    for step in turn.steps:
        x = geometry.x(step.pass_no, step.at_phase if step.at_phase is not None else step.before)
        y = drawing.lane(step.combatant) + STEP_OFFSET
        drawing.steps.append((x, y))
        drawing.labels.append(Label(x, y, _step_text(step.before, step.after)))


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
    """The chart of consecutive rounds of a round-based game (oldest first), side by side."""
    lanes, names = _lanes(turns)
    drawing = _Drawing(lanes)
    bands: list[Band] = []
    left = 0.0
    for turn in turns:
        columns = max(turn.slots.values(), default=1)
        _add_round(drawing, turn, left)
        bands.append(Band(_("Round {number}").format(number=turn.round), left, left + columns - 1,
                          _column_ticks(turn, left, columns)))
        left += columns + ROUND_GAP
    first, last = turns[0].round, turns[-1].round
    title = (_("Round {number}: order of play").format(number=last) if first == last
             else _("Rounds {first}–{last}: order of play").format(first=first, last=last))
    return drawing.series(title, False, names, bands)


def _add_round(drawing: _Drawing, turn: TurnTimeline, left: float) -> None:
    """One round's marks, column by column; a bar joins the members of a simultaneous group."""
    members: dict[int, list[float]] = {}
    for mark in turn.marks:
        drawing.points[mark.kind].append((left + mark.slot, drawing.lane(mark.combatant)))
        if mark.kind in TURN_KINDS:
            members.setdefault(mark.slot, []).append(drawing.lane(mark.combatant))
    drawing.groups += [(left + slot, min(ys), left + slot, max(ys)) for slot, ys in members.items() if len(ys) > 1]
    drawing.delays += [(left + link.held.slot, drawing.lane(link.held.combatant), left + link.taken.slot,
                        drawing.lane(link.taken.combatant)) for link in turn.links]
    if turn.now is not None and turn.now.slot is not None:
        drawing.now_at(left + turn.now.slot, turn.now.ids)


def _column_ticks(turn: TurnTimeline, left: float, columns: int) -> tuple[tuple[float, str], ...]:
    """Each column's caption (the seat, the shared score), or its place in the order."""
    captions: dict[int, str] = {}
    for mark in turn.marks:
        if mark.caption and mark.kind in TURN_KINDS:
            captions.setdefault(mark.slot, mark.caption)
    return tuple((left + slot, captions.get(slot, str(slot + 1))) for slot in range(columns))


def series_for(turns: Sequence[TurnTimeline], units: TimeUnits) -> ChartSeries:
    """Pass-based: the last turn given; round-based: every round given. Nothing given: an empty chart.

    ``units`` are the game's (:meth:`RuleSystem.time_units`): they name the passes' bands and the title.
    """
    if not turns:
        return ChartSeries(_("Roll initiative to see the chart."))
    if turns[-1].has_passes and units.passes is not None:
        return pass_series(turns[-1], units.passes)
    return round_series(turns)
