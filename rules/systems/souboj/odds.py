"""Souboj odds: the chance of a miss and of each amount of damage, before anyone rolls.

Attack ``1d6 + A`` against defence ``1d6 + D``: the margin is the difference of two d6 shifted by A − D
(:mod:`rules.odds` does the convolution exactly). Each margin of at least 1 becomes the kind's damage, then
the critical multiplier. Always computed with Fractions (36 cases at most); floats are converted at the end.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Generic, Literal, overload

from rules.odds import Dist, P, die
from rules.systems.souboj.combat import damage_from_base
from rules.systems.souboj.model import Kind
from rules.systems.souboj.tables import SoubojTables, load_tables


@dataclass(frozen=True)
class AttackOdds(Generic[P]):
    """P(miss) and P(each damage) for a hit; damage 0 means the armor took all of it. Keys ascend."""

    miss: P
    damage: Mapping[int, P]

    def hit(self) -> P:
        """P(the attack beats the defence)."""
        return sum(self.damage.values(), self.miss * 0)


def margin_distribution(attack_bonus: int, defence_bonus: int) -> Dist[Fraction]:
    """Exact distribution of (1d6 + attack_bonus) − (1d6 + defence_bonus)."""
    six = die(6, exact=True)
    return (six - six).shift(attack_bonus - defence_bonus)


def _exact_odds(attack_bonus: int, defence_bonus: int, kind: Kind, strength: int, armor: int, multiplier: int,
                tables: SoubojTables) -> AttackOdds[Fraction]:
    rule = tables.rule(kind)
    miss = Fraction(0)
    damage: dict[int, Fraction] = {}
    for margin, probability in margin_distribution(attack_bonus, defence_bonus).items():
        if margin < 1:
            miss += probability
            continue
        dealt = damage_from_base(margin, rule, strength, armor) * multiplier
        damage[dealt] = damage.get(dealt, Fraction(0)) + probability
    return AttackOdds(miss, dict(sorted(damage.items())))


@overload
def attack_odds(attack_bonus: int, defence_bonus: int, kind: Kind, strength: int = ..., armor: int = ...,
                multiplier: int = ..., tables: SoubojTables | None = ...,
                exact: Literal[False] = ...) -> AttackOdds[float]: ...
@overload
def attack_odds(attack_bonus: int, defence_bonus: int, kind: Kind, strength: int = ..., armor: int = ...,
                multiplier: int = ..., tables: SoubojTables | None = ..., *,
                exact: Literal[True]) -> AttackOdds[Fraction]: ...
def attack_odds(attack_bonus: int, defence_bonus: int, kind: Kind, strength: int = 0, armor: int = 0,
                multiplier: int = 1, tables: SoubojTables | None = None,
                exact: bool = False) -> AttackOdds[float] | AttackOdds[Fraction]:
    """Odds of an attack of a weapon ``kind`` (not magic) with ``multiplier`` 1 or the critical one."""
    odds = _exact_odds(attack_bonus, defence_bonus, kind, strength, armor, multiplier, tables or load_tables())
    if exact:
        return odds
    return AttackOdds(float(odds.miss), {dealt: float(p) for dealt, p in odds.damage.items()})
