"""Walka's round and actions (walka.md, "Round and actions"): two actions, penalty dice, prepare, aim, move."""

from __future__ import annotations

import pytest

from rules.combatants import SpendAction
from rules.encounter import JsonValue
from rules.errors import OperationError, RulesError
from rules.history import History
from rules.systems.walka import SYSTEM, SetKnockedDown, WalkaAction, WalkaAttack
from rules.turns import NextTurn
from tests.rules.test_walka_scenes import acting, roll, round_order, table


def kira_acts(options: dict[str, JsonValue] | None = None) -> tuple[History, dict[str, str]]:
    """The table with Ania's seat (Kira and her drone) acting first."""
    history, ids = table(options)
    roll(history, Ania=1, Bartek=5, Celina=7, GM=9)
    assert acting(history) == ["Kira", "Drone"]
    return history, ids


def budget(history: History, combatant_id: str) -> dict[str, tuple[str, int, int]]:
    combatant = history.state.combatant(combatant_id)
    return {item.key: (item.label, item.left, item.allowed) for item in SYSTEM.action_budget(combatant, history.state)}


def miss(attacker: str, target: str, **changes: object) -> WalkaAttack:
    """Kira's attack that misses (a 20 on Firearms 12); the dice follow the bonus and penalty dice given."""
    bonus, penalty = int(str(changes.get("attack_bonus", 0))), int(str(changes.get("attack_penalty", 0)))
    faces = (20,) * (1 + abs(bonus - penalty))
    fields: dict[str, object] = {"attack_faces": faces, "defence_faces": (1,), **changes}
    return WalkaAttack(attacker, target, "firearms", 12, "dodge", 8, **fields)  # type: ignore[arg-type]


def test_two_actions_a_round_with_a_counter() -> None:
    history, ids = kira_acts()
    assert budget(history, ids["Kira"]) == {"non-combat": ("actions", 2, 2), "combat": ("attacks", 2, 2)}
    history.do(WalkaAction(ids["Kira"], "move"))
    assert budget(history, ids["Kira"])["non-combat"][1:] == (1, 2)
    history.do(WalkaAction(ids["Kira"], "move"))  # any action may be taken twice
    with pytest.raises(OperationError, match="0 of 2 actions left"):
        history.do(WalkaAction(ids["Kira"], "non-combat"))
    assert budget(history, ids["Drone"])["non-combat"][1:] == (2, 2)  # each combatant has its own two


def test_the_counter_starts_over_every_round() -> None:
    history, ids = kira_acts()
    history.do(WalkaAction(ids["Kira"], "run"))
    round_order(history)
    assert history.state.clock.round == 2
    assert budget(history, ids["Kira"])["non-combat"][1:] == (2, 2)


def test_actions_only_in_the_seats_own_turn() -> None:
    history, ids = kira_acts()
    with pytest.raises(OperationError, match="only in their seat's turn"):
        history.do(WalkaAction(ids["Wedge"], "move"))


def test_a_second_attack_carries_a_penalty_die() -> None:
    history, ids = kira_acts()
    history.do(miss(ids["Kira"], ids["Ganger 1"]))
    assert budget(history, ids["Kira"])["combat"] == ("attacks with a penalty die", 1, 2)
    assert "Next attack this round: one penalty die" in SYSTEM.condition_notes(
        history.state.combatant(ids["Kira"]), history.state)


def test_an_attack_after_a_weapon_change_counts_as_a_second_attack() -> None:
    history, ids = kira_acts()
    history.do(WalkaAction(ids["Kira"], "change_weapon"))
    assert budget(history, ids["Kira"])["combat"] == ("attacks with a penalty die", 1, 1)
    assert "an attack this round takes a penalty die" in history.entries[-1].text()


def test_a_weapon_change_after_attacking_leaves_the_first_attack_clean() -> None:
    history, ids = kira_acts()
    assert budget(history, ids["Kira"])["combat"][0] == "attacks"
    history.do(WalkaAction(ids["Drone"], "change_weapon"))
    assert budget(history, ids["Kira"])["combat"][0] == "attacks"  # the drone's change is not Kira's


def test_prepare_gives_an_advantage_die_next_round_only() -> None:
    history, ids = kira_acts()
    history.do(WalkaAction(ids["Kira"], "prepare"))
    kira = history.state.combatant(ids["Kira"])
    assert "Preparing: one advantage die next round" in SYSTEM.condition_notes(kira, history.state)
    assert budget(history, ids["Kira"])["combat"][0] == "attacks"  # not this round
    round_order(history)
    reminders = [r.text for e in history.entries[-3:] for r in e.reminders]
    assert "Kira prepared an action last round: one advantage die on it now." in reminders
    assert budget(history, ids["Kira"])["combat"][0] == "attacks with an advantage die"
    history.do(miss(ids["Kira"], ids["Ganger 1"], attack_bonus=1, prepared=True))
    assert budget(history, ids["Kira"])["combat"][0] == "attacks with a penalty die"  # the die is used up
    round_order(history)
    assert "prepared" not in history.state.combatant(ids["Kira"]).extra


def test_prepare_does_not_change_the_initiative_order() -> None:
    history, ids = kira_acts()
    history.do(WalkaAction(ids["Kira"], "prepare"))
    assert round_order(history) == [["Kira", "Drone"], ["Wedge"], ["Nova"], ["Ganger 1", "Ganger 2"]]
    assert round_order(history) == [["Kira", "Drone"], ["Wedge"], ["Nova"], ["Ganger 1", "Ganger 2"]]


def test_an_unused_prepared_die_is_gone_after_the_next_round() -> None:
    history, ids = kira_acts()
    history.do(WalkaAction(ids["Kira"], "prepare"))
    round_order(history)
    round_order(history)
    assert budget(history, ids["Kira"])["combat"][0] == "attacks"


def test_a_prepare_names_the_event_it_is_for() -> None:
    # walka.md, Prepare: "declared for a specific event ("do konkretnego wydarzenia")".
    history, ids = kira_acts()
    kira = ids["Kira"]
    history.do(WalkaAction(kira, "prepare", event="  the guard   opens the door "))
    assert history.entries[-1].text() == ("Kira prepares for “the guard opens the door”: one advantage die on it "
                                          "next round.")
    history.do(WalkaAction(kira, "prepare"))  # the second one names nothing
    round_order(history)
    notes = SYSTEM.condition_notes(history.state.combatant(kira), history.state)
    assert "Prepared for: “the guard opens the door”" in notes
    history.do(miss(kira, ids["Ganger 1"], attack_bonus=1, prepared=True))  # the unnamed one goes first
    notes = SYSTEM.condition_notes(history.state.combatant(kira), history.state)
    assert "Prepared for: “the guard opens the door”" in notes
    with pytest.raises(OperationError, match="Only a Prepare names an event"):
        history.do(WalkaAction(kira, "aim", event="the door"))
    round_order(history)
    assert not any("Prepared" in note for note in SYSTEM.condition_notes(history.state.combatant(kira),
                                                                          history.state))


def test_prepare_and_aim_may_be_taken_twice_like_any_action() -> None:
    # walka.md: "every action may be performed twice": "any action may be taken twice (the seed names no exception,
    # so Aim and Prepare too)"; Aim: "a second Aim before the same attack does not double again (default)".
    history, ids = kira_acts()
    kira = ids["Kira"]
    history.do(WalkaAction(kira, "prepare"))
    history.do(WalkaAction(kira, "prepare"))  # two events prepared for: one die each next round
    round_order(history)
    notes = SYSTEM.condition_notes(history.state.combatant(kira), history.state)
    assert "Prepared two actions last round: one advantage die on each" in notes
    history.do(miss(kira, ids["Ganger 1"], attack_bonus=1, prepared=True))  # the attack takes one of them
    notes = SYSTEM.condition_notes(history.state.combatant(kira), history.state)
    assert "Prepared last round: one advantage die on the prepared action" in notes
    history.do(WalkaAction(kira, "aim"))  # the second action of the round
    round_order(history)
    history.do(WalkaAction(kira, "aim"))
    history.do(WalkaAction(kira, "aim"))  # twice: both actions, the pool is still doubled once
    assert budget(history, kira)["non-combat"][1] == 0
    history.undo()
    history.undo()
    assert not any("Prepared" in note for note in SYSTEM.condition_notes(history.state.combatant(kira),
                                                                          history.state))


def test_aim_costs_an_action_and_lasts_into_the_next_round() -> None:
    history, ids = kira_acts()
    history.do(WalkaAction(ids["Kira"], "aim"))
    assert budget(history, ids["Kira"])["non-combat"][1] == 1
    assert "the next attack's damage pool is doubled" in history.entries[-1].text()
    round_order(history)
    kira = history.state.combatant(ids["Kira"])
    assert "Aiming: the next attack's damage pool is doubled" in SYSTEM.condition_notes(kira, history.state)
    history.do(miss(ids["Kira"], ids["Ganger 1"], aimed=True))  # the next attack uses the aim, even a miss
    kira = history.state.combatant(ids["Kira"])
    assert not any("Aiming" in note for note in SYSTEM.condition_notes(kira, history.state))


def test_aim_options_same_round_only_and_two_actions() -> None:
    history, ids = kira_acts({"aim_lasts": "same_round", "aim_actions": 2})
    history.do(WalkaAction(ids["Kira"], "aim"))
    assert budget(history, ids["Kira"])["non-combat"][1] == 0
    round_order(history)
    kira = history.state.combatant(ids["Kira"])
    assert not any("Aiming" in note for note in SYSTEM.condition_notes(kira, history.state))


def test_move_is_five_squares_and_two_moves_are_a_run() -> None:
    history, ids = kira_acts()
    history.do(WalkaAction(ids["Kira"], "move"))
    assert history.entries[-1].text() == "Kira moves 5 squares (10 m)."
    assert "moved 5 squares (10 m)" in SYSTEM.condition_notes(history.state.combatant(ids["Kira"]), history.state)
    history.do(WalkaAction(ids["Kira"], "move"))
    assert "running: 10 squares (20 m)" in SYSTEM.condition_notes(history.state.combatant(ids["Kira"]),
                                                                  history.state)
    history.do(WalkaAction(ids["Drone"], "run"))
    assert history.entries[-1].text() == "Drone runs 10 squares (20 m)."
    assert budget(history, ids["Drone"])["non-combat"][1] == 0


def test_a_move_may_be_shorter_than_five_squares_unless_the_option_says_exactly() -> None:
    # walka.md: "Decision: 5 squares is the most per Move (default: a shorter move is always possible), option:
    # exactly 5."
    history, ids = kira_acts()
    history.do(WalkaAction(ids["Kira"], "move", squares=3))
    assert history.entries[-1].text() == "Kira moves 3 squares (6 m)."
    history.do(WalkaAction(ids["Kira"], "move"))
    assert "running: 8 squares (16 m)" in SYSTEM.condition_notes(history.state.combatant(ids["Kira"]),
                                                                 history.state)
    with pytest.raises(OperationError, match="1 to 5 squares"):
        history.do(WalkaAction(ids["Drone"], "move", squares=6))
    with pytest.raises(OperationError, match="Only a Move"):
        history.do(WalkaAction(ids["Drone"], "run", squares=3))
    round_order(history)
    assert "moved" not in " ".join(SYSTEM.condition_notes(history.state.combatant(ids["Kira"]), history.state))
    history, ids = kira_acts({"move_exactly": True})
    with pytest.raises(OperationError, match="exactly 5 squares"):
        history.do(WalkaAction(ids["Kira"], "move", squares=3))
    history.do(WalkaAction(ids["Kira"], "move"))
    assert history.entries[-1].text() == "Kira moves 5 squares (10 m)."


def test_a_run_needs_both_actions() -> None:
    history, ids = kira_acts()
    history.do(WalkaAction(ids["Kira"], "move"))
    with pytest.raises(OperationError, match="Run needs 2"):
        history.do(WalkaAction(ids["Kira"], "run"))


def test_knocked_down_means_standing_up_before_fighting_again() -> None:
    history, ids = kira_acts()
    history.do(SetKnockedDown(ids["Kira"], True))
    with pytest.raises(OperationError, match="must stand up"):
        history.do(miss(ids["Kira"], ids["Ganger 1"]))
    with pytest.raises(OperationError, match="must stand up"):
        history.do(WalkaAction(ids["Kira"], "aim"))
    history.do(WalkaAction(ids["Kira"], "stand_up"))
    assert "stands up" in history.entries[-1].text()
    history.do(miss(ids["Kira"], ids["Ganger 1"]))
    with pytest.raises(OperationError, match="not knocked down"):
        history.do(WalkaAction(ids["Drone"], "stand_up"))
    with pytest.raises(OperationError, match="already standing"):
        history.do(SetKnockedDown(ids["Kira"], False))


def test_what_down_forbids_is_the_gms_list() -> None:
    # walka.md, Stand up: "Decision: while down a character may not Attack or Aim (default: those are the
    # fighting); other actions are allowed; the list is GM-editable."
    history, ids = kira_acts()
    history.do(SetKnockedDown(ids["Kira"], True))
    history.do(WalkaAction(ids["Kira"], "move"))  # by default crawling away is allowed
    history, ids = kira_acts({"down_forbids": ("move", "run")})
    history.do(SetKnockedDown(ids["Kira"], True))
    with pytest.raises(OperationError, match="“Move” waits until they stand up"):
        history.do(WalkaAction(ids["Kira"], "move"))
    assert "Knocked down: must stand up first for Move, Run" in SYSTEM.condition_notes(
        history.state.combatant(ids["Kira"]), history.state)
    history.do(miss(ids["Kira"], ids["Ganger 1"]))  # attacking from the ground is the GM's call now
    history.do(WalkaAction(ids["Kira"], "stand_up"))
    assert not any("Knocked down" in note for note in SYSTEM.condition_notes(
        history.state.combatant(ids["Kira"]), history.state))


def test_the_down_list_takes_only_actions_and_stand_up_is_never_on_it() -> None:
    spec = next(spec for spec in SYSTEM.option_specs() if spec.key == "down_forbids")
    assert spec.default == ("attack", "aim")
    assert "stand_up" not in {choice for choice, _label in spec.choices}
    assert spec.validate(("aim", "move", "attack")) == ("attack", "move", "aim")  # kept in the choices' order
    assert spec.validate(()) == ()
    bad_values: tuple[JsonValue, ...] = (("fly",), ("aim", "aim"), "attack", {"attack": True})
    for bad in bad_values:
        with pytest.raises(RulesError, match="cannot be"):
            spec.validate(bad)


def test_the_generic_budget_buttons_read_well_in_the_log() -> None:
    history, ids = kira_acts()
    history.do(SpendAction(ids["Kira"], "non-combat"))
    assert history.entries[-1].text() == "Kira takes a non-combat action."
    history.do(SpendAction(ids["Kira"], "combat"))
    assert history.entries[-1].text() == "Kira takes a combat action."
    assert budget(history, ids["Kira"])["non-combat"][1] == 0
    with pytest.raises(OperationError, match="Unknown action"):
        history.do(SpendAction(ids["Drone"], "dance"))


def test_an_attack_outside_the_turn_counts_no_action() -> None:
    history, ids = kira_acts()
    history.do(NextTurn())
    with pytest.raises(OperationError, match="only in their seat's turn"):
        history.do(miss(ids["Kira"], ids["Ganger 1"]))
    history.do(miss(ids["Kira"], ids["Ganger 1"], counts_as_action=False))  # e.g. a reaction the GM allows
    assert budget(history, ids["Kira"])["non-combat"][1] == 2
