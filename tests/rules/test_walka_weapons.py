"""Walka's weapons as data (rules/systems/walka/weapons.py): the fields, what they may hold, the picker's line,
rounds fired by attacks, reloading as the encounter option says, and the last attack read from the history."""

from __future__ import annotations

import gettext
from collections.abc import Iterator

import pytest

from rules import text
from rules.encounter import JsonValue, Weapon, frozen_map
from rules.errors import OperationError, RulesError
from rules.history import AttackRecord, Batch, History
from rules.serialize import history_from_document, history_to_document, to_data
from rules.systems.walka import SYSTEM, WalkaAction
from rules.systems.walka import actions as walka_actions
from rules.systems.walka.sample import sample
from rules.systems.walka.weapons import CYBER, MELEE_WEAPON, RELOAD_OPTION, UNARMED, make_weapon
from rules.weapons import Reload, SetWeapons, checked_weapons, last_attack
from tests.rules.test_walka_combat import attack, kira_acts

PISTOL = make_weapon("Pistol", 3, magazine=2)


@pytest.fixture
def marked() -> Iterator[None]:
    """Every rules-layer message looked up in a catalog that marks what it translated."""
    class Marked(gettext.NullTranslations):
        def gettext(self, message: str) -> str:
            return "»" + message

        def ngettext(self, singular: str, plural: str, n: int) -> str:
            return "»" + (singular if n == 1 else plural)

    text.install(Marked())
    yield
    text.install(gettext.NullTranslations())


def checked(values: dict[str, JsonValue], name: str = "SMG") -> Weapon:
    (weapon,) = checked_weapons((Weapon(name, frozen_map(values)),), SYSTEM)
    return weapon


def armed(options: dict[str, JsonValue] | None = None, *weapons: Weapon) -> tuple[History, dict[str, str]]:
    """Kira acts (both actions left), carrying ``weapons`` (the pistol with 2 rounds by default)."""
    history, ids = kira_acts(options)
    history.do(SetWeapons(ids["Kira"], weapons or (PISTOL,)))
    return history, ids


def rounds(history: History, combatant_id: str, weapon: str = "Pistol") -> int:
    carried = history.state.combatant(combatant_id).weapon(weapon)
    assert carried is not None
    return carried.number("rounds")


# --- the fields ----------------------------------------------------------------------------------------------


def test_the_fields_are_the_weapon_dice_kind_skill_and_magazine() -> None:
    assert [spec.key for spec in SYSTEM.weapon_fields()] == ["dice", "kind", "skill", "magazine", "rounds"]
    kinds = dict(next(spec for spec in SYSTEM.weapon_fields() if spec.key == "kind").choices)
    assert set(kinds) == {"firearm", "melee", "unarmed", "cyber"}
    skills = dict(next(spec for spec in SYSTEM.weapon_fields() if spec.key == "skill").choices)
    assert set(skills) == {"firearms", "melee", "brawling", "interface"}  # the chapter's four combat skills


@pytest.mark.parametrize(("values", "expected"), [
    ({"dice": 3, "kind": "firearm", "skill": "firearms", "magazine": 30, "rounds": 12},
     {"dice": 3, "kind": "firearm", "skill": "firearms", "magazine": 30, "rounds": 12}),
    ({"dice": 4, "kind": "melee", "skill": "melee"},
     {"dice": 4, "kind": "melee", "skill": "melee", "magazine": 0, "rounds": 0}),
    ({"dice": 2, "kind": "melee", "skill": "brawling"},  # a bottle swung in a brawl
     {"dice": 2, "kind": "melee", "skill": "brawling", "magazine": 0, "rounds": 0}),
    ({"dice": 0, "kind": "unarmed", "skill": "brawling"},
     {"dice": 0, "kind": "unarmed", "skill": "brawling", "magazine": 0, "rounds": 0}),
    ({"dice": 30, "kind": "cyber", "skill": "interface"},
     {"dice": 30, "kind": "cyber", "skill": "interface", "magazine": 0, "rounds": 0}),
    ({}, {"dice": 2, "kind": "firearm", "skill": "firearms", "magazine": 0, "rounds": 0}),  # the defaults
])
def test_values_the_game_reads(values: dict[str, JsonValue], expected: dict[str, JsonValue]) -> None:
    assert dict(checked(values).values) == expected


@pytest.mark.parametrize(("values", "message"), [
    ({"dice": 31}, "SMG: “Weapon dice” cannot be 31 (from 0 to 30)."),
    ({"dice": -1}, "SMG: “Weapon dice” cannot be -1 (from 0 to 30)."),
    ({"dice": "3d6"}, "SMG: “Weapon dice” cannot be '3d6' (from 0 to 30)."),
    ({"kind": "laser"}, "SMG: “Kind” cannot be 'laser'."),
    ({"skill": "dodge"}, "SMG: “Skill” cannot be 'dodge'."),  # a defence, not an attack skill
    ({"magazine": 201}, "SMG: “Magazine (rounds; 0: not counted)” cannot be 201 (from 0 to 200)."),
    ({"magazine": 10, "rounds": 11}, "SMG: 11 rounds loaded, but the magazine holds 10."),
    ({"rounds": 3}, "SMG: 3 rounds loaded, but the magazine holds 0."),
    ({"damage": "9M"}, "SMG: this game's weapons have no field “damage”."),
    ({"kind": "firearm", "skill": "melee"}, "SMG (Firearm) attacks with Firearms, not with Melee weapons."),
    ({"kind": "cyber", "skill": "firearms"}, "SMG (Cyber-attack) attacks with Interface, not with Firearms."),
    ({"kind": "unarmed", "skill": "melee"}, "SMG (Unarmed) attacks with Brawling, not with Melee weapons."),
    ({"kind": "melee", "skill": "interface"},
     "SMG (Melee weapon) attacks with Melee weapons, Brawling, not with Interface."),
    ({"kind": "melee", "skill": "melee", "magazine": 6, "rounds": 6},
     "SMG (Melee weapon) has no magazine: only firearms are loaded with rounds."),
])
def test_values_the_game_cannot_read_are_refused_with_a_clear_message(values: dict[str, JsonValue],
                                                                      message: str) -> None:
    with pytest.raises(RulesError) as refused:
        checked(values)
    assert str(refused.value) == message


def test_a_refusal_quotes_a_huge_value_short() -> None:
    with pytest.raises(RulesError) as refused:  # a hostile library file: 200 000 characters for a number
        checked({"magazine": "x" * 200_000})
    assert len(str(refused.value)) < 200 and str(refused.value).endswith("(from 0 to 200).")


@pytest.mark.usefixtures("marked")
def test_the_refusals_are_translated() -> None:
    values: tuple[dict[str, JsonValue], ...] = ({"kind": "cyber", "skill": "firearms"},
                                                 {"kind": "melee", "skill": "melee", "magazine": 6})
    for value in values:
        with pytest.raises(RulesError, match=r"^»"):
            checked(value)


def test_a_combatant_refuses_a_weapon_the_game_cannot_read_and_keeps_what_it_had() -> None:
    history, ids = armed()
    before = to_data(history.state)
    with pytest.raises(OperationError, match="has no magazine"):
        history.do(SetWeapons(ids["Kira"], (make_weapon("Knife", 2, MELEE_WEAPON).with_value("magazine", 3),)))
    assert to_data(history.state) == before


# --- the picker's line -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("weapon", "line"), [
    (make_weapon("SMG", 3, magazine=30), "SMG · 3 dice"),
    (make_weapon("Fists", 1, UNARMED), "Fists · 1 die"),
    (make_weapon("Monowire", 4, MELEE_WEAPON), "Monowire · 4 dice"),
    (make_weapon("Attack program", 2, CYBER), "Attack program · 2 dice"),
])
def test_describe_weapon_names_it_with_its_dice_never_its_rounds(weapon: Weapon, line: str) -> None:
    assert SYSTEM.describe_weapon(checked_weapons((weapon,), SYSTEM)[0]) == line
    assert "30" not in SYSTEM.describe_weapon(weapon)  # the dialog shows the rounds beside the picker


@pytest.mark.usefixtures("marked")
def test_describe_weapon_is_translated_with_plural_forms() -> None:
    assert SYSTEM.describe_weapon(make_weapon("SMG", 3)) == "»SMG · 3 dice"


# --- rounds fired by attacks ------------------------------------------------------------------------------------


def test_each_attack_with_a_loaded_weapon_fires_one_round_hit_or_miss() -> None:
    history, ids = armed()
    history.do(attack(ids, (20,)))  # a miss still spends the round
    assert rounds(history, ids["Kira"]) == 1
    history.do(attack(ids, (5,), (15,), damage_faces=(4, 4, 1)))  # a hit
    assert rounds(history, ids["Kira"]) == 0
    history.undo()
    assert rounds(history, ids["Kira"]) == 1


def test_an_empty_weapon_refuses_the_attack_and_nothing_changes() -> None:
    history, ids = armed(None, PISTOL.with_value("rounds", 0))
    before = to_data(history.state)
    with pytest.raises(OperationError) as refused:
        history.do(attack(ids, (5,), (15,), damage_faces=(4, 4, 1)))
    assert str(refused.value) == "Pistol has 0 rounds left, not enough for 1: reload first."
    assert to_data(history.state) == before


def test_a_weapon_without_magazine_or_typed_by_hand_counts_nothing() -> None:
    history, ids = armed(None, make_weapon("Machete", 3, MELEE_WEAPON), PISTOL)
    history.do(attack(ids, (20,), weapon="Machete"))
    history.do(attack(ids, (20,), weapon="Zip gun"))  # typed in the form: not carried
    assert rounds(history, ids["Kira"]) == 2


def test_rounds_fired_survive_saving_and_replaying() -> None:
    history, ids = armed()
    history.do(attack(ids, (20,)))
    for trusted in (True, False):  # read from its saved state, or replayed in full
        reopened = history_from_document(history_to_document(history), trusted=trusted)
        assert rounds(reopened, ids["Kira"]) == 1
        reopened.undo()
        assert rounds(reopened, ids["Kira"]) == 2


# --- reloading ----------------------------------------------------------------------------------------------------


def test_reloading_is_a_non_combat_action_by_default() -> None:
    assert SYSTEM.default_options()[RELOAD_OPTION] == walka_actions.NON_COMBAT
    history, ids = armed()
    history.do(attack(ids, (20,)))
    history.do(Reload(ids["Kira"], "Pistol"))
    kira = history.state.combatant(ids["Kira"])
    assert rounds(history, ids["Kira"]) == 2
    assert dict(kira.actions_used) == {"attack": 1, "non-combat": 1}
    assert walka_actions.left(kira) == 0
    assert history.entries[-1].text() == "Kira reloads the Pistol."


def test_a_reload_needs_an_action_left_and_the_seat_s_turn() -> None:
    history, ids = armed(None, PISTOL.with_value("rounds", 0))
    history.do(WalkaAction(ids["Kira"], "run"))  # both actions spent
    with pytest.raises(OperationError, match="0 of 2 actions left"):
        history.do(Reload(ids["Kira"], "Pistol"))
    history.do(SetWeapons(ids["Wedge"], (PISTOL.with_value("rounds", 0),)))
    with pytest.raises(OperationError, match="only in their seat's turn"):
        history.do(Reload(ids["Wedge"], "Pistol"))


def test_a_reload_counted_as_a_weapon_change_gives_the_next_attack_a_penalty_die() -> None:
    history, ids = armed({RELOAD_OPTION: walka_actions.CHANGE_WEAPON}, PISTOL.with_value("rounds", 0))
    history.do(Reload(ids["Kira"], "Pistol"))
    kira = history.state.combatant(ids["Kira"])
    assert dict(kira.actions_used) == {"change_weapon": 1}
    assert walka_actions.attack_penalty_dice(kira) == 1


def test_a_reload_can_cost_no_action_by_option() -> None:
    history, ids = armed({RELOAD_OPTION: "none"}, PISTOL.with_value("rounds", 0))
    history.do(WalkaAction(ids["Kira"], "run"))
    history.do(Reload(ids["Kira"], "Pistol"))  # with no action left
    assert rounds(history, ids["Kira"]) == 2
    assert walka_actions.used(history.state.combatant(ids["Kira"])) == 2


def test_the_reload_option_is_checked() -> None:
    spec = next(spec for spec in SYSTEM.option_specs() if spec.key == RELOAD_OPTION)
    assert {value for value, _label in spec.choices} == {"non-combat", "change_weapon", "none"}
    with pytest.raises(RulesError):
        SYSTEM.validate_option(spec, "move")


# --- the last attack ----------------------------------------------------------------------------------------------


def test_an_attack_tells_who_attacked_whom_with_what() -> None:
    history, ids = armed()
    operation = attack(ids, (20,))
    assert operation.attack_record() == AttackRecord(ids["Kira"], ids["Ganger 1"], "Pistol")
    history.do(Batch((operation,), "in a batch"))
    assert last_attack(history.entries, ids["Kira"]) == AttackRecord(ids["Kira"], ids["Ganger 1"], "Pistol")
    assert last_attack(history.entries, ids["Ganger 1"]) is None


def test_the_sample_carries_the_weapons_of_its_notes_and_counts_their_rounds() -> None:
    state = sample().state
    carried = {c.name: [w.name for w in c.weapons] for c in state.combatants.values()}
    assert carried["Kira"] == ["Heavy pistol"] and carried["Wedge"] == ["Monowire", "Machete"]
    assert carried["Ganger 1"] == ["SMG", "Knife"] and carried["Ghost"] == ["Attack program"]
    assert all(c.weapons for c in state.combatants.values())
    by_name = {c.name: c for c in state.combatants.values()}
    assert by_name["Kira"].weapon("Heavy pistol").number("rounds") == 9  # type: ignore[union-attr]
    assert by_name["Ganger 1"].weapon("SMG").number("rounds") == 29  # type: ignore[union-attr]
    assert by_name["Ganger 2"].weapon("SMG").number("rounds") == 30  # type: ignore[union-attr]  # reloaded
