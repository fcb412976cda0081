"""Shadowrun 3 odds: success tests with the rule of six, and the ranged attack procedure end to end.

The attack dialog shows :func:`attack_outcome_distribution`; condition-monitor previews use
:func:`damage_distribution`. Both follow sr3.md, "Ranged combat procedure": attacker successes A (0 = miss),
dodge successes D (D > A = no hit, otherwise they join the resistance successes R), then the damage level is
staged by the net successes A − (D + R). The rule of one (every die a 1) changes no success count, only the
narration, so it does not appear here.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from fractions import Fraction
from itertools import accumulate, chain
from typing import Final, Literal, overload

from rules import odds
from rules.errors import RulesError
from rules.odds import P
from rules.systems.sr3.levels import LEVELS, SUCCESSES_PER_STAGE, check_level, stage
from rules.text import N_, _

#: No modified target number is below this.
MIN_TN: Final[int] = 2
#: Keys of :func:`attack_outcome_distribution`, in display order.
OUTCOMES: Final[tuple[str, ...]] = ("miss", "dodged", *LEVELS, "none")
#: Display names of the outcome keys (translate with ``rules.text._`` when showing them).
OUTCOME_LABELS: Final[dict[str, str]] = {
    "miss": N_("Miss"),
    "dodged": N_("Dodged"),
    "L": N_("Light"),
    "M": N_("Moderate"),
    "S": N_("Serious"),
    "D": N_("Deadly"),
    "none": N_("Staged to no damage"),
}
#: Keys of :func:`damage_distribution`: each level, then None for no damage at all.
DAMAGE_KEYS: Final[tuple[str | None, ...]] = (*LEVELS, None)

# Net successes this far from 0 stage any level past D or below L, so a table over -BOUND..BOUND covers all.
_STAGE_BOUND: Final[int] = SUCCESSES_PER_STAGE * len(LEVELS)

#: One contiguous run of net successes that ends on the same outcome; None = unbounded on that side.
_Band = tuple[str, int | None, int | None]


def effective_tn(tn: int) -> int:
    """The target number actually rolled against: never below 2."""
    return max(tn, MIN_TN)


def success_fraction(tn: int) -> Fraction:
    """Exact chance that one die reaches ``tn`` with the rule of six (TN 8 = 1/6 · 5/6, TN 13 = 1/36)."""
    # tn - 1 = 6·sixes + rest: the die needs `sixes` sixes in a row, then a face of at least rest + 1.
    sixes, rest = divmod(effective_tn(tn) - 1, 6)
    return Fraction(6 - rest, 6 ** (sixes + 1))


def success_probability(tn: int) -> float:
    """Chance that one die reaches ``tn`` with the rule of six; TN below 2 counts as 2."""
    return float(success_fraction(tn))


def _check_dice(dice: int) -> None:
    if dice < 0:
        raise RulesError(_("The number of dice cannot be negative (got {count}).").format(count=dice))


# Two caches rather than one keyed by `exact`: each returns one number type, which keeps the DP typed.
@functools.lru_cache(maxsize=512)
def _float_successes(dice: int, tn: int) -> tuple[float, ...]:
    return odds.binomial(dice, float(success_fraction(tn))).probs


@functools.lru_cache(maxsize=512)
def _exact_successes(dice: int, tn: int) -> tuple[Fraction, ...]:
    return odds.binomial(dice, success_fraction(tn)).probs


def clear_cache() -> None:
    """Forget cached success distributions (benchmarks measure cold calls with it)."""
    _float_successes.cache_clear()
    _exact_successes.cache_clear()


@overload
def successes_distribution(dice: int, tn: int, exact: Literal[False] = ...) -> list[float]: ...
@overload
def successes_distribution(dice: int, tn: int, exact: Literal[True]) -> list[Fraction]: ...
@overload
def successes_distribution(dice: int, tn: int, exact: bool) -> list[float] | list[Fraction]: ...
def successes_distribution(dice: int, tn: int, exact: bool = False) -> list[float] | list[Fraction]:
    """P(k successes) for k = 0..``dice`` when rolling ``dice`` d6 against ``tn`` (Fractions if ``exact``)."""
    _check_dice(dice)
    if exact:
        return list(_exact_successes(dice, effective_tn(tn)))
    return list(_float_successes(dice, effective_tn(tn)))


@functools.lru_cache(maxsize=len(LEVELS))
def _bands(level: str) -> tuple[_Band, ...]:
    """Split the net successes into runs that end on the same outcome (staging is monotone in the net)."""
    bands: list[_Band] = []
    for net in range(-_STAGE_BOUND, _STAGE_BOUND + 1):
        key = stage(level, net) or "none"
        if bands and bands[-1][0] == key:
            bands[-1] = (key, bands[-1][1], net)
        else:
            bands.append((key, net, net))
    # Past the bound nothing changes any more, so the outermost runs extend forever.
    bands[0] = (bands[0][0], None, bands[0][2])
    bands[-1] = (bands[-1][0], bands[-1][1], None)
    return tuple(bands)


def _dodged(attack: Sequence[P], dodge: Sequence[P], zero: P) -> P:
    """P(A ≥ 1 and D > A)."""
    dodge_at_least: list[P] = list(accumulate(reversed(dodge)))[::-1]  # [k] = P(D ≥ k)
    # Pairs A = 1, 2, … with P(D ≥ A + 1); zip stops where either runs out.
    return odds.dot(attack[1:], dodge_at_least[2:], zero)


def _margins(attack: Sequence[P], dodge: Sequence[P], zero: P) -> list[P]:
    """P(A ≥ 1, D ≤ A and A − D = s) for s = 0..max A: the hits, by how far the dodge fell short."""
    tied = odds.dot(attack[1:], dodge[1:], zero)  # A = D ≥ 1: the dodge fails, A = 0 is a miss
    return list(chain([tied], (odds.dot(attack[s:], dodge, zero) for s in range(1, len(attack)))))


def _resisted(below: Sequence[P], margin: int, band: _Band, zero: P) -> P:
    """P(margin − R falls in the band), with ``below[i]`` = P(R < i)."""
    _, low, high = band
    r_low = 0 if high is None else max(0, margin - high)
    r_high = len(below) - 2 if low is None else min(len(below) - 2, margin - low)
    return below[r_high + 1] - below[r_low] if r_low <= r_high else zero


def outcomes_from_successes(attack: Sequence[P], dodge: Sequence[P], resist: Sequence[P], level: str) -> dict[str, P]:
    """Outcome distribution (keys :data:`OUTCOMES`) from the distributions of the three success counts.

    Each argument lists P(k successes) for k = 0, 1, …; a typed-in roll is a list with a single 1.
    O(|attack|·|dodge| + |attack|·bands + |resist|).
    """
    level = check_level(level)
    zero = attack[0] * 0
    result = dict.fromkeys(OUTCOMES, zero)
    result["miss"] = attack[0]
    result["dodged"] = _dodged(attack, dodge, zero)
    below: list[P] = list(accumulate(resist, initial=zero))
    for margin, p in enumerate(_margins(attack, dodge, zero)):
        for band in _bands(level):
            result[band[0]] += p * _resisted(below, margin, band, zero)
    return result


@overload
def attack_outcome_distribution(
    attack_dice: int,
    attack_tn: int,
    dodge_dice: int,
    dodge_tn: int,
    body_dice: int,
    resist_tn: int,
    level: str,
    exact: Literal[False] = ...,
) -> dict[str, float]: ...
@overload
def attack_outcome_distribution(
    attack_dice: int,
    attack_tn: int,
    dodge_dice: int,
    dodge_tn: int,
    body_dice: int,
    resist_tn: int,
    level: str,
    exact: Literal[True],
) -> dict[str, Fraction]: ...
def attack_outcome_distribution(
    attack_dice: int,
    attack_tn: int,
    dodge_dice: int,
    dodge_tn: int,
    body_dice: int,
    resist_tn: int,
    level: str,
    exact: bool = False,
) -> dict[str, float] | dict[str, Fraction]:
    """P of each attack outcome (keys :data:`OUTCOMES`): "miss", "dodged", a level or "none" (staged away)."""
    tests = ((attack_dice, attack_tn), (dodge_dice, dodge_tn), (body_dice, resist_tn))
    for dice, _tn in tests:
        _check_dice(dice)
    if exact:
        attack, dodge, resist = (_exact_successes(dice, effective_tn(tn)) for dice, tn in tests)
        return outcomes_from_successes(attack, dodge, resist, level)
    attack_f, dodge_f, resist_f = (_float_successes(dice, effective_tn(tn)) for dice, tn in tests)
    return outcomes_from_successes(attack_f, dodge_f, resist_f, level)


def _damage_only(outcomes: dict[str, P]) -> dict[str | None, P]:
    """Fold miss, dodged and staged-away into None ("no damage")."""
    damage: dict[str | None, P] = {level: outcomes[level] for level in LEVELS}
    damage[None] = outcomes["miss"] + outcomes["dodged"] + outcomes["none"]
    return damage


@overload
def damage_distribution(
    attack_dice: int,
    attack_tn: int,
    dodge_dice: int,
    dodge_tn: int,
    body_dice: int,
    resist_tn: int,
    level: str,
    exact: Literal[False] = ...,
) -> dict[str | None, float]: ...
@overload
def damage_distribution(
    attack_dice: int,
    attack_tn: int,
    dodge_dice: int,
    dodge_tn: int,
    body_dice: int,
    resist_tn: int,
    level: str,
    exact: Literal[True],
) -> dict[str | None, Fraction]: ...
def damage_distribution(
    attack_dice: int,
    attack_tn: int,
    dodge_dice: int,
    dodge_tn: int,
    body_dice: int,
    resist_tn: int,
    level: str,
    exact: bool = False,
) -> dict[str | None, float] | dict[str | None, Fraction]:
    """P of each damage level taken ("L", "M", "S", "D"); None = no damage (miss, dodged or staged away)."""
    args = (attack_dice, attack_tn, dodge_dice, dodge_tn, body_dice, resist_tn, level)
    if exact:
        return _damage_only(attack_outcome_distribution(*args, exact=True))
    return _damage_only(attack_outcome_distribution(*args))


def stopped_by_barrier(outcomes: dict[str, float]) -> dict[str, float]:
    """The outcomes of an attack a barrier stops ("a barrier rated above the attack's Power stops it"): a hit
    reaches nobody, so whatever was not a miss is no damage."""
    stopped = dict.fromkeys(OUTCOMES, 0.0)
    stopped["miss"] = outcomes["miss"]
    stopped["none"] = 1.0 - outcomes["miss"]
    return stopped
