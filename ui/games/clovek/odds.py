"""Člověk odds charts: the outcome and the power of a roll (in the dialog and the dock), the outcome swept over
the number of dice risked.

The chances come from :mod:`rules.systems.clovek.odds` (exploding d10 pools, critical failures, bonuses,
penalties, a defence, power) through the roll form's functions, so the chart and the odds tables agree.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from app.i18n import N_, _
from rules.odds import Dist
from rules.systems.clovek.dice import RollRules, SkillKind
from rules.systems.clovek.odds import OUTCOMES, PowerSpec
from rules.systems.clovek.rolls import POWER_SOURCE_LABELS, PowerSource
from ui.charts.odds_data import OddsData, PoolSweep, categories
from ui.charts.odds_questions import Field, Question, Values, number
from ui.games.clovek.check_form import (
    CheckInputs,
    SideInputs,
    net_odds,
    outcome_chances,
    outcome_label,
    power_odds_of,
    power_outcomes,
)

#: Short texts under the bars (the full words are the odds table's rows).
TICKS: Final[dict[str, str]] = {"critical": N_("Crit. failure"), "failure": N_("Failure"), "basic": N_("Basic"),
                                "full": N_("Full"), "very_good": N_("Very good"), "total": N_("Total")}
#: Skill kinds as the dock offers them (the same words as the rules', translated when the form is built).
KIND_WORDS: Final[dict[SkillKind, str]] = {SkillKind.TALENT: N_("talent"), SkillKind.ABILITY: N_("ability"),
                                           SkillKind.KNOWLEDGE: N_("knowledge")}
#: Outcomes a sweep draws a line for: each success, "or better".
SWEPT: Final[tuple[str, ...]] = ("basic", "full", "very_good", "total")


def _outcomes(inputs: CheckInputs, dice: int) -> Dist[float]:
    """The outcome distribution (in :data:`OUTCOMES` order) with ``dice`` dice rolled, all else the same."""
    chances = outcome_chances(replace(inputs, roll=replace(inputs.roll, dice=dice)))
    return Dist(0, tuple(max(0.0, chances[key]) for key in OUTCOMES))


def sweep_sizes(dice: int) -> range:
    """Dice counts a sweep shows."""
    return range(1, max(10, dice + 5) + 1)


def outcome_chart(inputs: CheckInputs) -> OddsData:
    """The outcome of the roll (critical failure to total success), net successes as the mean, dice swept."""
    chances = outcome_chances(inputs)
    rows = [(outcome_label(key), _(TICKS[key]), chances[key]) for key in OUTCOMES]
    sweep = PoolSweep(_("Dice rolled"), sweep_sizes(inputs.roll.dice), inputs.roll.dice,
                      lambda dice: _outcomes(inputs, dice), tuple(OUTCOMES.index(key) for key in SWEPT),
                      _("{outcome} or better"))
    return categories(rows, _("Outcome"), measure=net_odds(inputs).map(lambda net: max(net, 0)),
                      measure_name=_("Net successes"), sweep=sweep)


def power_chart(inputs: CheckInputs) -> OddsData | None:
    """The power of the action (None without a power roll), a failure or no lasting effect counting as 0."""
    if inputs.power is None:
        return None
    net, powers = net_odds(inputs), power_odds_of(inputs, inputs.power)
    weights = {0: float(net.at_most(0)) + float(powers.at_most(0))}
    for value, chance in powers.items():
        if value > 0:
            weights[value] = chance
    return categories(power_outcomes(inputs), _("Power"), measure=Dist.from_mapping(weights),
                      measure_name=_("Power"))


def _inputs(values: Values) -> CheckInputs:
    """The dock's fields as the roll form's inputs (no defence; a power roll when the question has one)."""
    kind = values["kind"]
    assert isinstance(kind, SkillKind)
    rules = RollRules(floor_every_skill=not values.get("floor_supernatural_only", False),
                      literal_reroll=bool(values.get("literal_reroll", False)))
    roll = SideInputs("", number(values, "dice"), number(values, "dots"), kind, bool(values["supernatural"]),
                      number(values, "bonus"), number(values, "penalty"), rules)
    source = values.get("source")
    power = PowerSpec(source, number(values, "power"), rules=rules) if isinstance(source, PowerSource) else None
    return CheckInputs(roll, None, power)


def _power(values: Values) -> OddsData:
    chart = power_chart(_inputs(values))
    assert chart is not None  # the power question always has a source
    return chart


_ROLL_FIELDS: Final[tuple[Field, ...]] = (
    Field("dice", N_("Dice"), 3, 0, 30), Field("dots", N_("Skill dots"), 1, 0, 20),
    Field("kind", N_("Skill kind"), SkillKind.ABILITY, choices=tuple((KIND_WORDS[kind], kind) for kind in SkillKind)),
    Field("supernatural", N_("Supernatural"), False, check=True),
    Field("bonus", N_("Bonus"), 0, 0, 10), Field("penalty", N_("Penalty"), 0, 0, 10),
    # The encounter options of the same names (clovek.md "Rolling" Decisions), for asking either reading.
    Field("floor_supernatural_only", N_("Min. 5: supernatural only"), False, check=True,
          tip=N_("The minimum success number 5 binds only supernatural skills (others succeed on 10 − skill)")),
    Field("literal_reroll", N_("Literal reroll at 11+"), False, check=True,
          tip=N_("A supernatural skill of 11 or more rerolls every die at 15 − skill or more, a failed one too")))
_POWER_FIELDS: Final[tuple[Field, ...]] = (
    Field("source", N_("Power from"), PowerSource.ATTRIBUTE,
          choices=tuple((POWER_SOURCE_LABELS[source], source) for source in PowerSource)),
    Field("power", N_("Power value"), 3, 0, 20))

QUESTIONS: tuple[Question, ...] = (
    Question("outcome", N_("Outcome of a roll"), _ROLL_FIELDS,
                                         lambda values: outcome_chart(_inputs(values))),
    Question("power", N_("Power of a successful action"), _ROLL_FIELDS + _POWER_FIELDS,
                                         _power),
)
