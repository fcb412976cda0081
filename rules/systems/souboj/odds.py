"""Souboj odds: the chance of a miss and of each amount of damage, before anyone rolls.

Attack ``1d6 + A`` against defence ``1d6 + D``: the margin is the difference of two d6 shifted by A − D.
Each margin of at least 1 becomes the kind's damage, then the critical multiplier. The 36 cases are counted
in whole numbers; the exact odds are Fractions of 36, the float ones one division each.
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


#: Ways (out of 36) for (1d6) − (1d6) to come out as each difference: 1, 2, …, 6, …, 2, 1.
_DIFFERENCES = {difference: 6 - abs(difference) for difference in range(-5, 6)}
_CASES = 36


def _counted_odds(attack_bonus: int, defence_bonus: int, kind: Kind, strength: int, armor: int, multiplier: int,
                  tables: SoubojTables) -> tuple[int, dict[int, int]]:
    """The 36 cases counted: how many miss, and how many deal each damage (whole numbers, so both the exact
    and the float odds are one division each, rounded once)."""
    rule = tables.rule(kind)
    shift = attack_bonus - defence_bonus
    miss = 0
    damage: dict[int, int] = {}
    for difference, ways in _DIFFERENCES.items():
        margin = difference + shift
        if margin < 1:
            miss += ways
            continue
        dealt = damage_from_base(margin, rule, strength, armor) * multiplier
        damage[dealt] = damage.get(dealt, 0) + ways
    return miss, dict(sorted(damage.items()))


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
    miss, damage = _counted_odds(attack_bonus, defence_bonus, kind, strength, armor, multiplier,
                                 tables or load_tables())
    if exact:
        return AttackOdds(Fraction(miss, _CASES), {dealt: Fraction(ways, _CASES) for dealt, ways in damage.items()})
    return AttackOdds(miss / _CASES, {dealt: ways / _CASES for dealt, ways in damage.items()})
