"""SR3 damage codes typed as the GM's book writes them, stored canonical.

sr3.md: "Levels here are English L/M/S/D; the Czech L/M/V/S (lehké, mírné, vážné, smrtelné) has S = Deadly, V =
Serious (Czech 11V = 11S, Czech 9S = 9D)." A code typed in the attack dialog or the weapons table is read in the
letters of the GM's language and kept in English letters, so a fight or a roster reads the same in every language.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.errors import RulesError
from rules.systems import get_system
from rules.systems.sr3.damage import (
    DamageCode,
    canonical_damage_code,
    describe_damage_code,
    parse_damage_code,
    read_typed_damage_code,
)
from rules.systems.sr3.levels import LEVELS
from rules.systems.sr3.weapons import DAMAGE
from tests.rules.languages import install_rules_language

LANGUAGES = ("en", "cs", "pl", "ru")


@pytest.fixture
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    install_rules_language(request.param)
    yield request.param
    install_rules_language("en")


@pytest.mark.parametrize(("typed", "code"), [
    ("9M", DamageCode(9, "M")),
    ("9S", DamageCode(9, "S")),
    ("10 D", DamageCode(10, "D")),
    ("(STR+2)L Stun", DamageCode(2, "L", strength_based=True, stun=True)),
    ("str-1 m", DamageCode(-1, "M", strength_based=True)),
    ("8m stun", DamageCode(8, "M", stun=True)),
])
def test_in_english_the_letters_are_l_m_s_d(typed: str, code: DamageCode) -> None:
    assert read_typed_damage_code(typed) == code


@pytest.mark.parametrize("language", ["cs"], indirect=True)
@pytest.mark.parametrize(("typed", "stored"), [
    ("11V", "11S"),  # Czech 11V = 11S
    ("9S", "9D"),  # Czech 9S = 9D
    ("6L", "6L"),
    ("8M", "8M"),
    ("9D", "9D"),  # D claims no other level in Czech: still Deadly
    ("(STR+3)V", "(STR+3)S"),
    ("8M omráčení", "8M Stun"),
    ("8M omr", "8M Stun"),
    ("8M Stun", "8M Stun"),
])
def test_in_czech_the_book_letters_l_m_v_s_s_being_deadly(language: str, typed: str, stored: str) -> None:
    assert canonical_damage_code(typed) == stored


@pytest.mark.parametrize("language", ["pl"], indirect=True)
def test_in_polish_the_levels_are_their_own_abbreviations(language: str) -> None:
    assert read_typed_damage_code("6Śm") == DamageCode(6, "D")
    assert read_typed_damage_code("6 śr") == DamageCode(6, "M")
    assert read_typed_damage_code("6P ogłuszenie") == DamageCode(6, "S", stun=True)


@pytest.mark.parametrize("language", ["ru"], indirect=True)
def test_in_russian_the_levels_are_their_own_abbreviations(language: str) -> None:
    assert read_typed_damage_code("6Сер") == DamageCode(6, "S")
    assert read_typed_damage_code("9См") == DamageCode(9, "D")
    assert read_typed_damage_code("9Ср оглуш.") == DamageCode(9, "M", stun=True)


@pytest.mark.parametrize("language", LANGUAGES, indirect=True)
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])  # the language stays installed: no state
@given(power=st.integers(0, 30), level=st.sampled_from(LEVELS), strength=st.booleans(), stun=st.booleans())
def test_what_is_shown_reads_back_as_the_same_code(language: str, power: int, level: str, strength: bool,
                                                   stun: bool) -> None:
    code = DamageCode(power, level, strength_based=strength, stun=stun)
    assert read_typed_damage_code(describe_damage_code(code)) == code


@pytest.mark.parametrize(("language", "letters"), [("en", "L, M, S, D"), ("cs", "L, M, V, S")], indirect=["language"])
@pytest.mark.parametrize("typed", ["9X", "9", "M9", "9M blah", "9MMMM", ""])
def test_a_code_that_does_not_read_is_refused_naming_the_letters_of_the_language(language: str, letters: str,
                                                                                typed: str) -> None:
    with pytest.raises(RulesError, match=rf"\({letters}\)"):
        read_typed_damage_code(typed)


@pytest.mark.parametrize("language", ["cs"], indirect=True)
def test_the_weapons_table_shows_and_takes_the_czech_letters_and_stores_english_ones(language: str) -> None:
    system = get_system("sr3")
    assert system.shown_weapon_value(DAMAGE, "9D") == "9S"
    assert system.shown_weapon_value(DAMAGE, "6S Stun") == "6V omráčení"
    assert system.typed_weapon_value(DAMAGE, "9S") == "9D"
    assert system.typed_weapon_value(DAMAGE, "9Q") == "9Q"  # kept as typed: the check refuses it, saying why
    assert system.shown_weapon_value(DAMAGE, "9Q") == "9Q"
    assert system.shown_weapon_value("modes", "SA") == "SA"


def test_stored_codes_stay_english_whatever_the_language() -> None:
    install_rules_language("cs")
    try:
        assert parse_damage_code("9S") == DamageCode(9, "S")  # a stored code is never read in Czech letters
    finally:
        install_rules_language("en")
