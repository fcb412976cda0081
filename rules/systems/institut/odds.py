"""Institute odds: summed pools against a difficulty or an opposing pool, and the wound a hit makes.

Everything is exact (``exact=True`` gives Fractions) and built on :mod:`rules.odds`: a pool's total is
``sum_of(n, die(sides))`` (no dice: 0; ``sides`` the encounter's die option, d6 by default), a contest is
``compare``. The attack dialog shows
:func:`attack_outcome_distribution`; the pyramid preview shows :func:`wound_class_distribution`.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb
from typing import Final, Literal, overload

from rules import odds
from rules.odds import Dist
from rules.systems.institut.combat import DEFAULT_SIDES, Defence, DodgeTie
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
def pool_total(dice: int, *, exact: Literal[False] = ..., sides: int = ..., points: int = ...) -> Dist[float]: ...
@overload
def pool_total(dice: int, *, exact: Literal[True], sides: int = ..., points: int = ...) -> Dist[Fraction]: ...
def pool_total(dice: int, *, exact: bool = False, sides: int = DEFAULT_SIDES,
               points: int = 0) -> Dist[float] | Dist[Fraction]:
    """The total of ``dice`` dice of ``sides`` summed (no dice: 0 for certain), plus ``points`` (modifiers the
    GM's option counts in points)."""
    dice = max(0, dice)
    if exact:
        total = odds.sum_of(dice, odds.die(sides, exact=True)) if dice else odds.constant(0, exact=True)
        return total.shift(points) if points else total
    plain = odds.sum_of(dice, odds.die(sides)) if dice else odds.constant(0)
    return plain.shift(points) if points else plain


@overload
def success_probability(dice: int, difficulty: int, *, exact: Literal[False] = ..., sides: int = ...,
                        points: int = ...) -> float: ...
@overload
def success_probability(dice: int, difficulty: int, *, exact: Literal[True], sides: int = ...,
                        points: int = ...) -> Fraction: ...
def success_probability(dice: int, difficulty: int, *, exact: bool = False,
                        sides: int = DEFAULT_SIDES, points: int = 0) -> float | Fraction:
    """P(a pool of ``dice`` dice, plus ``points``, reaches ``difficulty``)."""
    if exact:
        return pool_total(dice, exact=True, sides=sides, points=points).at_least(difficulty)
    return pool_total(dice, sides=sides, points=points).at_least(difficulty)


@overload
def hit_probability(attack: int, defence: Defence, opposing: int, tie: DodgeTie = ...,
                    *, exact: Literal[False] = ..., sides: int = ..., attack_points: int = ...) -> float: ...
@overload
def hit_probability(attack: int, defence: Defence, opposing: int, tie: DodgeTie = ...,
                    *, exact: Literal[True], sides: int = ..., attack_points: int = ...) -> Fraction: ...
def hit_probability(attack: int, defence: Defence, opposing: int, tie: DodgeTie = DodgeTie.ATTACKER,
                    *, exact: bool = False, sides: int = DEFAULT_SIDES,
                    attack_points: int = 0) -> float | Fraction:
    """P(the attack gets through): ``opposing`` is the difficulty, or the defender's dice; ``attack_points`` are
    added to the attack's total."""
    if exact:
        return _hit(pool_total(attack, exact=True, sides=sides, points=attack_points), defence, opposing, tie,
                    exact=True, sides=sides)
    return _hit(pool_total(attack, sides=sides, points=attack_points), defence, opposing, tie, exact=False,
                sides=sides)


def _hit(attack: Dist[odds.P], defence: Defence, opposing: int, tie: DodgeTie, *, exact: bool,
         sides: int) -> odds.P:
    if defence is Defence.DIFFICULTY:
        return attack.at_least(opposing)
    other: Dist[odds.P] = (pool_total(opposing, exact=True, sides=sides) if exact  # type: ignore[assignment]
                           else pool_total(opposing, sides=sides))
    contest = odds.compare(attack, other)
    if defence is Defence.DODGE and tie is DodgeTie.DEFENDER:
        return contest.greater
    return contest.greater + contest.equal


@overload
def wound_class_distribution(dice: int, pyramid: Pyramid | None = ..., *,
                             exact: Literal[False] = ..., sides: int = ...,
                             points: int = ...) -> dict[str | None, float]: ...
@overload
def wound_class_distribution(dice: int, pyramid: Pyramid | None = ..., *,
                             exact: Literal[True], sides: int = ...,
                             points: int = ...) -> dict[str | None, Fraction]: ...
def wound_class_distribution(dice: int, pyramid: Pyramid | None = None, *,
                             exact: bool = False, sides: int = DEFAULT_SIDES,
                             points: int = 0) -> dict[str | None, float] | dict[str | None, Fraction]:
    """P(each wound class) for a damage roll of ``dice`` dice plus ``points`` (None: below the lightest class,
    no wound)."""
    chart = pyramid or load_tables().pyramid
    if exact:
        return _classes(pool_total(dice, exact=True, sides=sides, points=points), chart)
    return _classes(pool_total(dice, sides=sides, points=points), chart)


def _classes(total: Dist[odds.P], pyramid: Pyramid) -> dict[str | None, odds.P]:
    zero = total.probs[0] * 0
    result: dict[str | None, odds.P] = {None: zero, **dict.fromkeys(pyramid.keys, zero)}
    for value, probability in total.items():
        key = pyramid.classify(value)
        result[key] = result[key] + probability
    return result


@overload
def attack_outcome_distribution(attack: int, defence: Defence, opposing: int, damage: int | None,
                                pyramid: Pyramid | None = ..., tie: DodgeTie = ...,
                                *, exact: Literal[False] = ..., sides: int = ..., attack_points: int = ...,
                                damage_points: int = ...) -> dict[str, float]: ...
@overload
def attack_outcome_distribution(attack: int, defence: Defence, opposing: int, damage: int | None,
                                pyramid: Pyramid | None = ..., tie: DodgeTie = ...,
                                *, exact: Literal[True], sides: int = ..., attack_points: int = ...,
                                damage_points: int = ...) -> dict[str, Fraction]: ...
def attack_outcome_distribution(attack: int, defence: Defence, opposing: int, damage: int | None,
                                pyramid: Pyramid | None = None, tie: DodgeTie = DodgeTie.ATTACKER,
                                *, exact: bool = False, sides: int = DEFAULT_SIDES, attack_points: int = 0,
                                damage_points: int = 0) -> dict[str, float] | dict[str, Fraction]:
    """P(miss), P(a hit that wounds nobody) and P(each class of the first damage roll).

    ``damage`` is the damage dice of one roll (None: a hit makes no damage roll, e.g. a pistol shot out of a
    hand, reported as ``hit``). The keys are :data:`OUTCOMES` (with ``hit`` in place of the classes then).
    ``attack_points`` and ``damage_points`` are added to the rolls' totals (modifiers counted in points). A
    character's own pyramid gives its own class keys in place of the default ones.
    """
    if exact:
        return _outcomes(hit_probability(attack, defence, opposing, tie, exact=True, sides=sides,
                                         attack_points=attack_points), damage, pyramid,
                         exact=True, sides=sides, points=damage_points)
    return _outcomes(hit_probability(attack, defence, opposing, tie, sides=sides, attack_points=attack_points),
                     damage, pyramid, exact=False, sides=sides, points=damage_points)


def _outcomes(p_hit: odds.P, damage: int | None, pyramid: Pyramid | None, *, exact: bool,
              sides: int, points: int) -> dict[str, odds.P]:
    result: dict[str, odds.P] = {MISS: 1 - p_hit}
    if damage is None:
        result[HIT] = p_hit
        return result
    classes: dict[str | None, odds.P] = (wound_class_distribution(damage, pyramid, exact=True,  # type: ignore[assignment]
                                                                  sides=sides, points=points) if exact
                                        else wound_class_distribution(damage, pyramid, sides=sides, points=points))
    result[NO_WOUND] = p_hit * classes[None]
    for key in (pyramid or load_tables().pyramid).keys:
        result[key] = p_hit * classes[key]
    return result


def bullets_distribution(dice: int, difficulty: int, dodges: int, *,
                         sides: int = DEFAULT_SIDES) -> dict[int, float]:
    """P(taking ``k`` bullets) for each ``k`` of ``dodges`` dodges of ``dice`` dice against ``difficulty`` (a bullet
    for each dodge short of it)."""
    miss = 1 - success_probability(dice, difficulty, sides=sides)
    return {taken: comb(dodges, taken) * miss ** taken * (1 - miss) ** (dodges - taken)
            for taken in range(dodges + 1)}


@overload
def throw_distribution(dice: int, distance: int, *, exact: Literal[False] = ...,
                       sides: int = ..., points: int = ...) -> dict[int, float]: ...
@overload
def throw_distribution(dice: int, distance: int, *, exact: Literal[True],
                       sides: int = ..., points: int = ...) -> dict[int, Fraction]: ...
def throw_distribution(dice: int, distance: int, *, exact: bool = False,
                       sides: int = DEFAULT_SIDES, points: int = 0) -> dict[int, float] | dict[int, Fraction]:
    """P(the grenade lands ``d`` metres off target) for each ``d`` (0 = on target; a miss: distance − roll, the
    roll's total ``points`` more than its dice)."""
    total: Dist[float] | Dist[Fraction] = (pool_total(dice, exact=True, sides=sides, points=points) if exact
                                           else pool_total(dice, sides=sides, points=points))
    # Every roll of at least the distance lands on target; each shorter one lands its own distance off.
    result: dict[int, float | Fraction] = {0: total.at_least(distance)} if distance <= total.high else {}
    result.update((distance - value, probability) for value, probability in total.items() if value < distance)
    return dict(sorted(result.items()))  # type: ignore[return-value]
