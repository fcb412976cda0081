"""Člověk weapons as data: the fields and what they may hold, the picker line, rounds fired, reloading, the
attack record the next attack dialog starts from, and the sample fight's weapons."""

from __future__ import annotations

import pytest

from rules.combatants import AddCombatant, SetOption
from rules.encounter import Encounter, JsonValue, Side, Weapon, frozen_map
from rules.errors import OperationError, RulesError
from rules.history import AttackRecord, History
from rules.serialize import operation_from_data, to_data
from rules.systems.clovek import SYSTEM, ClovekCheck, PowerRoll, SetInitiativeDice, SkillRoll
from rules.systems.clovek.economy import action_type
from rules.systems.clovek.rolls import PowerSource
from rules.systems.clovek.sample import sample
from rules.systems.clovek.weapons import ONE_PHYSICAL_DIE, RELOAD_OPTION
from rules.turns import NextTurn
from rules.weapons import ROUNDS, Reload, checked_weapons, last_attack
from tests.rules.test_clovek_scenes import ADRIANA, CESARE, left, roll


def weapon(name: str, **values: JsonValue) -> Weapon:
    return Weapon(name, frozen_map(values))


PISTOL = weapon("Heavy pistol", skill_name="Pistols", skill=3, dice=3, kind="equipment", value=3, magazine=2,
                rounds=2)
RAPIER = weapon("Rapier", skill_name="Fencing", skill=3, dice=3)


def checked(*weapons: Weapon) -> tuple[Weapon, ...]:
    return checked_weapons(weapons, SYSTEM)


# --- the fields -------------------------------------------------------------------------------------------

def test_the_fields_are_what_the_roll_dialog_reads() -> None:
    keys = [spec.key for spec in SYSTEM.weapon_fields()]
    assert keys == ["bank", "skill_name", "skill", "skill_kind", "supernatural", "dice", "bonus", "kind", "value",
                    "power_bonus", "harm", "magazine", "rounds"]


def test_a_good_weapon_gets_every_field_with_its_default() -> None:
    (rapier,) = checked(RAPIER)
    assert dict(rapier.values) == {"bank": "physical", "skill_name": "Fencing", "skill": 3, "skill_kind": "ability",
                                   "dice": 3, "bonus": 0, "kind": "attribute", "value": 0, "power_bonus": 0,
                                   "harm": "wounds", "magazine": 0, "rounds": 0}
    (pistol,) = checked(PISTOL)
    assert pistol.value("kind") == "equipment" and pistol.number("value") == 3 and pistol.number(ROUNDS) == 2
    (threat,) = checked(weapon("Intimidation", bank="social", skill=3, harm="stun", skill_kind="talent"))
    assert threat.value("bank") == "social" and threat.value("harm") == "stun"


def test_a_supernatural_skill_is_kept_only_when_ticked_so_older_weapons_stay_as_saved() -> None:
    # clovek.md: "Supernatural skills reroll every die showing ≥ 15 − skill": a per-skill mark on the attack.
    (rapier,) = checked(RAPIER)
    assert "supernatural" not in rapier.values  # a weapon saved before the field replays to the same values
    (curse,) = checked(weapon("Evil eye", bank="mental", skill=8, supernatural=True))
    assert curse.value("supernatural") is True
    assert "supernatural" in SYSTEM.describe_weapon(curse)
    (plain,) = checked(weapon("Evil eye", bank="mental", skill=8, supernatural=False))
    assert "supernatural" not in plain.values
    with pytest.raises(RulesError, match="Supernatural skill"):
        checked(weapon("Evil eye", supernatural="yes"))


@pytest.mark.parametrize(("values", "message"), [
    ({"kind": "equipment"}, "Knife: a weapon whose power is its own needs a power value of 1 or more"),
    ({"kind": "equipment", "value": 0}, "power value of 1 or more"),
    ({"value": 3}, "Knife: its power comes from the capacity attribute, so its power value must stay 0"),
    ({"bank": "social", "magazine": 6}, "Knife: only a physical attack fires rounds"),
    ({"bank": "astral"}, "Knife: “Dice bank” cannot be 'astral'."),
    ({"skill": 21}, "Knife: “Skill dots” cannot be 21 (from 0 to 20)."),
    ({"skill_kind": "instinct"}, "Knife: “Skill kind” cannot be 'instinct'."),
    ({"kind": "magic"}, "Knife: “Power from” cannot be 'magic'."),
    ({"harm": "fear"}, "Knife: “The power goes on” cannot be 'fear'."),
    ({"dice": 41}, "Knife: “Dice usually committed” cannot be 41 (from 0 to 40)."),
    ({"magazine": 6, "rounds": 7}, "Knife: 7 rounds loaded, but the magazine holds 6."),
    ({"rounds": 1}, "Knife: 1 rounds loaded, but the magazine holds 0."),
    ({"skill_name": 3}, "Knife: “Skill” must be text"),
    ({"damage": "9M"}, "Knife: this game's weapons have no field “damage”."),
])
def test_values_the_game_cannot_read_are_refused_with_a_message(values: dict[str, JsonValue], message: str) -> None:
    with pytest.raises(RulesError) as refused:
        checked(weapon("Knife", **values))
    assert message in str(refused.value)


def test_a_combatant_with_a_bad_weapon_is_not_added() -> None:
    history = History(Encounter("clovek", "Armed"))
    with pytest.raises(OperationError, match="power value of 1 or more"):
        history.do(AddCombatant("x", "Gunman", weapons=(weapon("Pistol", kind="equipment"),)))
    assert "x" not in history.state.combatants


# --- the picker line --------------------------------------------------------------------------------------

def test_the_picker_line_names_the_numbers_a_gm_knows_a_weapon_by() -> None:
    pistol, rapier = checked(PISTOL, RAPIER)
    assert SYSTEM.describe_weapon(pistol) == "Heavy pistol · Pistols 3 · power 3"  # no rounds: the dialog
    assert SYSTEM.describe_weapon(rapier) == "Rapier · Fencing 3"
    shield, threat, fist = checked(weapon("Heraldic shield", skill_name="Shield", skill=1, dice=1, power_bonus=4),
                                   weapon("Intimidation", bank="social", skill_name="intimidation", skill=3),
                                   weapon("Fist", skill=2, bonus=1, harm="stun"))
    assert SYSTEM.describe_weapon(shield) == "Heraldic shield · Shield 1 · +4 power"
    assert SYSTEM.describe_weapon(threat) == "Intimidation 3 · social"
    assert SYSTEM.describe_weapon(fist) == "Fist · skill 2 · +1 success · stun"


# --- a fight with weapons ---------------------------------------------------------------------------------

def armed_fight(*weapons: Weapon) -> History:
    """Adriana (a, with ``weapons``) against Cesare (c); Adriana 4 + 9 = 13 acts first."""
    history = History(Encounter("clovek", "Armed"))
    history.do(AddCombatant("a", "Adriana", Side.OPPONENT, frozen_map(ADRIANA), weapons=weapons))
    history.do(AddCombatant("c", "Cesare", Side.PLAYER, frozen_map(CESARE), weapons=(RAPIER,)))
    history.do(SetInitiativeDice("a", 1))
    roll(history, {"a": (9,), "c": ()})
    return history


def shot(faces: tuple[tuple[int, ...], ...] = ((9,), (9,), (2,)), weapon_name: str = "Heavy pistol",
         role: str = "action") -> ClovekCheck:
    """Adriana fires at Cesare: Pistols 3 (7+), two successes; power 3 against 3: 8, 2 = 1 → 6 + 1 = 7 wounds."""
    return ClovekCheck("a", SkillRoll("physical", faces, 3, skill_name="Pistols"), role,
                       PowerRoll(PowerSource.EQUIPMENT, 3, ((8,), (2,)), name="Heavy pistol"), "c",
                       track="physical_wounds", weapon=weapon_name)


def rounds(history: History, combatant_id: str = "a", name: str = "Heavy pistol") -> int:
    carried = history.state.combatant(combatant_id).weapon(name)
    assert carried is not None
    return carried.number(ROUNDS)


def test_a_shot_fires_one_round_and_says_how_many_are_left() -> None:
    history = armed_fight(PISTOL)
    entry = history.do(shot())
    assert rounds(history) == 1
    assert "Heavy pistol: 1 round left." in entry.text()
    assert history.state.combatant("c").boxes("physical_wounds") == 7
    history.undo()
    assert rounds(history) == 2


def miss(role: str = "reaction") -> ClovekCheck:
    """Adriana fires one die at Cesare and misses: the round is gone all the same."""
    return ClovekCheck("a", SkillRoll("physical", ((2,),), 3), role, target="c", weapon="Heavy pistol")


def test_an_empty_magazine_refuses_the_shot_and_nothing_changes() -> None:
    history = armed_fight(PISTOL)
    history.do(miss("action"))
    history.do(miss())  # a second shot out of her action: a reaction, another round
    assert rounds(history) == 0
    before = history.state
    with pytest.raises(OperationError, match=r"Heavy pistol has 0 rounds left, not enough for 1: reload first\."):
        history.do(miss())
    assert history.state is before


def test_a_weapon_without_a_magazine_counts_no_rounds() -> None:
    history = armed_fight(RAPIER)
    entry = history.do(ClovekCheck("a", SkillRoll("physical", ((9,),), 3), target="c", weapon="Rapier"))
    assert "round" not in entry.text()
    assert history.state.combatant("a").weapon("Rapier") == checked(RAPIER)[0]


def test_a_roll_typed_in_the_form_fires_nothing() -> None:
    history = armed_fight(PISTOL)
    history.do(shot(weapon_name=""))
    assert rounds(history) == 2


# --- reloading --------------------------------------------------------------------------------------------

def emptied() -> History:
    history = armed_fight(PISTOL)
    history.do(shot(role="reaction"))
    history.do(shot(role="reaction"))
    assert rounds(history) == 0 and left(history, "a") == (0, 8, 5)
    history.do(NextTurn())  # Cesare's turn
    history.do(NextTurn())  # the round ends, every bank refills
    roll(history, {"a": (9,), "c": ()})
    assert left(history, "a") == (6, 8, 5)
    return history


def test_by_default_a_reload_is_the_turns_physical_action_and_one_die() -> None:
    history = emptied()
    assert SYSTEM.option(history.state, RELOAD_OPTION) == "action"
    entry = history.do(Reload("a", "Heavy pistol"))
    assert rounds(history) == 2 and "Adriana reloads the Heavy pistol." in entry.text()
    adriana = history.state.combatant("a")
    assert action_type(adriana) == "physical" and left(history, "a") == (5, 8, 5)
    with pytest.raises(OperationError, match="actions this round are physical: no social action"):
        history.do(ClovekCheck("a", SkillRoll("social", ((9,),), 3), target="c"))


def test_a_reload_as_the_action_waits_for_the_turn() -> None:
    history = emptied()
    history.do(NextTurn())  # Cesare's turn
    with pytest.raises(OperationError, match="Adriana acts only in their own turn"):
        history.do(Reload("a", "Heavy pistol"))
    assert rounds(history) == 0


def test_a_reload_after_a_social_action_is_refused_one_type_a_round() -> None:
    history = emptied()
    history.do(ClovekCheck("a", SkillRoll("social", ((9,),), 3), target="c"))
    with pytest.raises(OperationError, match="actions this round are social: no physical action"):
        history.do(Reload("a", "Heavy pistol"))


def test_the_gm_may_make_a_reload_one_die_or_free() -> None:
    history = emptied()
    history.do(SetOption(RELOAD_OPTION, "die"))
    assert SYSTEM.reload_action(history.state.combatant("a"), PISTOL, history.state) == ONE_PHYSICAL_DIE
    history.do(NextTurn())  # out of her turn: a die, like a reaction
    history.do(Reload("a", "Heavy pistol"))
    assert rounds(history) == 2 and left(history, "a") == (5, 8, 5)
    assert action_type(history.state.combatant("a")) is None
    history.do(shot(role="reaction"))
    history.do(SetOption(RELOAD_OPTION, "free"))
    history.do(Reload("a", "Heavy pistol"))
    assert rounds(history) == 2 and left(history, "a") == (2, 8, 5)  # only the shot's 3 dice


def test_a_reload_needs_dice() -> None:
    history = armed_fight(PISTOL)
    history.do(shot(faces=((9,), (9,), (2,), (1,), (1,), (1,)), role="reaction"))  # all six physical dice
    with pytest.raises(OperationError, match="no physical dice left"):
        history.do(Reload("a", "Heavy pistol"))


def test_the_reload_option_is_refused_when_it_means_nothing() -> None:
    history = armed_fight(PISTOL)
    with pytest.raises(RulesError, match="Reloading a weapon costs"):
        history.do(SetOption(RELOAD_OPTION, "a prayer"))


# --- the attack record ------------------------------------------------------------------------------------

def test_an_attack_says_who_attacked_whom_with_what() -> None:
    assert shot().attack_record() == AttackRecord("a", "c", "Heavy pistol")
    assert shot(weapon_name="").attack_record() == AttackRecord("a", "c", "")
    aimless = ClovekCheck("a", SkillRoll("physical", ((9,),), 3), weapon="Heavy pistol")
    assert aimless.attack_record() == AttackRecord("a", None, "Heavy pistol")
    assert ClovekCheck("a", SkillRoll("physical", ((9,),), 3)).attack_record() is None  # a stealth roll


def test_the_last_attack_skips_rolls_that_were_no_attack() -> None:
    history = armed_fight(PISTOL, RAPIER)
    history.do(shot(role="reaction"))
    history.do(ClovekCheck("a", SkillRoll("physical", ((9,),), 1, skill_name="Stealth"), "reaction"))
    assert last_attack(history.entries, "a") == AttackRecord("a", "c", "Heavy pistol")
    assert last_attack(history.entries, "c") is None


def test_an_operation_without_a_weapon_is_saved_as_before() -> None:
    plain = shot(weapon_name="")
    assert "weapon" not in to_data(plain)
    assert to_data(shot())["weapon"] == "Heavy pistol"
    assert operation_from_data(to_data(shot())) == shot()


# --- the sample -------------------------------------------------------------------------------------------

def test_the_sample_fight_carries_the_weapons_its_people_use() -> None:
    history = sample()
    carried = {c.name: [w.name for w in c.weapons] for c in history.state.combatants.values()}
    assert carried == {"Beatrice": ["Heraldic shield"], "Cesare": ["Rapier", "Heavy pistol"], "Dante": [],
                       "Adriana": ["Heavy pistol"], "Count's guard 1": ["Halberd"], "Count's guard 2": ["Halberd"]}
    assert rounds(history, "c4") == 5  # her shot at Cesare
    assert last_attack(history.entries, "c4") == AttackRecord("c4", "c2", "Heavy pistol")
    shield = history.state.combatant("c1").weapon("Heraldic shield")
    assert shield is not None and shield.number("power_bonus") == 4  # the seed's +4 in both hands


def test_a_huge_refused_value_is_not_repeated_whole_in_the_message() -> None:
    with pytest.raises(RulesError) as refused:
        checked(weapon("Fist", power_bonus="x" * 100_000))
    assert "Fist: “Power bonus” cannot be 'xxxx" in str(refused.value) and len(str(refused.value)) < 200
