"""P2: every odds query the dialogs make, ours against the same query built in icepool.

Each row is one computation a dialog runs when the GM changes a field (the call sites are named in
:data:`QUERIES`), with inputs of a typical table fight. Ours is timed *cold*: every cache of our engine is
cleared before each (separately timed) call, as for the first look at an attack. Icepool keeps its own
internal caches warm throughout, so its figures are if anything low. Our float results are compared with
icepool's exact fractions: the largest difference must stay within 1e-12.
"""

from __future__ import annotations

import functools
import statistics
import time
import timeit
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import icepool

import rules.odds
from rules.systems.clovek import odds as clovek_odds
from rules.systems.clovek.dice import SkillKind
from rules.systems.clovek.odds import PowerSpec
from rules.systems.clovek.rolls import PowerSource, base_power
from rules.systems.institut import odds as institut_odds
from rules.systems.institut.combat import Defence, DodgeTie
from rules.systems.institut.pyramid import CLASSES
from rules.systems.institut.tables import load_tables as institut_tables
from rules.systems.souboj import attack_odds, damage
from rules.systems.souboj.model import Kind
from rules.systems.souboj.tables import load_tables as souboj_tables
from rules.systems.sr3 import odds as sr3_odds
from rules.systems.walka import odds as walka_odds
from tests.rules.test_clovek_odds import BIG, icepool_outcomes, icepool_pool, icepool_totals, successes_of
from tests.rules.test_sr3_odds import oracle_outcomes as sr3_oracle
from tests.rules.test_walka_odds import oracle_outcomes as walka_oracle

#: Seconds spent measuring each side of each row (roughly), and at least this many calls.
BUDGET = 0.2
MIN_CALLS = 5
TOLERANCE = 1e-12

Table = Mapping[Any, float]
Exact = Mapping[Any, Fraction]


@dataclass(frozen=True)
class Query:
    """One dialog computation: where the UI makes it, ours, and icepool's construction of the same."""

    name: str
    ours: Callable[[], Table]
    oracle: Callable[[], Exact]


@dataclass(frozen=True)
class Row:
    """A measured query: seconds per call (ours cold and warm, icepool) and the largest difference."""

    name: str
    ours_cold: float
    ours_warm: float
    icepool: float
    difference: float

    @property
    def ratio(self) -> float:
        """How many times faster ours is (cold)."""
        return self.icepool / self.ours_cold


def clear_caches() -> None:
    """Forget every cached distribution of our engine (the data tables stay loaded, as in the window)."""
    for module in (rules.odds, sr3_odds, clovek_odds, institut_odds, walka_odds):
        for value in vars(module).values():
            if isinstance(value, functools._lru_cache_wrapper):
                value.cache_clear()


def per_call(call: Callable[[], object], before: Callable[[], object] | None = None) -> float:
    """Seconds per call: batched when nothing runs in between, else the median of calls timed after ``before``."""
    if before is None:
        start = time.perf_counter()
        call()
        first = time.perf_counter() - start
        if first > 5 * BUDGET:  # one slow call is a measurement already (and icepool's caches are warm now)
            return min(first, timeit.Timer(call).timeit(number=1))
        timer = timeit.Timer(call)
        number, _ = timer.autorange()
        return min(timer.repeat(repeat=3, number=number)) / number
    times: list[float] = []
    while sum(times) < BUDGET or len(times) < MIN_CALLS:
        before()
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def table(die: Any) -> dict[Any, Fraction]:
    """An icepool die as {outcome: exact probability}."""
    return {outcome: Fraction(p) for outcome, p in zip(die.outcomes(), die.probabilities(), strict=True)}


def difference(ours: Table, exact: Exact) -> float:
    """The largest absolute difference over every outcome either side names."""
    keys = set(ours) | set(exact)
    return max(abs(float(ours.get(key, 0.0)) - float(exact.get(key, Fraction(0)))) for key in keys)


# --- SR3: the attack dialog (ui/games/sr3/attack.py: attack_outcome_distribution) -------------------------


def sr3_queries() -> list[Query]:
    """A typical shot, and the largest pools the dialog allows in practice."""
    shots = [("sr3 attack 8d6 TN4, dodge 4 TN4, body 6 TN4, M", (8, 4, 4, 4, 6, 4, "M")),
             ("sr3 attack 20d6 TN6, dodge 12 TN5, body 14 TN6, D", (20, 6, 12, 5, 14, 6, "D"))]
    return [Query(name, functools.partial(sr3_odds.attack_outcome_distribution, *args),
                  functools.partial(sr3_oracle, args)) for name, args in shots]


# --- Institute: ui/games/institut/attack.py -----------------------------------------------------------------


def _institut_pool(dice: int) -> Any:
    return dice @ icepool.d6 if dice else icepool.Die([0])


def _institut_classes(dice: int) -> dict[str | None, Fraction]:
    pyramid = institut_tables().pyramid
    index: dict[str | None, int] = {None: -1, **{key: n for n, key in enumerate(CLASSES)}}
    counts = table(_institut_pool(dice).map(lambda total: index[pyramid.classify(total)], star=False))
    return {key: counts.get(index[key], Fraction(0)) for key in index}


def _institut_attack_oracle(attack: int, defence_dice: int, damage_dice: int) -> dict[str, Fraction]:
    hit = table((_institut_pool(attack) >= _institut_pool(defence_dice)).map(int, star=False)).get(1, Fraction(0))
    classes = _institut_classes(damage_dice)
    result = {institut_odds.MISS: 1 - hit, institut_odds.NO_WOUND: hit * classes[None]}
    result.update({key: hit * classes[key] for key in CLASSES})
    return result


def _institut_throw_oracle(dice: int, distance: int) -> dict[int, Fraction]:
    spread: dict[int, Fraction] = {}
    for total, p in table(_institut_pool(dice)).items():
        spread[max(0, distance - total)] = spread.get(max(0, distance - total), Fraction(0)) + p
    return spread


def _suppression_ours(dodge: int, difficulty: int, damage_dice: int) -> dict[Any, float]:
    """What the suppression page shows: P(gets through), then the wound classes of the others."""
    through = institut_odds.success_probability(dodge, difficulty)
    classes = institut_odds.wound_class_distribution(damage_dice)
    return {"through": through, **{key: (1 - through) * p for key, p in classes.items()}}


def _suppression_oracle(dodge: int, difficulty: int, damage_dice: int) -> dict[Any, Fraction]:
    through = table((_institut_pool(dodge) >= difficulty).map(int, star=False)).get(1, Fraction(0))
    return {"through": through, **{key: (1 - through) * p for key, p in _institut_classes(damage_dice).items()}}


def institut_queries() -> list[Query]:
    """Attack (dodge contest and wound classes), grenade throw, suppressive fire."""
    return [
        Query("institut attack 8d6 vs dodge 6d6, damage 4d6",
              lambda: institut_odds.attack_outcome_distribution(8, Defence.DODGE, 6, 4, None, DodgeTie.ATTACKER),
              lambda: _institut_attack_oracle(8, 6, 4)),
        Query("institut grenade throw 6d6 at 12 m",
              lambda: institut_odds.throw_distribution(6, 12), lambda: _institut_throw_oracle(6, 12)),
        Query("institut suppression dodge 5d6 vs 12, damage 4d6",
              lambda: _suppression_ours(5, 12, 4), lambda: _suppression_oracle(5, 12, 4)),
    ]


# --- Člověk: ui/widgets/clovek_check_form.py (outcome_rows, power_rows) ---------------------------------------


def _clovek_outcomes_ours() -> dict[str, float]:
    attack = clovek_odds.roll_odds(5, 3, SkillKind.ABILITY)
    return clovek_odds.outcome_odds(attack, 1, 0)


def _clovek_outcomes_oracle() -> dict[str, Fraction]:
    depth = len(clovek_odds.exact_roll_odds(5, 3).dist.probs) + 2
    return icepool_outcomes(icepool_totals(5, 3, SkillKind.ABILITY, False, depth), 1, 0)


SPEC = PowerSpec(PowerSource.EQUIPMENT, 3)
#: Success counts this unlikely are left out of icepool's mix (exploding dice make the tail endless).
NEGLIGIBLE = Fraction(1, 10**16)


def _clovek_power_ours() -> dict[int, float]:
    attack = clovek_odds.modified(clovek_odds.roll_odds(4, 3, SkillKind.ABILITY), 1, 0)
    defence = clovek_odds.modified(clovek_odds.roll_odds(2, 2, SkillKind.ABILITY), 0, 0)
    return clovek_odds.action_power_odds(clovek_odds.net_successes(attack, defence), SPEC).to_dict()


def _clovek_power_oracle() -> dict[int, Fraction]:
    """Net successes from icepool (the defence's successes come off the attack's), then a power roll of that many
    dice for each, from icepool too, mixed by the chance of each."""
    depth = len(clovek_odds.exact_roll_odds(4, 3).dist.probs) + 2

    def net(total: int, defended: int) -> int:
        rolled = total % BIG
        if total >= BIG and rolled == 0:
            return 0  # a critical failure gets nothing through
        final = rolled + (1 if rolled > 0 else 0)
        return max(0, final - defended) if final > 0 else 0

    attack = icepool_totals(4, 3, SkillKind.ABILITY, False, depth)
    defence = successes_of(icepool_totals(2, 2, SkillKind.ABILITY, False, depth))
    through: dict[int, Fraction] = {}
    for total, p in attack.items():
        for defended, q in defence.items():
            through[net(total, defended)] = through.get(net(total, defended), Fraction(0)) + p * q
    mixed: dict[int, Fraction] = {}
    one_die = icepool_pool(1, SPEC.value, SkillKind.ABILITY, False, depth, critical_top=SPEC.critical_range)
    for dice, weight in through.items():
        if dice == 0 or weight < NEGLIGIBLE:  # together far below the 1e-12 the rows are compared at
            continue
        for total, p in table(dice @ one_die).items():
            rolled = total % BIG
            power = 1 - SPEC.penalty if total >= BIG and rolled == 0 else (
                base_power(SPEC.source, SPEC.value, SPEC.drop_base) + rolled + SPEC.bonus - SPEC.penalty)
            mixed[power] = mixed.get(power, Fraction(0)) + weight * p
    return mixed


def clovek_queries() -> list[Query]:
    """The check's outcome words; the action's power, 4 dice (skill 3, +1) against a defence of 2 (skill 2)."""
    return [Query("clovek check 5d10 skill 3, +1 bonus: outcomes", _clovek_outcomes_ours, _clovek_outcomes_oracle),
            Query("clovek action power, 4d10 vs defence 2d10", _clovek_power_ours, _clovek_power_oracle)]


# --- Souboj: ui/widgets/souboj_attack_parts.py (attack_odds) --------------------------------------------------


def _souboj_ours() -> dict[int, float]:
    odds = attack_odds(3, 2, Kind.MELEE, 2, 1, 1, souboj_tables())
    return {-1: odds.miss, **odds.damage}


def _souboj_oracle() -> dict[int, Fraction]:
    def outcome(attack: int, defence: int) -> int:
        return -1 if attack < defence + 1 else damage(attack, defence, Kind.MELEE.value, 2, 1)

    return table(icepool.map(outcome, icepool.d6 + 3, icepool.d6 + 2))


# --- Walka: ui/widgets/walka_attack_form.py (outcome_chances, hit_points_lost) ---------------------------------


def _walka_ours() -> dict[Any, float]:
    chances = walka_odds.outcome_chances(12, 10, 20, 1, 0, 0, 1)
    lost = walka_odds.hit_points_lost(5)
    return {**{outcome.value: p for outcome, p in chances.items()},
            **{("lost", removed): lost.probability(removed) for removed in range(6)}}


def _walka_oracle() -> dict[Any, Fraction]:
    chances = walka_oracle(12, 10, 20, 1, 0, 0, 1)
    lost = table(5 @ (icepool.d6 >= 4))
    return {**{outcome.value: p for outcome, p in chances.items()},
            **{("lost", removed): lost.get(removed, Fraction(0)) for removed in range(6)}}


def other_queries() -> list[Query]:
    """Souboj's attack and Walka's contest with its Hit Points lost."""
    return [Query("souboj melee d6+3 vs d6+2, strength 2, armor 1", _souboj_ours, _souboj_oracle),
            Query("walka d20 skill 12 (+1 die) vs 10 (-1 die), 5d6 pool", _walka_ours, _walka_oracle)]


QUERIES: list[Callable[[], list[Query]]] = [sr3_queries, institut_queries, clovek_queries, other_queries]


def measure(query: Query) -> Row:
    """Time both sides and compare the results."""
    clear_caches()
    gap = difference(query.ours(), query.oracle())
    return Row(query.name, per_call(query.ours, before=clear_caches), per_call(query.ours), per_call(query.oracle),
               gap)


def run() -> list[Row]:
    """Every query the UI makes, measured."""
    return [measure(query) for make in QUERIES for query in make()]
