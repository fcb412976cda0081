"""Shadowrun 3 odds charts: the staged damage of the attack in the dialog, and the dock's what-if questions.

Every number comes from :mod:`rules.systems.sr3.odds` (success tests with the rule of six, the ranged attack
procedure); boxes per damage level from :data:`rules.systems.sr3.levels.LEVEL_BOXES`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from app.i18n import N_, NP_, _, ngettext, pgettext
from rules.odds import Dist
from rules.systems.sr3.levels import LEVEL_BOXES, LEVELS
from rules.systems.sr3.odds import (
    OUTCOME_LABELS,
    attack_outcome_distribution,
    stopped_by_barrier,
    successes_distribution,
)
from ui.charts.odds_data import OddsData, PoolSweep, categories, counts
from ui.charts.odds_questions import Field, Question, Values, number

#: The attack's outcomes along the chart's axis, from best to worst for the target.
ORDER: Final[tuple[str, ...]] = ("miss", "dodged", "none", *LEVELS)
#: Short texts under the bars (the full names come from the rules' outcome labels); the damage levels use the
#: letters of the GM's language (Czech L/M/V/S), which the rules mark in the "sr3 damage level" context.
#: The other ticks have a context of their own: as the outcomes' full names they got long translations (Russian
#: "Уклонился") that crowded each other and were thinned off the axis, and "None" is damage staged away here, not
#: another game's "None".
TICKS: Final[dict[str, str]] = {"miss": NP_("sr3 odds chart tick", "Miss"),
                                "dodged": NP_("sr3 odds chart tick", "Dodged"),
                                "none": NP_("sr3 odds chart tick", "None")}
TICK_CONTEXT: Final[str] = "sr3 odds chart tick"
#: The largest pool a sweep shows.
MAX_SWEEP: Final[int] = 30


def tick_text(outcome: str) -> str:
    """The short text under an outcome's bar, in the GM's language."""
    return pgettext("sr3 damage level", outcome) if outcome in LEVELS else pgettext(TICK_CONTEXT, TICKS[outcome])


@dataclass(frozen=True)
class AttackQuestion:
    """The numbers the attack's odds depend on: the dice and target number of each test, and the level."""

    attack_dice: int
    attack_tn: int
    dodge_dice: int
    dodge_tn: int
    resist_dice: int
    resist_tn: int
    level: str
    #: A barrier rated above the Power stops every hit (sr3.md, Barriers).
    stopped: bool = False

    def outcomes(self, attack_dice: int) -> Dist[float]:
        """The outcomes (in :data:`ORDER`) with ``attack_dice`` dice, everything else the same."""
        odds = attack_outcome_distribution(attack_dice, self.attack_tn, self.dodge_dice, self.dodge_tn,
                                           self.resist_dice, self.resist_tn, self.level)
        if self.stopped:
            odds = stopped_by_barrier(odds)
        return Dist(0, tuple(odds[key] for key in ORDER))


def sweep_sizes(current: int) -> range:
    """Pool sizes a sweep shows: from 1 to a few past the pool now."""
    return range(1, min(MAX_SWEEP, max(12, current + 6)) + 1)


def boxes(odds: Mapping[str, float]) -> Dist[float]:
    """Boxes of damage the target takes (0 for a miss, a dodge or damage staged away)."""
    weights: dict[int, float] = {}
    for key in ORDER:
        count = LEVEL_BOXES.get(key, 0)
        weights[count] = weights.get(count, 0.0) + odds[key]
    return Dist.from_mapping(weights)


def attack_chart(question: AttackQuestion, odds: Mapping[str, float] | None = None) -> OddsData:
    """The attack's outcomes as bars (the odds table's names), boxes of damage as the mean, attack dice swept."""
    chances = odds if odds is not None else dict(zip(ORDER, question.outcomes(question.attack_dice).probs,
                                                     strict=True))
    rows = [(_(OUTCOME_LABELS[key]), tick_text(key), chances[key]) for key in ORDER]
    sweep = PoolSweep(_("Attack dice"), sweep_sizes(question.attack_dice), question.attack_dice,
                      question.outcomes, tuple(ORDER.index(level) for level in LEVELS), _("{outcome} or worse"))
    return categories(rows, _("Damage to the target"), measure=boxes(chances), measure_name=_("Boxes"),
                      sweep=sweep)


def success_name(count: int) -> str:
    """"3 successes"."""
    return ngettext("{count} success", "{count} successes", count).format(count=count)


def successes(dice: int, tn: int) -> Dist[float]:
    """Successes of ``dice`` d6 against ``tn``."""
    return Dist(0, tuple(successes_distribution(dice, tn)))


def successes_chart(dice: int, tn: int) -> OddsData:
    """Successes of a test, with the chance of 1 to 4 successes swept over the number of dice."""
    sweep = PoolSweep(_("Dice"), sweep_sizes(dice), dice, lambda size: successes(size, tn), (1, 2, 3, 4),
                      _("{outcome} or more"))
    return counts(successes(dice, tn), _("Successes"), success_name, sweep=sweep)


def _test(values: Values) -> OddsData:
    return successes_chart(number(values, "dice"), number(values, "tn"))


def _attack(values: Values) -> OddsData:
    return attack_chart(AttackQuestion(
        number(values, "attack_dice"), number(values, "attack_tn"), number(values, "dodge_dice"),
        number(values, "dodge_tn"), number(values, "resist_dice"), number(values, "resist_tn"), str(values["level"])))


QUESTIONS: tuple[Question, ...] = (
    Question("test", N_("Successes against a target number"), (
        Field("dice", N_("Dice"), 6, 0, 60), Field("tn", N_("Target number"), 4, 2, 30)), _test),
    Question("attack", N_("Ranged attack: staged damage"), (
        Field("attack_dice", N_("Attack dice"), 6, 0, 60), Field("attack_tn", N_("Attack TN"), 4, 2, 30),
        Field("dodge_dice", N_("Dodge dice"), 0, 0, 60), Field("dodge_tn", N_("Dodge TN"), 4, 2, 30),
        Field("resist_dice", N_("Body (+ pool) dice"), 4, 0, 60), Field("resist_tn", N_("Resistance TN"), 6, 2, 30),
        Field("level", N_("Damage level"), "M", choices=tuple((N_(OUTCOME_LABELS[level]), level) for level in LEVELS)),
    ), _attack),
)
