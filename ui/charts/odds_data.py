"""What an odds chart shows: the outcomes in order with their chances, a number to average, a pool sweep.

Nothing here knows a game: the attack dialogs and the odds dock ask the rules for a distribution and hand it
over as :class:`OddsData`. The cumulative views ("at least", "at most") and the sweep's lines are read off the
same :class:`~rules.odds.Dist`, so the chart can only ever show what the odds engine worked out.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum

from rules.odds import Dist


class View(Enum):
    """How the bars read: the chance of each outcome, of it or more, of it or less; or a curve per pool size."""

    EXACTLY = "exactly"
    AT_LEAST = "at_least"
    AT_MOST = "at_most"
    BY_POOL = "by_pool"


@dataclass(frozen=True)
class PoolSweep:
    """The same question asked for every pool size, so the GM sees how many dice a result needs.

    ``dist_for(n)`` gives the chart's distribution (the same outcomes, in the same order) for a pool of ``n``;
    the chart draws one line per threshold outcome k: P(outcome ≥ k) against the pool size. ``legend`` is the
    (translated) text of a line, with the outcome's name as ``{outcome}``.
    """

    axis: str
    sizes: range
    current: int | None
    dist_for: Callable[[int], Dist[float]]
    thresholds: tuple[int, ...]
    legend: str = "{outcome}"


@dataclass(frozen=True)
class Curve:
    """One line of a sweep: its legend text and P(outcome ≥ threshold) at each pool size."""

    label: str
    chances: tuple[float, ...]


@dataclass(frozen=True)
class OddsData:
    """Outcomes along the x axis: their chances (``dist``), short tick texts and full names (the names match the
    odds table's rows, so both highlight the same outcome). ``measure`` is the number whose mean and spread the
    chart states (None when the outcomes are only categories); ``note`` says the answer in words when the question
    has one ("Reaches 12: 62.5 %")."""

    dist: Dist[float]
    ticks: tuple[str, ...]
    names: tuple[str, ...]
    axis: str
    measure: Dist[float] | None = None
    measure_name: str = ""
    sweep: PoolSweep | None = None
    note: str = ""
    namer: Callable[[int], str] | None = None  # names outcomes past the chart's (a sweep's bigger pools)

    def __post_init__(self) -> None:
        if not len(self.ticks) == len(self.names) == len(self.dist.probs):
            raise ValueError("one tick and one name per outcome")

    def chances(self, view: View) -> list[float]:
        """The bar heights of a view (probabilities, 0..1), one per outcome."""
        if view is View.AT_LEAST:
            return self.dist.survival()
        if view is View.AT_MOST:
            return self.dist.cdf()
        return list(self.dist.probs)

    def index_of(self, name: str | None) -> int | None:
        """The position of the outcome called ``name`` (None if it is not shown)."""
        return self.names.index(name) if name in self.names else None

    def curves(self) -> list[Curve]:
        """The sweep's lines (none without a sweep): P(outcome ≥ threshold) at each pool size."""
        sweep = self.sweep
        if sweep is None:
            return []
        dists = [sweep.dist_for(size) for size in sweep.sizes]
        return [Curve(sweep.legend.format(outcome=self.name_of(k)), tuple(d.at_least(k) for d in dists))
                for k in sweep.thresholds]

    def name_of(self, outcome: int) -> str:
        """The name of an outcome, also one outside the chart (e.g. a sum too high for the pool shown)."""
        index = outcome - self.dist.offset
        if 0 <= index < len(self.names):
            return self.names[index]
        return self.namer(outcome) if self.namer is not None else str(outcome)


def categories(rows: Sequence[tuple[str, str, float]], axis: str, *, measure: Dist[float] | None = None,
               measure_name: str = "", sweep: PoolSweep | None = None) -> OddsData:
    """Chart data for ordered categories given as (name, tick, probability) rows, from left to right."""
    dist = Dist(0, tuple(max(0.0, float(p)) for _name, _tick, p in rows))
    return OddsData(dist, tuple(tick for _n, tick, _p in rows), tuple(name for name, _t, _p in rows), axis,
                    measure, measure_name, sweep)


def counts(dist: Dist[float], axis: str, name: Callable[[int], str], *, sweep: PoolSweep | None = None,
           note: str = "") -> OddsData:
    """Chart data for numeric outcomes (successes, a sum, Hit Points): ticks are the numbers, and the mean and
    spread are those of ``dist`` itself."""
    ticks = tuple(str(outcome) for outcome in dist.outcomes())
    return OddsData(dist, ticks, tuple(name(outcome) for outcome in dist.outcomes()), axis, dist, axis, sweep,
                    note, name)
