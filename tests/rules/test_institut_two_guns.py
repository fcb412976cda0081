"""Two guns at once with the second gun a weapon of its own (issue 15), from institut.md's words: "only identical
weapons that can be held in one hand (pistols, at most SMGs; not an AK-47). Identical: two shots at one target from
one attack roll at an extra −1, then two damage rolls. Different guns: one bullet always misses. Bursts are allowed
but useless. Decision: different guns: one damage roll, the −1 still applies"."""

from __future__ import annotations

import re

import pytest

from rules.errors import OperationError, RulesError
from rules.serialize import history_from_document, history_to_document, to_data
from rules.systems.institut import InstitutAttack
from rules.systems.institut.arms import ready_made
from rules.systems.institut.combat import FireMode, Shot, attack_pool, damage_rolls, rounds_fired, wounds_per_hit
from rules.systems.institut.tables import Burst, load_tables
from rules.systems.institut.two_guns import check_pair, identical, second_gun_choices, second_gun_rounds
from tests.rules.test_institut_weapons import armed, in_round, rounds_left

MODS = load_tables().modifiers
LEFT, RIGHT = ready_made("Makarov", "Makarov (left)"), ready_made("Makarov", "Makarov (right)", rounds=5)
AK, KEDR = ready_made("AK-74"), ready_made("Kedr SMG", "Kedr")


def pair_shot(ids: dict[str, str], second: str, second_rounds: int = 1, **changes: object) -> InstitutAttack:
    """Sokolov fires two guns at Bandit 1: 14 against a dodge of 7, two damage rolls of 10 points."""
    fields: dict[str, object] = {
        "attacker": ids["Sokolov"], "target": ids["Bandit 1"], "weapon": "Makarov (left)", "attack_faces": (6, 4, 4),
        "defence_faces": (4, 3), "damage_rolls": ((5, 5), (5, 5)), "rounds": 1, "saved_weapon": "Makarov (left)",
        "second_weapon": second, "second_rounds": second_rounds, **changes}
    return InstitutAttack(**fields)  # type: ignore[arg-type]


def test_each_gun_loses_its_own_round_and_the_log_says_what_each_has_left() -> None:
    history, ids = armed({"Sokolov": (LEFT, RIGHT, AK)})
    in_round(history, ids)
    history.do(pair_shot(ids, "Makarov (right)"))
    assert rounds_left(history, ids["Sokolov"], "Makarov (left)") == 7  # 8 − 1
    assert rounds_left(history, ids["Sokolov"], "Makarov (right)") == 4  # 5 − 1
    text = history.entries[-1].text()
    assert "Second gun: Makarov (right)." in text
    assert text.endswith("Makarov (left): 7 rounds left.\nMakarov (right): 4 rounds left.")


def test_undo_gives_each_gun_its_round_back() -> None:
    history, ids = armed({"Sokolov": (LEFT, RIGHT)})
    in_round(history, ids)
    before = history.state
    history.do(pair_shot(ids, "Makarov (right)"))
    history.undo()
    assert history.state == before


def test_bursts_from_two_guns_take_each_guns_burst_but_hit_no_more() -> None:
    """"Bursts are allowed but useless": each Kedr fires its 3-round burst, a hit still puts one wound."""
    other = ready_made("Kedr SMG", "Kedr 2")
    history, ids = armed({"Sokolov": (KEDR, other)})
    in_round(history, ids)
    history.do(pair_shot(ids, "Kedr 2", second_gun_rounds(other, bursts=True), saved_weapon="Kedr", rounds=3))
    assert (rounds_left(history, ids["Sokolov"], "Kedr"), rounds_left(history, ids["Sokolov"], "Kedr 2")) == (17, 17)
    shot = Shot(mode=FireMode.TWO_GUNS, burst=Burst(3, 2), bursts=True, second_gun=True)
    assert (rounds_fired(shot, MODS), wounds_per_hit(shot, MODS)) == (3, 1)


def test_a_burst_from_a_gun_that_fires_none_is_refused() -> None:
    with pytest.raises(RulesError, match="Makarov \\(right\\) fires no bursts"):
        second_gun_rounds(RIGHT, bursts=True)
    assert second_gun_rounds(RIGHT, bursts=False) == 1


@pytest.mark.parametrize("gun", [AK, ready_made("Sawn-off")])
def test_a_gun_not_held_in_one_hand_is_refused_quoting_the_rule(gun: object) -> None:
    history, ids = armed({"Sokolov": (LEFT, gun)})  # type: ignore[dict-item]
    in_round(history, ids)
    before = history.state
    with pytest.raises(OperationError, match=re.escape("two guns at once only “if you can hold them in one hand” "
                                                       "(pistols, at most submachine guns; not an AK-47).")):
        history.do(pair_shot(ids, gun.name))  # type: ignore[attr-defined]
    assert history.state == before


def test_an_empty_second_gun_is_refused_and_nothing_is_fired() -> None:
    history, ids = armed({"Sokolov": (LEFT, ready_made("Makarov", "Makarov (right)", rounds=0))})
    in_round(history, ids)
    before = history.state
    with pytest.raises(OperationError, match=re.escape("Makarov (right) is empty: change its magazine first")):
        history.do(pair_shot(ids, "Makarov (right)"))
    assert history.state == before


def test_the_first_gun_cannot_be_its_own_second_gun_nor_one_not_carried() -> None:
    history, ids = armed({"Sokolov": (LEFT, RIGHT)})
    in_round(history, ids)
    with pytest.raises(OperationError, match="another weapon than the first"):
        history.do(pair_shot(ids, "Makarov (left)"))
    with pytest.raises(OperationError, match="carries no weapon called “Beretta”"):
        history.do(pair_shot(ids, "Beretta"))


def test_the_same_make_is_identical_a_different_one_is_not() -> None:
    assert identical(LEFT, RIGHT)  # names and rounds left differ, the gun does not
    assert not identical(LEFT, KEDR)
    check_pair(LEFT, KEDR)  # different guns are allowed: one bullet misses (the Decision)


def test_identical_guns_two_damage_rolls_different_one_and_the_extra_die_off_either_way() -> None:
    for same in (True, False):
        shot = Shot(mode=FireMode.TWO_GUNS, skill=4, identical_guns=same, second_gun=True)
        assert attack_pool(shot, MODS).dice == 4 - 1  # "one attack roll at an extra −1"
        assert damage_rolls(shot) == (2 if same else 1)


def test_the_second_gun_is_picked_from_the_attackers_other_firearms() -> None:
    history, ids = armed({"Sokolov": (LEFT, RIGHT, AK, ready_made("Knife"))})
    sokolov = history.state.combatant(ids["Sokolov"])
    assert [gun.name for gun in second_gun_choices(sokolov, "Makarov (left)")] == ["Makarov (right)", "AK-74"]


def test_one_weapon_standing_for_both_guns_still_takes_two_rounds() -> None:
    """Fights saved before the second gun was a weapon of its own replay unchanged."""
    assert rounds_fired(Shot(mode=FireMode.TWO_GUNS), MODS) == 2
    assert rounds_fired(Shot(mode=FireMode.TWO_GUNS, second_gun=True), MODS) == 1
    history, ids = armed({"Sokolov": (ready_made("Makarov", "Two Makarovs", mode="two_guns", magazine=16),)})
    in_round(history, ids)
    history.do(pair_shot(ids, "", 0, rounds=2, saved_weapon="Two Makarovs"))
    assert rounds_left(history, ids["Sokolov"], "Two Makarovs") == 14
    stored = to_data(history.entries[-1].operation)
    assert "second_weapon" not in stored and "second_rounds" not in stored  # old files stay as they were


def test_the_second_gun_survives_save_and_load() -> None:
    history, ids = armed({"Sokolov": (LEFT, RIGHT)})
    in_round(history, ids)
    history.do(pair_shot(ids, "Makarov (right)"))
    loaded = history_from_document(history_to_document(history))
    assert loaded.state == history.state
