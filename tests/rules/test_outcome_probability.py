"""RuleSystem.outcome_probability for every game, against brute force over every face the dice can show.

Each test enumerates all the faces of a small roll, *applies the operation* to a real encounter and reads the
outcome off what happened (the log, the target's track), so the distribution is built without the game's
odds code. The hook must give, for each outcome that can happen, the tail of that distribution at the
outcome's end: min(P(X ≤ x), P(X ≥ x)) on the game's scale.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import TypeVar

import pytest

from rules.combatants import AddCombatant
from rules.encounter import Encounter, Side, frozen_map
from rules.errors import OperationError
from rules.history import Operation
from rules.odds import extreme_tail
from rules.systems import get_system, system_ids
from rules.systems.base import RuleSystem
from rules.systems.clovek import ClovekCheck, SkillRoll
from rules.systems.clovek import outcomes as clovek_outcomes
from rules.systems.clovek.dice import CRITICAL_FAILURE
from rules.systems.institut import InstitutAttack, SuppressionFire, ThrowGrenade
from rules.systems.institut import SuppressionDodge as Suppression
from rules.systems.institut import outcomes as institut_outcomes
from rules.systems.institut.pyramid import CLASS_LABELS, CLASSES
from rules.systems.souboj.attack import SoubojAttack
from rules.systems.souboj.model import Cause, Kind
from rules.systems.sr3 import Sr3Attack
from rules.systems.sr3 import outcomes as sr3_outcomes
from rules.systems.sr3.levels import LEVEL_BOXES
from rules.systems.walka import WalkaAttack
from rules.turns import RollInitiative

TOLERANCE = 1e-12
CLOVEK_LADDER = ("critical", "failure", "basic", "full", "very_good", "total")
K = TypeVar("K")


def encounter(system_id: str, **people: dict[str, int]) -> Encounter:
    """An encounter of the game with the named combatants (ids are their names), not started."""
    system = get_system(system_id)
    state = Encounter(system_id, options=frozen_map(system.default_options()))
    for name, attributes in people.items():
        side = Side.PLAYER if name == "hero" else Side.OPPONENT
        state = AddCombatant(name, name, side, frozen_map(attributes)).apply(state, system).encounter
    return state


def log_text(operation: Operation, state: Encounter, system: RuleSystem) -> str:
    return "\n".join(line.render() for line in operation.apply(state, system).log)


def distribution(cases: Iterator[tuple[Fraction, K]]) -> dict[K, Fraction]:
    """Sum the weights of each outcome."""
    result: dict[K, Fraction] = {}
    for weight, key in cases:
        result[key] = result.get(key, Fraction(0)) + weight
    return result


def check_tails(scale: Sequence[K], dist: dict[K, Fraction], example: Mapping[K, Operation], state: Encounter,
                system: RuleSystem) -> None:
    """The hook's value for an example of each outcome equals the brute-force tail at that outcome."""
    assert sum(dist.values()) == 1
    ordered = [dist.get(key, Fraction(0)) for key in scale]
    for key, operation in example.items():
        expected = float(extreme_tail(ordered, scale.index(key)))
        assert system.outcome_probability(operation, state) == pytest.approx(expected, abs=TOLERANCE), key


def faces(count: int, sides: int = 6) -> Iterator[tuple[int, ...]]:
    return itertools.product(range(1, sides + 1), repeat=count)


# --- Shadowrun 3 -------------------------------------------------------------------------------------


def sr3_read(text: str, boxes: int) -> str:
    """The attack's outcome as the log and the monitor tell it."""
    if "The attack misses." in text:
        return "miss"
    if "dodges the attack completely" in text:
        return "dodged"
    if "staged away" in text:
        return "none"
    return {value: level for level, value in LEVEL_BOXES.items()}[boxes]


def test_sr3_attack_against_every_face() -> None:
    system, state = get_system("sr3"), encounter("sr3", hero={"body": 4}, ganger={"body": 4})
    dist: dict[str, Fraction] = {}
    example: dict[str, Operation] = {}
    weight = Fraction(1, 6**5)
    for attack, dodge, resist in itertools.product(faces(1), faces(2), faces(2)):
        operation = Sr3Attack("hero", "ganger", "Pistol", 6, "L", 4, tuple((f,) for f in attack), 3,
                              tuple((f,) for f in resist), dodge_tn=5, dodge_faces=tuple((f,) for f in dodge))
        after = operation.apply(state, system).encounter
        key = sr3_read(log_text(operation, state, system), after.combatant("ganger").boxes("physical"))
        assert sr3_outcomes.outcome_key(operation) == key
        dist[key] = dist.get(key, Fraction(0)) + weight
        example.setdefault(key, operation)
    assert set(example) == {"miss", "dodged", "none", "L"}  # one attack die cannot stage Light up
    check_tails(("miss", "dodged", "none", "L", "M", "S", "D"), dist, example, state, system)


def test_sr3_misfire_is_as_unlikely_as_all_ones() -> None:
    system, state = get_system("sr3"), encounter("sr3", hero={"body": 4}, ganger={"body": 4})
    misfire = Sr3Attack("hero", "ganger", "Pistol", 6, "M", 4, ((1,), (1,), (1,)), 6, ((3,), (4,)), ammo="ex",
                        misfire_roll=3)
    assert "detonates in the weapon" in log_text(misfire, state, system)
    assert system.outcome_probability(misfire, state) == pytest.approx(1 / 216, abs=TOLERANCE)


# --- Walka ---------------------------------------------------------------------------------------------


def walka_cases(state: Encounter, system: RuleSystem, bonus: int) -> Iterator[tuple[Fraction, int, Operation]]:
    """(weight, scale index, attack) for every attack, defence and damage face (pool: weapon − armor 1)."""
    attack_dice, pool = 1 + bonus, 2 - bonus  # a smaller pool where the attack rolls more dice: fewer cases
    for attack, defence in itertools.product(faces(attack_dice, 20), faces(1, 20)):
        base = WalkaAttack("hero", "ganger", "firearms", 11, "dodge", 9, attack, defence, attack_bonus=bonus,
                           weapon="SMG", weapon_dice=pool + 1, armor=1, counts_as_action=False)
        weight = Fraction(1, 20 ** (attack_dice + 1))
        try:
            text = log_text(base, state, system)
        except OperationError:  # a hit needs its damage dice
            for damage in faces(pool):
                hit = replace(base, damage_faces=damage)
                lost = hit.apply(state, system).encounter.combatant("ganger").boxes("hp")
                yield weight / 6**pool, 2 + lost, hit
            continue
        yield weight, 0 if "The attack misses." in text else 1, base


@pytest.mark.parametrize("bonus", [0, 1])
def test_walka_attack_against_every_face(bonus: int) -> None:
    system = get_system("walka")
    state = encounter("walka", hero={"firearms": 11, "hit_points": 8}, ganger={"dodge": 9, "hit_points": 8})
    cases = list(walka_cases(state, system, bonus))
    dist = distribution((weight, index) for weight, index, _op in cases)
    example = {index: operation for _weight, index, operation in cases}
    scale = list(range(5 - bonus))  # missed, defended, a hit taking 0 … pool Hit Points
    assert set(example) == set(scale)
    check_tails(scale, dist, example, state, system)


# --- Souboj --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("causes", [(), (Cause.BEHIND,)])
def test_souboj_attack_against_every_face(causes: tuple[Cause, ...]) -> None:
    system = get_system("souboj")
    state = encounter("souboj", hero={"strength": 3, "level": 3, "hit_points": 99},
                      ganger={"hit_points": 99, "armor": 1})

    def read(attack: SoubojAttack) -> int:
        after = attack.apply(state, system).encounter
        if "The attack misses." in log_text(attack, state, system):
            return -1
        return after.combatant("ganger").boxes("wounds")

    attacks = [SoubojAttack("hero", "ganger", Kind.MELEE, "sword", 8, 9, a, d, strength=3, armor=1, level=3,
                            causes=causes) for a, d in faces(2)]
    dist = distribution((Fraction(1, 36), read(attack)) for attack in attacks)
    example = {read(attack): attack for attack in attacks}
    assert len(example) > 4
    check_tails(sorted(dist), dist, example, state, system)


def test_souboj_spell_rolls_nothing_here() -> None:
    system = get_system("souboj")
    state = encounter("souboj", hero={"hit_points": 20}, ganger={"hit_points": 20})
    spell = SoubojAttack("hero", "ganger", Kind.MAGIC, "fire bolt", spell_damage=7)
    assert system.outcome_probability(spell, state) is None


# --- Institute -----------------------------------------------------------------------------------------


def institut_read(text: str, wound_log: str | None) -> str:
    if "dodges the attack" in text:
        return "miss"
    if "below the pyramid" in text:
        return "none"
    assert wound_log is not None
    return {label: key for key, label in CLASS_LABELS.items()}[wound_log]


def test_institut_attack_against_every_face() -> None:
    system, state = get_system("institut"), encounter("institut", hero={"shooting": 2}, ganger={"dodge": 1})
    dist: dict[str, Fraction] = {}
    example: dict[str, Operation] = {}
    for attack, dodge in itertools.product(faces(2), faces(1)):
        miss = InstitutAttack("hero", "ganger", "pistol", attack, "dodge", dodge)
        if "dodges the attack" in log_text(miss, state, system):
            dist["miss"] = dist.get("miss", Fraction(0)) + Fraction(1, 216)
            example.setdefault("miss", miss)
            continue
        for damage in faces(2):
            hit = InstitutAttack("hero", "ganger", "pistol", attack, "dodge", dodge, damage_rolls=(damage,))
            lines = hit.apply(state, system).log
            wound = next((str(line.args["wound"]) for line in lines if "wound" in line.args), None)
            key = institut_read("\n".join(line.render() for line in lines), wound)
            assert institut_outcomes.attack_key(hit, state, system) == key
            dist[key] = dist.get(key, Fraction(0)) + Fraction(1, 216 * 36)
            example.setdefault(key, hit)
    assert len(example) >= 4
    check_tails(("miss", "none", *CLASSES), dist, example, state, system)


def test_institut_throw_and_suppression_dodge_against_every_face() -> None:
    system = get_system("institut")
    state = encounter("institut", hero={"athletics": 2}, ganger={"dodge": 2})
    throws = [ThrowGrenade("hero", "F-1", 8, pair, timed=True) for pair in faces(2)]
    dist = distribution((Fraction(1, 36), max(0, 8 - sum(t.throw_faces))) for t in throws)
    example = {max(0, 8 - sum(t.throw_faces)): t for t in throws}
    check_tails(sorted(dist), dist, example, state, system)
    fire = SuppressionFire("hero", "the yard", 1, 2, weapon="AK", damage=3)  # difficulty 2 bullets × 4 = 8
    count = {cid: system.initiative_dice(c, state).count for cid, c in state.combatants.items()}
    rolls = {"hero": (6,) * count["hero"], "ganger": (1,) * count["ganger"]}
    running = RollInitiative(frozen_map(rolls), frozen_map()).apply(state, system)
    suppressed = fire.apply(running.encounter, system).encounter
    dodges = [Suppression("ganger", "hero", pair, (1, 1, 1)) for pair in faces(2)]
    made = Fraction(sum(1 for d in dodges if "gets through unhurt" in log_text(d, suppressed, system)), 36)
    for dodge in dodges:
        through = "gets through unhurt" in log_text(dodge, suppressed, system)
        assert system.outcome_probability(dodge, suppressed) == pytest.approx(float(made if through else 1 - made))


# --- Člověk ------------------------------------------------------------------------------------------------


def clovek_chains(depth: int) -> list[tuple[Fraction, tuple[int, ...]]]:
    """One die's chains at skill 3 (success on 7+, a 10 rolls again, critical on a first 1 or 2), by classes:
    a representative face per class with the class's weight; ten after ten up to ``depth`` dice."""
    first: list[tuple[Fraction, tuple[int, ...]]] = [(Fraction(2, 10), (1,)), (Fraction(4, 10), (5,)),
                                                      (Fraction(3, 10), (8,))]
    rerolled = [(Fraction(6, 10), 5), (Fraction(3, 10), 8)]
    chains = list(first)
    tens: tuple[int, ...] = ()
    weight = Fraction(1)
    for _level in range(depth):
        tens, weight = (*tens, 10), weight / 10
        chains += [(weight * w, (*tens, face)) for w, face in rerolled]
    return chains


def test_clovek_check_against_every_class_of_face() -> None:
    system = get_system("clovek")
    people = {"agility": 3, "constitution": 3}
    state = encounter("clovek", hero=people, ganger=people)
    depth = 3
    one_die = clovek_chains(depth)
    left_out = 1 - sum(w for w, _chain in one_die)  # ten after ten after ten: not enumerated
    dist: dict[str, Fraction] = {}
    example: dict[str, Operation] = {}
    for (w1, c1), (w2, c2), (w3, c3) in itertools.product(one_die, repeat=3):
        check = ClovekCheck("hero", SkillRoll("physical", (c1, c2), 3, bonus=1), target="ganger",
                            defence=SkillRoll("physical", (c3,), 3))
        outcome = check_outcome_word(check, state, system)
        assert clovek_outcomes.check_key(check) == outcome
        dist[outcome] = dist.get(outcome, Fraction(0)) + w1 * w2 * w3
        example.setdefault(outcome, check)
    assert set(example) >= {"critical", "failure", "basic", "full", "very_good"}
    for key, operation in example.items():
        ordered = [dist.get(k, Fraction(0)) for k in CLOVEK_LADDER]
        brute = extreme_tail(ordered, CLOVEK_LADDER.index(key))
        probability = system.outcome_probability(operation, state)
        # The unenumerated chains may sit on either side of the outcome: at most their mass, for each die.
        assert probability is not None and abs(probability - float(brute)) <= 3 * left_out + TOLERANCE


def check_outcome_word(check: ClovekCheck, state: Encounter, system: RuleSystem) -> str:
    """The outcome as the log tells it: the roller's critical failure, or what got through the defence."""
    lines = check.apply(state, system).log
    if next(line.args["outcome"] for line in lines if "outcome" in line.args) == CRITICAL_FAILURE:
        return "critical"  # the roller's own successes line comes first (the defender's follows)
    through = [line for line in lines if line.text.endswith("get through {name}'s defence.")
               or line.text.endswith("gets through {name}'s defence.")]
    if not through:
        return "failure"
    net = int(through[0].args["count"])  # 1 basic, 2 full, 3–4 very good, 5 or more total success
    return ("basic", "full", "very_good", "very_good")[net - 1] if net < 5 else "total"


def test_games_say_none_for_what_rolls_no_dice() -> None:
    for system_id in system_ids():
        system = get_system(system_id)
        state = encounter(system_id, hero={}, ganger={})
        assert system.outcome_probability(AddCombatant("x", "X"), state) is None


def test_extreme_tail_counts_from_the_end_the_outcome_lies_on() -> None:
    ordered = [Fraction(1, 10), Fraction(6, 10), Fraction(3, 10)]
    assert extreme_tail(ordered, 0) == Fraction(1, 10)
    assert extreme_tail(ordered, 1) == Fraction(7, 10)
    assert extreme_tail(ordered, 2) == Fraction(3, 10)
    with pytest.raises(ValueError):
        extreme_tail(ordered, 3)

