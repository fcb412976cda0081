"""Institute odds: summed d6 pools against a difficulty or an opposing pool, and the wound a hit makes.

Everything is exact (``exact=True`` gives Fractions) and built on :mod:`rules.odds`: a pool's total is
``sum_of(n, die(6))`` (no dice: 0), a contest is ``compare``. The attack dialog shows
:func:`attack_outcome_distribution`; the pyramid preview shows :func:`wound_class_distribution`.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Final, Literal, overload

from rules import odds
from rules.odds import Dist
from rules.systems.institut.combat import Defence, DodgeTie
from rules.systems.institut.pyramid import CLASS_LABELS, CLASSES, Pyramid
from rules.systems.institut.tables import load_tables
from rules.text import N_

#: Outcome keys of :func:`attack_outcome_distribution`, in display order.
MISS, NO_WOUND, HIT = "miss", "none", "hit"
OUTCOMES: Final[tuple[str, ...]] = (MISS, NO_WOUND, *CLASSES)
#: Display names of the outcome keys (translate with ``_`` when shown); the miss is named by the defence.
OUTCOME_LABELS: Final[dict[str, str]] = {
    MISS: N_("Miss"),
    NO_WOUND: N_("Hit, no wound"),
    HIT: N_("Hit (no damage roll)"),
    **CLASS_LABELS,
}
MISS_LABELS: Final[dict[Defence, str]] = {
    Defence.DODGE: N_("Dodged"),
    Defence.BLOCK: N_("Blocked"),
    Defence.DIFFICULTY: N_("Miss"),
}


@overload
def pool_total(dice: int, *, exact: Literal[False] = ...) -> Dist[float]: ...
@overload
def pool_total(dice: int, *, exact: Literal[True]) -> Dist[Fraction]: ...
def pool_total(dice: int, *, exact: bool = False) -> Dist[float] | Dist[Fraction]:
    """The total of ``dice`` d6 summed (no dice: 0 for certain)."""
    dice = max(0, dice)
    if exact:
        return odds.sum_of(dice, odds.die(6, exact=True)) if dice else odds.constant(0, exact=True)
    return odds.sum_of(dice, odds.die(6)) if dice else odds.constant(0)


@overload
def success_probability(dice: int, difficulty: int, *, exact: Literal[False] = ...) -> float: ...
@overload
def success_probability(dice: int, difficulty: int, *, exact: Literal[True]) -> Fraction: ...
def success_probability(dice: int, difficulty: int, *, exact: bool = False) -> float | Fraction:
    """P(a pool of ``dice`` d6 reaches ``difficulty``)."""
    if exact:
        return pool_total(dice, exact=True).at_least(difficulty)
    return pool_total(dice).at_least(difficulty)


@overload
def hit_probability(attack: int, defence: Defence, opposing: int, tie: DodgeTie = ...,
                    *, exact: Literal[False] = ...) -> float: ...
@overload
def hit_probability(attack: int, defence: Defence, opposing: int, tie: DodgeTie = ...,
                    *, exact: Literal[True]) -> Fraction: ...
def hit_probability(attack: int, defence: Defence, opposing: int, tie: DodgeTie = DodgeTie.ATTACKER,
                    *, exact: bool = False) -> float | Fraction:
    """P(the attack gets through): ``opposing`` is the difficulty, or the defender's dice."""
    if exact:
        return _hit(pool_total(attack, exact=True), defence, opposing, tie, exact=True)
    return _hit(pool_total(attack), defence, opposing, tie, exact=False)


def _hit(attack: Dist[odds.P], defence: Defence, opposing: int, tie: DodgeTie, *, exact: bool) -> odds.P:
    if defence is Defence.DIFFICULTY:
        return attack.at_least(opposing)
    other: Dist[odds.P] = pool_total(opposing, exact=True) if exact else pool_total(opposing)  # type: ignore[assignment]
    contest = odds.compare(attack, other)
    if defence is Defence.DODGE and tie is DodgeTie.DEFENDER:
        return contest.greater
    return contest.greater + contest.equal


@overload
def wound_class_distribution(dice: int, pyramid: Pyramid | None = ..., *,
                             exact: Literal[False] = ...) -> dict[str | None, float]: ...
@overload
def wound_class_distribution(dice: int, pyramid: Pyramid | None = ..., *,
                             exact: Literal[True]) -> dict[str | None, Fraction]: ...
def wound_class_distribution(dice: int, pyramid: Pyramid | None = None, *,
                             exact: bool = False) -> dict[str | None, float] | dict[str | None, Fraction]:
    """P(each wound class) for a damage roll of ``dice`` d6 (None: below the lightest class, no wound)."""
    chart = pyramid or load_tables().pyramid
    if exact:
        return _classes(pool_total(dice, exact=True), chart)
    return _classes(pool_total(dice), chart)


def _classes(total: Dist[odds.P], pyramid: Pyramid) -> dict[str | None, odds.P]:
    zero = total.probs[0] * 0
    result: dict[str | None, odds.P] = {None: zero, **dict.fromkeys(CLASSES, zero)}
    for value, probability in total.items():
        key = pyramid.classify(value)
        result[key] = result[key] + probability
    return result


@overload
def attack_outcome_distribution(attack: int, defence: Defence, opposing: int, damage: int | None,
                                pyramid: Pyramid | None = ..., tie: DodgeTie = ...,
                                *, exact: Literal[False] = ...) -> dict[str, float]: ...
@overload
def attack_outcome_distribution(attack: int, defence: Defence, opposing: int, damage: int | None,
                                pyramid: Pyramid | None = ..., tie: DodgeTie = ...,
                                *, exact: Literal[True]) -> dict[str, Fraction]: ...
def attack_outcome_distribution(attack: int, defence: Defence, opposing: int, damage: int | None,
                                pyramid: Pyramid | None = None, tie: DodgeTie = DodgeTie.ATTACKER,
                                *, exact: bool = False) -> dict[str, float] | dict[str, Fraction]:
    """P(miss), P(a hit that wounds nobody) and P(each class of the first damage roll).

    ``damage`` is the damage dice of one roll (None: a hit makes no damage roll, e.g. a pistol shot out of a
    hand, reported as ``hit``). The keys are :data:`OUTCOMES` (with ``hit`` in place of the classes then).
    """
    if exact:
        return _outcomes(hit_probability(attack, defence, opposing, tie, exact=True), damage, pyramid, exact=True)
    return _outcomes(hit_probability(attack, defence, opposing, tie), damage, pyramid, exact=False)


def _outcomes(p_hit: odds.P, damage: int | None, pyramid: Pyramid | None, *, exact: bool) -> dict[str, odds.P]:
    result: dict[str, odds.P] = {MISS: 1 - p_hit}
    if damage is None:
        result[HIT] = p_hit
        return result
    classes: dict[str | None, odds.P] = (wound_class_distribution(damage, pyramid, exact=True) if exact  # type: ignore[assignment]
                                        else wound_class_distribution(damage, pyramid))
    result[NO_WOUND] = p_hit * classes[None]
    for key in CLASSES:
        result[key] = p_hit * classes[key]
    return result


@overload
def throw_distribution(dice: int, distance: int, *, exact: Literal[False] = ...) -> dict[int, float]: ...
@overload
def throw_distribution(dice: int, distance: int, *, exact: Literal[True]) -> dict[int, Fraction]: ...
def throw_distribution(dice: int, distance: int, *, exact: bool = False) -> dict[int, float] | dict[int, Fraction]:
    """P(the grenade lands ``d`` metres off target) for each ``d`` (0 = on target; a miss: distance − roll)."""
    total: Dist[float] | Dist[Fraction] = pool_total(dice, exact=True) if exact else pool_total(dice)
    # Every roll of at least the distance lands on target; each shorter one lands its own distance off.
    result: dict[int, float | Fraction] = {0: total.at_least(distance)} if distance <= total.high else {}
    result.update((distance - value, probability) for value, probability in total.items() if value < distance)
    return dict(sorted(result.items()))  # type: ignore[return-value]
