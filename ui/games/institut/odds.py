"""Institute odds charts: each page of the attack dialog, and the dock's questions (sums against a difficulty,
the wound class of a damage roll).

The chances come from :mod:`rules.systems.institut.odds` (summed d6 pools, contests, the life pyramid); the
dialog's pages hand over the rows their odds tables show, and the chart adds the sum's mean and spread.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from app.i18n import N_, _
from rules.odds import Dist
from rules.systems.institut.combat import DEFAULT_SIDES, DIE_CHOICES, DIE_LABELS
from rules.systems.institut.odds import pool_total, wound_class_distribution
from rules.systems.institut.pyramid import CLASS_LABELS, CLASSES
from ui.charts.odds_data import OddsData, PoolSweep, categories, counts
from ui.charts.odds_questions import Field, Question, number
from ui.widgets.odds_table import format_percent

#: Pools a sweep shows.
SWEEP: Final[range] = range(1, 21)

Rows = Sequence[tuple[str, float]]


def _short(label: str) -> str:
    """The text under a bar: the odds table's row label, shortened where it is long."""
    short = {_("Hit, no wound"): _("No wound"), _("1–2 m off"): _("1–2 m"), _("3–5 m off"): _("3–5 m"),
             _("6 m or more off"): _("6+ m"), _("Gets through"): _("Through")}
    return short.get(label, label)


def _same_ticks(rows: Rows) -> list[tuple[str, str, float]]:
    return [(label, _short(label), p) for label, p in rows]


def short_ticks(labels: Sequence[str]) -> list[str]:
    """The texts under the bars for these odds-table labels (while the chances are unknown)."""
    return [_short(label) for label in labels]


def attack_chart(rows: Rows, damage_dice: int | None, sides: int = DEFAULT_SIDES) -> OddsData:
    """A shot or blow: the rows of its odds table, with the damage roll's sum as the mean (when there is one)."""
    measure = pool_total(damage_dice, sides=sides) if damage_dice is not None else None
    return categories(_same_ticks(rows), _("Outcome and wound"), measure=measure,
                      measure_name=_("Damage roll"))


def throw_chart(rows: Rows, spread: Mapping[int, float]) -> OddsData:
    """A grenade's landing: the bands of its odds table, with the metres off target as the mean."""
    return categories(_same_ticks(rows), _("Where it lands"), measure=Dist.from_mapping(dict(spread)),
                      measure_name=_("Metres off target"))


def blast_chart(rows: Rows, damage_dice: int, sides: int = DEFAULT_SIDES) -> OddsData:
    """An explosion's wound at these dice, with the damage roll's sum as the mean."""
    return categories(_same_ticks(rows), _("Wound"), measure=pool_total(damage_dice, sides=sides),
                      measure_name=_("Damage roll"))


def crossing_chart(rows: Rows) -> OddsData:
    """Crossing suppression fire: getting through, or the wound a bullet makes."""
    return categories(_same_ticks(rows), _("Outcome and wound"))


def sum_name(total: int) -> str:
    """"a sum of 12"."""
    return _("a sum of {total}").format(total=total)


def difficulty_chart(dice: int, difficulty: int, sides: int = DEFAULT_SIDES) -> OddsData:
    """The sum of ``dice`` dice of ``sides``; the note and the sweep answer "does it reach the difficulty?"."""
    total = pool_total(dice, sides=sides)
    reaches = _("Reaches {difficulty}").format(difficulty=difficulty)  # the legend: no {outcome} needed
    sweep = PoolSweep(_("Dice"), SWEEP, dice, lambda count: pool_total(count, sides=sides), (difficulty,), reaches)
    note = _("Reaches {difficulty}: {chance}").format(difficulty=difficulty,
                                                      chance=format_percent(total.at_least(difficulty)))
    return counts(total, _("Sum of the dice"), sum_name, sweep=sweep, note=note)


def _classes(dice: int, sides: int = DEFAULT_SIDES) -> Dist[float]:
    classes = wound_class_distribution(dice, sides=sides)
    return Dist(0, (classes[None], *(classes[key] for key in CLASSES)))


def wound_chart(dice: int, sides: int = DEFAULT_SIDES) -> OddsData:
    """The wound class a damage roll of ``dice`` dice makes on the default pyramid, each class swept over the
    dice."""
    names = [_("No wound"), *(_(CLASS_LABELS[key]) for key in CLASSES)]
    rows = [(name, name, p) for name, p in zip(names, _classes(dice, sides).probs, strict=True)]
    sweep = PoolSweep(_("Damage dice"), SWEEP, dice, lambda count: _classes(count, sides),
                      tuple(range(1, len(names))), _("{outcome} or worse"))
    return categories(rows, _("Wound"), measure=pool_total(dice, sides=sides), measure_name=_("Damage roll"),
                      sweep=sweep)


def _die_field() -> Field:
    """The die of the pool (the encounter's option sets the fight's; the dock asks about any)."""
    return Field("sides", N_("Die"), DEFAULT_SIDES, choices=tuple((DIE_LABELS[sides], sides) for sides in DIE_CHOICES))


QUESTIONS: tuple[Question, ...] = (
    Question("difficulty", N_("Dice against a difficulty"), (
        Field("dice", N_("Dice"), 3, 0, 40), Field("difficulty", N_("Difficulty"), 10, 0, 240), _die_field()),
        lambda values: difficulty_chart(number(values, "dice"), number(values, "difficulty"),
                                        number(values, "sides"))),
    Question("wound", N_("Wound from a damage roll"), (
        Field("dice", N_("Damage dice"), 4, 0, 40), _die_field()),
        lambda values: wound_chart(number(values, "dice"), number(values, "sides"))),
)

