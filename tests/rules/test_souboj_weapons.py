"""Souboj weapons as data: the fields, what they may hold, the picker line, rounds fired, reloads, the last attack."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from rules.combatants import AddCombatant, SetOption
from rules.encounter import Combatant, JsonValue, Side, Weapon, frozen_map
from rules.errors import OperationError, RulesError
from rules.history import History
from rules.systems.base import OptionKind
from rules.systems.souboj import SoubojAttack
from rules.systems.souboj.model import Cause, Kind
from rules.systems.souboj.weapons import RELOAD_COSTS_ACTION, may_be_critical, suggested_firearm_number
from rules.turns import NextTurn
from rules.weapons import Reload, checked_weapons, last_attack
from tests.rules.test_souboj_scene import SOUBOJ, fight, roll


def weapon(name: str, **values: JsonValue) -> Weapon:
    return Weapon(name, frozen_map(values))


def checked(name: str, **values: JsonValue) -> Weapon:
    (result,) = checked_weapons([weapon(name, **values)], SOUBOJ)
    return result


# --- the fields -----------------------------------------------------------------------------------------------


def test_the_fields_are_the_kind_the_two_numbers_a_spells_damage_and_mark_and_the_magazine() -> None:
    fields = {spec.key: spec for spec in SOUBOJ.weapon_fields()}
    assert list(fields) == ["kind", "weapon_strength", "weapon_defence", "spell_damage", "may_be_critical",
                            "magazine", "rounds"]
    assert fields["kind"].kind is OptionKind.CHOICE and fields["kind"].default == "melee"
    assert {value for value, _label in fields["kind"].choices} == {kind.value for kind in Kind}
    assert all(fields[key].kind is OptionKind.INT for key in list(fields)[1:] if key != "may_be_critical")
    assert fields["may_be_critical"].kind is OptionKind.BOOL and fields["may_be_critical"].default is False


# --- critical spells (souboj.md, "Critical hits": "Possible with all weapons, only with some spells") ----------


def test_every_weapon_may_be_critical_a_spell_only_when_marked_and_a_weapon_cannot_be_marked() -> None:
    assert may_be_critical(checked("Long sword", kind="melee", weapon_strength=6))
    assert may_be_critical(checked("Pistol", kind="firearm", weapon_strength=7))
    assert not may_be_critical(checked("Fire bolt", kind="magic", spell_damage=7))  # default: not, unless marked
    assert may_be_critical(checked("Lightning", kind="magic", spell_damage=9, may_be_critical=True))
    with pytest.raises(RulesError, match="Axe: every weapon may be critical; the mark is for spells"):
        checked("Axe", kind="melee", weapon_strength=5, may_be_critical=True)


def test_a_critical_spell_is_refused_unless_the_spell_may_be_critical() -> None:
    history, ids = fight()
    roll(history, ids, Aleš=6, Bora=4, Cyril=4, Bandit=4, Chief=1)
    refused = SoubojAttack(ids["Aleš"], ids["Bandit"], Kind.MAGIC, "Fire bolt", causes=(Cause.BEHIND,),
                           spell_damage=3, spell_may_be_critical=False)
    with pytest.raises(OperationError, match="only with some spells"):
        history.do(refused)
    history.do(SoubojAttack(ids["Aleš"], ids["Bandit"], Kind.MAGIC, "Lightning", causes=(Cause.BEHIND,),
                            spell_damage=3, spell_may_be_critical=True, level=4))
    assert "Critical hit (attack from behind): 3 × 4 = 12." in history.entries[-1].text().splitlines()


def test_a_good_weapon_gets_the_defaults_of_what_it_leaves_out() -> None:
    sword = checked("Long sword", kind="melee", weapon_strength=6, weapon_defence=3)
    assert dict(sword.values) == {"kind": "melee", "weapon_strength": 6, "weapon_defence": 3, "spell_damage": 0,
                                  "magazine": 0, "rounds": 0}  # the spell's mark came later: not written
    assert checked("Musket", kind="firearm", weapon_strength=5, magazine=1, rounds=1).number("rounds") == 1
    assert checked("Crossbow", kind="ranged", weapon_strength=5, magazine=1).number("magazine") == 1
    assert checked("Fire bolt", kind="magic", spell_damage=7).number("spell_damage") == 7
    assert checked("Fists", kind="unarmed").value("kind") == "unarmed"
    assert checked("Javelin", kind="thrown", weapon_strength=4).number("weapon_strength") == 4


@pytest.mark.parametrize(("values", "message"), [
    ({"kind": "magic", "weapon_strength": 3}, "Fire: magic follows the spell; a spell has no weapon strength or "
                                              "defence."),
    ({"kind": "unarmed", "weapon_defence": 1}, "Fire: unarmed means without a weapon (1d6 + Strength); its weapon "
                                               "strength and defence are 0."),
    ({"kind": "firearm", "weapon_strength": 5, "weapon_defence": 2}, "Fire: a firearm has one number, its weapon "
                                                                     "strength; it has no weapon defence."),
    ({"kind": "melee", "spell_damage": 4}, "Fire: only a spell deals its damage directly."),
    ({"kind": "melee", "magazine": 6, "rounds": 6}, "Fire: only a firearm, bow or crossbow is loaded with rounds."),
    ({"kind": "thrown", "magazine": 3}, "Fire: only a firearm, bow or crossbow is loaded with rounds."),
    ({"kind": "firearm", "magazine": 6, "rounds": 7}, "Fire: 7 rounds loaded, but the magazine holds 6."),
    ({"kind": "laser"}, "Fire: “Kind” cannot be 'laser'."),
    ({"kind": "melee", "weapon_strength": 150}, "Fire: “Weapon strength” cannot be 150 (from 0 to 99)."),
    ({"kind": "melee", "weapon_strength": -1}, "Fire: “Weapon strength” cannot be -1 (from 0 to 99)."),
    ({"kind": "melee", "weapon_strength": "6"}, "Fire: “Weapon strength” cannot be '6' (from 0 to 99)."),
    ({"kind": "melee", "reach": 2}, "Fire: this game's weapons have no field “reach”."),
])
def test_values_the_game_cannot_read_are_refused_with_a_message(values: Mapping[str, JsonValue],
                                                                message: str) -> None:
    with pytest.raises(RulesError) as refused:
        checked("Fire", **values)
    assert str(refused.value) == message


def test_a_huge_value_from_a_hostile_file_is_quoted_short() -> None:
    # The message quoted the whole value: a bestiary file with a megabyte in a weapon field gave a megabyte message.
    with pytest.raises(RulesError) as refused:
        checked("Fire bolt", kind="magic", weapon_defence="x" * 5000)
    assert len(str(refused.value)) < 200 and str(refused.value).startswith("Fire bolt: “Weapon defence” cannot be")


def test_a_combatant_added_with_a_bad_weapon_is_refused() -> None:
    history, _ids = fight()
    with pytest.raises(OperationError, match="a firearm has one number"):
        history.do(AddCombatant("c9", "Gunner", weapons=(weapon("Pistol", kind="firearm", weapon_defence=2),)))


# --- the picker line ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("values", "line"), [
    ({"kind": "melee", "weapon_strength": 6, "weapon_defence": 3}, "Long sword (melee 6/3)"),
    ({"kind": "melee", "weapon_strength": 3}, "Long sword (melee 3/0)"),
    ({"kind": "ranged", "weapon_strength": 5, "magazine": 1, "rounds": 0}, "Long sword (ranged 5)"),
    ({"kind": "thrown", "weapon_strength": 4, "weapon_defence": 1}, "Long sword (thrown 4/1)"),
    ({"kind": "firearm", "weapon_strength": 7, "magazine": 6, "rounds": 2}, "Long sword (firearm 7)"),
    ({"kind": "magic", "spell_damage": 7}, "Long sword (magic, 7 damage)"),
    ({"kind": "magic"}, "Long sword (magic)"),
    ({"kind": "unarmed"}, "Long sword (unarmed)"),
])
def test_the_picker_line_is_the_name_the_kind_and_its_numbers_never_the_rounds(values: Mapping[str, JsonValue],
                                                                               line: str) -> None:
    assert SOUBOJ.describe_weapon(checked("Long sword", **values)) == line


# --- rounds fired, reloading ----------------------------------------------------------------------------------

MUSKET = weapon("Musket", kind="firearm", weapon_strength=5, magazine=2, rounds=2)
SABRE = weapon("Sabre", kind="melee", weapon_strength=4, weapon_defence=3)


def musketeer_fight(options: Mapping[str, JsonValue] | None = None) -> tuple[History, dict[str, str]]:
    """The scene's five and a musketeer with a two-shot musket; initiative rolled, the musketeer acts first (6)."""
    history, ids = fight(options)
    history.do(AddCombatant("c6", "Musketeer", attributes=frozen_map({"dexterity": 6, "intelligence": 5}),
                            weapons=(MUSKET, SABRE)))
    ids["Musketeer"] = "c6"
    roll(history, ids, Musketeer=6, Aleš=5, Bora=4, Cyril=3, Bandit=2, Chief=1)
    return history, ids


def shot(ids: Mapping[str, str], weapon_name: str = "Musket", kind: Kind = Kind.FIREARM) -> SoubojAttack:
    return SoubojAttack(ids["Musketeer"], ids["Aleš"], kind, weapon_name, 5, 6, 6, 1)


def rounds(history: History, name: str = "Musket") -> int:
    carried = history.state.combatant("c6").weapon(name)
    assert carried is not None
    return carried.number("rounds")


def test_each_shot_fires_one_round_until_the_musket_is_empty_then_it_is_refused() -> None:
    history, ids = musketeer_fight()
    history.do(shot(ids))
    assert rounds(history) == 1
    history.do(shot(ids))
    assert rounds(history) == 0
    before = history.state
    with pytest.raises(OperationError) as refused:
        history.do(shot(ids))
    assert str(refused.value) == "Musket has 0 rounds left, not enough for 1: reload first."
    assert history.state is before
    history.undo()
    assert rounds(history) == 1  # undo gives the round back


def test_a_weapon_without_a_magazine_or_a_name_typed_by_hand_fires_nothing() -> None:
    history, ids = musketeer_fight()
    history.do(shot(ids, "Sabre", Kind.MELEE))
    history.do(shot(ids, "an old pistol"))  # typed in the form: not a carried weapon
    assert rounds(history) == 2 and rounds(history, "Sabre") == 0


def test_a_reload_at_its_own_initiative_fills_the_magazine_and_spends_the_rounds_action() -> None:
    history, ids = musketeer_fight()
    history.do(shot(ids))
    history.do(shot(ids))
    history.do(Reload(ids["Musketeer"], "Musket"))
    assert rounds(history) == 2
    musketeer = history.state.combatant(ids["Musketeer"])
    (action,) = SOUBOJ.action_budget(musketeer, history.state)
    assert (action.used, action.left) == (1, 0)
    assert history.entries[-1].text() == "Musketeer reloads the Musket."


def test_a_reload_is_refused_out_of_turn_and_after_the_action_is_spent() -> None:
    history, ids = musketeer_fight()
    history.do(shot(ids))
    history.do(NextTurn())  # Aleš's turn now
    with pytest.raises(OperationError, match="Musketeer can only act at their own initiative"):
        history.do(Reload(ids["Musketeer"], "Musket"))
    history, ids = musketeer_fight()
    history.do(shot(ids))
    history.do(shot(ids))
    history.do(Reload(ids["Musketeer"], "Musket"))
    history.do(shot(ids))
    with pytest.raises(OperationError, match="Musketeer has already acted this round"):
        history.do(Reload(ids["Musketeer"], "Musket"))


def test_before_the_fight_a_reload_costs_nothing() -> None:
    history, _ids = fight()
    history.do(AddCombatant("c6", "Musketeer", weapons=(weapon("Musket", kind="firearm", magazine=2, rounds=0),)))
    history.do(Reload("c6", "Musket"))
    assert rounds(history) == 2 and not history.state.combatant("c6").actions_used


def test_the_gm_may_make_reloading_free() -> None:
    spec = next(spec for spec in SOUBOJ.option_specs() if spec.key == RELOAD_COSTS_ACTION)
    assert spec.kind is OptionKind.BOOL and spec.default is True
    assert SOUBOJ.default_options()[RELOAD_COSTS_ACTION] is True
    history, ids = musketeer_fight()
    history.do(SetOption(RELOAD_COSTS_ACTION, False))
    history.do(shot(ids))
    history.do(NextTurn())  # not its turn any more: a free reload still goes
    history.do(Reload(ids["Musketeer"], "Musket"))
    assert rounds(history) == 2 and not history.state.combatant(ids["Musketeer"]).actions_used


def test_a_spell_fires_no_rounds_and_a_full_weapon_is_not_reloaded() -> None:
    history, ids = musketeer_fight()
    with pytest.raises(OperationError, match="Musket is already fully loaded"):
        history.do(Reload(ids["Musketeer"], "Musket"))
    spell = SoubojAttack(ids["Musketeer"], ids["Aleš"], Kind.MAGIC, "Musket", spell_damage=3)
    history.do(spell)
    assert rounds(history) == 2


# --- the last attack ------------------------------------------------------------------------------------------


def test_an_attack_records_attacker_target_and_weapon_for_the_next_dialog() -> None:
    history, ids = musketeer_fight()
    assert last_attack(history.entries, ids["Musketeer"]) is None
    history.do(shot(ids))
    record = last_attack(history.entries, ids["Musketeer"])
    assert record is not None
    assert (record.attacker_id, record.target_id, record.weapon) == (ids["Musketeer"], ids["Aleš"], "Musket")
    history.do(SoubojAttack(ids["Musketeer"], ids["Bora"], Kind.MELEE, "Sabre", 5, 6, 6, 1))
    record = last_attack(history.entries, ids["Musketeer"])
    assert record is not None and (record.target_id, record.weapon) == (ids["Bora"], "Sabre")
    assert last_attack(history.entries, ids["Aleš"]) is None


@pytest.mark.parametrize(("dexterity", "intelligence", "number"), [(9, 6, 7), (5, 9, 7), (6, 4, 5), (0, 1, 0)])
def test_a_firearms_number_is_suggested_from_half_dexterity_and_half_intelligence(dexterity: int, intelligence: int,
                                                                                  number: int) -> None:
    # souboj.md: "usually half Dexterity + half Intelligence"; Decision: (Dex + Int) ÷ 2, rounded down.
    shooter = Combatant("c1", "Shooter", Side.PLAYER, attributes=frozen_map(
        {"dexterity": dexterity, "intelligence": intelligence}))
    assert suggested_firearm_number(shooter) == number
