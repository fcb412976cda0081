"""Souboj's arithmetic: the digest's damage rules and worked example, criticals, data tables, options."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.combatants import SetOption
from rules.errors import RulesError
from rules.systems.base import OptionKind
from rules.systems.souboj import critical_multiplier, damage
from rules.systems.souboj.combat import Rounding, base_damage, roll_bonus, shadow_removed
from rules.systems.souboj.model import Kind
from rules.systems.souboj.system import tables
from rules.systems.souboj.tables import load_tables
from tests.rules.test_souboj_scene import SOUBOJ, fight

# --- the worked example: attack 30 against defence 25 ---------------------------------------------------------


def test_thirty_against_twenty_five_is_base_five() -> None:
    assert base_damage(30, 25) == 5
    assert damage(30, 25, "firearm") == 5  # firearm: the base, nothing else


@pytest.mark.parametrize(("kind", "expected"), [
    ("ranged", 5 - 2),  # base − armor
    ("thrown", 5 + 4 - 2),  # base + Strength − armor
    ("firearm", 5),  # base: no armor, no Strength
    ("melee", 5 + 4 - 2),  # base + Strength − armor
    ("unarmed", 5 + 4 - 2),  # face to face without a weapon: as melee
])
def test_damage_by_kind_for_base_five_strength_four_armor_two(kind: str, expected: int) -> None:
    assert damage(30, 25, kind, strength=4, armor=2) == expected


@pytest.mark.parametrize("kind", ["ranged", "thrown", "firearm", "melee"])
def test_a_hit_needs_the_attack_to_beat_the_defence_by_one(kind: str) -> None:
    assert damage(25, 25, kind, strength=9) == 0  # a tie is no hit, whatever Strength adds
    assert damage(24, 25, kind, strength=9) == 0
    assert damage(26, 25, kind) == 1


def test_armor_never_makes_damage_negative() -> None:
    assert damage(26, 25, "ranged", armor=5) == 0
    assert damage(26, 25, "melee", strength=1, armor=9) == 0


def test_magic_and_unknown_kinds_are_refused_with_a_message() -> None:
    with pytest.raises(RulesError, match="spell"):
        damage(30, 25, "magic")
    with pytest.raises(RulesError, match="Unknown kind"):
        damage(30, 25, "catapult")


@given(st.integers(-50, 80), st.integers(-50, 80), st.sampled_from(["ranged", "thrown", "firearm", "melee"]),
       st.integers(0, 20), st.integers(0, 20))
def test_damage_follows_the_digest_for_any_numbers(attack: int, defence: int, kind: str, strength: int,
                                                   armor: int) -> None:
    base = attack - defence
    expected = {"ranged": base - armor, "thrown": base + strength - armor, "firearm": base,
                "melee": base + strength - armor}[kind]
    assert damage(attack, defence, kind, strength, armor) == (max(0, expected) if base >= 1 else 0)


# --- attack and defence rolls, criticals ----------------------------------------------------------------------


def test_the_attack_and_defence_table() -> None:
    tables = load_tables()
    attributes = {"strength": 7, "dexterity": 5, "weapon_strength": 4, "weapon_defence": 2}
    expected = {  # (attack bonus, defence bonus) added to the two 1d6 rolls
        Kind.RANGED: (5 + 4, 5 + 2), Kind.THROWN: (5 + 4, 5 + 2), Kind.FIREARM: (4, 5),
        Kind.MELEE: (7 + 4, 5 + 2), Kind.UNARMED: (7, 5 + 2)}
    for kind, (attack, defence) in expected.items():
        rule = tables.rule(kind)
        assert (roll_bonus(rule.attack, attributes), roll_bonus(rule.defence, attributes)) == (attack, defence)
    assert roll_bonus(tables.rule(Kind.UNARMED).defence, {"dexterity": 5}) == 5  # a defender without a weapon


@pytest.mark.parametrize(("level", "multiplier"), [(1, 1), (4, 4), (10, 10), (11, 10), (30, 10)])
def test_a_critical_hit_multiplies_by_the_level_but_at_most_ten(level: int, multiplier: int) -> None:
    assert critical_multiplier(level) == multiplier


def test_only_melee_may_be_flat_and_only_firearms_critical_on_the_gms_call() -> None:
    tables = load_tables()
    assert {kind for kind in tables.kinds if tables.rule(kind).flat} == {Kind.MELEE, Kind.UNARMED}
    assert {kind for kind in tables.kinds if tables.rule(kind).gm_critical} == {Kind.FIREARM}


# --- shadow damage fading (Decision: round the removed part down) -----------------------------------------------


@pytest.mark.parametrize(("shadow", "down", "up", "nearest"), [
    (0, 0, 0, 0), (1, 0, 1, 1), (2, 1, 2, 2), (4, 3, 3, 3), (10, 7, 8, 8), (11, 8, 9, 8), (13, 9, 10, 10)])
def test_three_quarters_of_the_shadow_damage_fade(shadow: int, down: int, up: int, nearest: int) -> None:
    part = Fraction(3, 4)
    assert shadow_removed(shadow, part, Rounding.DOWN) == down
    assert shadow_removed(shadow, part, Rounding.UP) == up
    assert shadow_removed(shadow, part, Rounding.NEAREST) == nearest


def test_every_decision_is_an_option_with_the_digests_default() -> None:
    specs = {spec.key: spec for spec in SOUBOJ.option_specs()}
    assert specs["shadow_rounding"].default == "down"
    assert {value for value, _label in specs["shadow_rounding"].choices} == {"down", "up", "nearest"}
    assert specs["surprise"].default == "none"
    assert {value for value, _label in specs["surprise"].choices} == {"none", "readier_first", "attackers_only",
                                                                      "reactions_only"}
    assert specs["tables"].kind is OptionKind.TABLE and specs["tables"].default == {}


# --- the data tables and the GM's overrides ----------------------------------------------------------------------


def test_bundled_tables_hold_the_digests_numbers() -> None:
    tables = load_tables()
    assert tables.critical_cap == 10
    assert tables.shadow_recovery_rounds == 60  # 10 minutes of 10-second rounds
    assert tables.seconds_per_round == 10
    assert tables.shadow_removed == Fraction(3, 4)


def test_an_override_merges_key_by_key() -> None:
    tables = load_tables({"critical_cap": 5, "kinds": {"thrown": {"damage_armor": False}}})
    assert tables.critical_cap == 5
    assert critical_multiplier(8, tables) == 5
    assert not tables.rule(Kind.THROWN).damage_armor
    assert tables.rule(Kind.THROWN).damage_strength  # the rest of the row is the bundled one


@pytest.mark.parametrize(("override", "message"), [
    ({"critical_cap": 0}, "critical_cap"),
    ({"critical_cap": True}, "critical_cap"),
    ({"kinds": {"melee": {"attack": ["luck"]}}}, r"kinds\.melee\.attack"),
    ({"kinds": {"melee": {"flat": "yes"}}}, r"kinds\.melee\.flat"),
    ({"shadow_removed": {"numerator": 5, "denominator": 4}}, "shadow_removed"),
    ({"kinds": {"catapult": {}}}, r"kinds\.catapult"),
    ({"colour": "red"}, "colour"),
])
def test_a_bad_override_is_refused_naming_the_key(override: dict[str, object], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        load_tables(override)


def test_the_gm_sets_tables_through_an_option_that_validates_them() -> None:
    history, _ids = fight()
    with pytest.raises(RulesError, match="critical_cap"):
        history.do(SetOption("tables", {"critical_cap": -1}))
    history.do(SetOption("tables", {"critical_cap": 3}))
    assert tables(history.state).critical_cap == 3
