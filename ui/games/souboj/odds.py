"""Souboj odds charts: the attack in the dialog (a miss, then each amount of damage), and the dock's question.

The chances come from :func:`rules.systems.souboj.attack_odds` (1d6 + attack against 1d6 + defence, the
kind's damage, the critical multiplier), through the attack form's rows where the dialog has them. Souboj
rolls one die a side, so there is no pool to sweep.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.i18n import N_, _
from rules.odds import Dist
from rules.systems.souboj import attack_odds, critical_multiplier
from rules.systems.souboj.model import KIND_LABELS, Kind
from ui.charts.odds_data import OddsData, categories
from ui.charts.odds_questions import Field, Question, Values, number
from ui.games.souboj.attack_parts import Outcome


def attack_chart(outcomes: Sequence[Outcome]) -> OddsData:
    """The attack's rows as bars (damage numbers under them), with the damage dealt as the mean."""
    rows = [(row.label, row.label if row.damage is None else str(row.damage), row.probability) for row in outcomes]
    weights: dict[int, float] = {}
    for row in outcomes:
        weights[row.damage or 0] = weights.get(row.damage or 0, 0.0) + row.probability
    dealt = any(row.damage is not None for row in outcomes)
    return categories(rows, _("Damage dealt"), measure=Dist.from_mapping(weights) if dealt else None,
                      measure_name=_("Damage"))


def hit_chart(values: Values) -> OddsData:
    """A miss and each amount of damage for the dock's numbers (level 0: not a critical hit)."""
    level = number(values, "critical")
    kind = values["kind"]
    assert isinstance(kind, Kind)
    odds = attack_odds(number(values, "attack"), number(values, "defence"), kind, number(values, "strength"),
                       number(values, "armor"), critical_multiplier(level) if level else 1)
    rows = [(_("Miss"), _("Miss"), odds.miss)]
    rows += [(_("Hit, no damage") if dealt == 0 else _("{count} damage").format(count=dealt), str(dealt), p)
             for dealt, p in odds.damage.items()]
    return attack_chart([Outcome(name, p, None if index == 0 else int(tick))
                         for index, (name, tick, p) in enumerate(rows)])


QUESTIONS: tuple[Question, ...] = (
    Question("attack", N_("Hit chance and damage"), (
        Field("kind", N_("Kind"), Kind.MELEE, choices=tuple((KIND_LABELS[kind], kind) for kind in Kind
                                                             if kind is not Kind.MAGIC)),
        Field("attack", N_("Attack bonus"), 3, 0, 40), Field("defence", N_("Defence bonus"), 3, 0, 40),
        Field("strength", N_("Attacker's Strength"), 3, 0, 40), Field("armor", N_("Target's armor quality"), 0, 0, 40),
        Field("critical", N_("Critical hit: attacker's level (0: no)"), 0, 0, 20)), hit_chart),
)
