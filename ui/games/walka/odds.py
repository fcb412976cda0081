"""Walka odds charts: the attack in the dialog (missed, defended, Hit Points lost), and the dock's questions.

The chances come from :mod:`rules.systems.walka.odds` (the opposed roll-under test with bonus and penalty
dice, and the damage pool's d6), through the attack form's rows where the dialog already has them.
"""

from __future__ import annotations

from typing import Final

from app.i18n import N_, _, ngettext
from rules.dice_rules import PERCENTILE
from rules.odds import Dist
from rules.systems.walka.contest import TEST_DICE, Outcome
from rules.systems.walka.odds import hit_points_lost, outcome_chances
from ui.charts.odds_data import OddsData, PoolSweep, categories, counts
from ui.charts.odds_questions import Field, Question, Values, number
from ui.games.walka.attack_form import AttackSheet

#: Damage pools a sweep shows.
SWEEP: Final[range] = range(1, 13)
#: The test die as the dock offers it: (sides, whether bonus and penalty dice are extra tens dice).
_DIE_CHOICES: Final[tuple[tuple[str, object], ...]] = (
    *((f"d{sides}", (sides, False)) for sides in TEST_DICE),
    (N_("d100, bonus and penalty dice as tens dice"), (PERCENTILE, True)),
)


def _test_die(values: Values) -> tuple[int, bool]:
    die = values["die"]
    if not (isinstance(die, tuple) and len(die) == 2):
        raise TypeError(f"field die is not a test die: {die!r}")
    return int(die[0]), bool(die[1])


def attack_chart(sheet: AttackSheet) -> OddsData:
    """The attack's rows as bars, with the Hit Points the target loses as the mean."""
    weights: dict[int, float] = {}
    for row in sheet.outcomes:
        weights[row.removed] = weights.get(row.removed, 0.0) + row.probability
    rows = [(row.label, row.tick, row.probability) for row in sheet.outcomes]
    return categories(rows, _("Missed, defended, or Hit Points lost"), measure=Dist.from_mapping(weights),
                      measure_name=_("Hit Points lost"))


def hit_points_name(count: int) -> str:
    """"2 Hit Points lost"."""
    return ngettext("{count} Hit Point lost", "{count} Hit Points lost", count).format(count=count)


def damage_chart(pool: int) -> OddsData:
    """Hit Points a damage pool removes, with the chance of losing 1 to 4 swept over the pool's size."""
    sweep = PoolSweep(_("Damage pool (d6)"), SWEEP, pool, hit_points_lost, (1, 2, 3, 4), _("{outcome} or more"))
    return counts(hit_points_lost(pool), _("Hit Points lost"), hit_points_name, sweep=sweep)


def contest_chart(values: Values) -> OddsData:
    """Missed, defended, hit: the opposed test of the dock's numbers (no defence with a defence skill of 0)."""
    defence = number(values, "defence")
    die, tens = _test_die(values)
    chances = outcome_chances(number(values, "attack"), defence or None, die,
                              number(values, "attack_bonus"), number(values, "attack_penalty"),
                              number(values, "defence_bonus"), number(values, "defence_penalty"), tens)
    rows = [(_("Missed"), _("Missed"), chances[Outcome.MISSED])]
    if defence:
        rows.append((_("Defended"), _("Defended"), chances[Outcome.DEFENDED]))
    rows.append((_("Hit"), _("Hit"), chances[Outcome.HIT]))
    return categories(rows, _("Outcome of the attack"))


QUESTIONS: tuple[Question, ...] = (
    Question("contest", N_("Attack against a defence"), (
        Field("die", N_("Test die"), (20, False), choices=_DIE_CHOICES),
        Field("attack", N_("Attacker's skill"), 12, 1, 100),
        Field("attack_bonus", N_("Attacker's bonus dice"), 0, 0, 5),
        Field("attack_penalty", N_("Attacker's penalty dice"), 0, 0, 5),
        Field("defence", N_("Defender's skill (0: no defence)"), 10, 0, 100),
        Field("defence_bonus", N_("Defender's bonus dice"), 0, 0, 5),
        Field("defence_penalty", N_("Defender's penalty dice"), 0, 0, 5)), contest_chart),
    Question("damage", N_("Hit Points lost to a damage pool"), (
        Field("pool", N_("Damage pool (d6)"), 3, 0, 30),), lambda values: damage_chart(number(values, "pool"))),
)
