"""A whole SR3 fight driven headless through the history API: 8 combatants, a surprise round, 3 combat
turns, wounds mid-pass, a delay into the next pass and a grenade; the log must read correctly."""

from __future__ import annotations

import json

import pytest

from rules.combatants import ApplyHarm, SpendAction
from rules.dice import Roller
from rules.encounter import Status, frozen_map
from rules.errors import OperationError
from rules.history import History
from rules.serialize import history_from_document, history_to_document, to_data
from rules.systems import get_system
from rules.systems.sr3 import Sr3Attack, SurpriseTest, damage_code, grenade_timer
from rules.turns import DelayAction, NextTurn, TakeDelayedAction, roll_initiative
from tests.rules.sr3_scenes import current_name, eight_characters, play_round, roll_ones

SR3 = get_system("sr3")


def chains(*faces: int | tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    return tuple(face if isinstance(face, tuple) else (face,) for face in faces)


def log_text(history: History) -> str:
    return "\n".join(entry.text() for entry in history.entries)


def _first_round(history: History, ids: dict[str, str]) -> None:
    history.do(SurpriseTest(frozen_map({ids["Mike"]: 3, ids["Dave"]: 2, ids["Sharon"]: 2, ids["Richie"]: 0,
                                        ids["Camilla"]: 0, ids["Ganger 1"]: 1, ids["Ganger 2"]: 1,
                                        ids["Ganger 3"]: 1})))
    roll_ones(history, ids)
    assert current_name(history) == "Mike"
    # Mike shoots Ganger 2 (Ares Predator 9M): 4 hits; the surprised ganger may not dodge; resists 1 → S.
    history.do(Sr3Attack(ids["Mike"], ids["Ganger 2"], "Ares Predator", 9, "M", 4, chains(5, 5, 6, 4, 2, 1),
                         9, chains((6, 3), 2, 4, 1), attack_pool=2))
    assert history.state.combatant(ids["Ganger 2"]).boxes("physical") == 6
    history.do(NextTurn())
    assert current_name(history) == "Ganger 1"
    power, level = damage_code(6, "M", "BF")
    history.do(Sr3Attack(ids["Ganger 1"], ids["Richie"], "Uzi III burst", power, level, 4, chains(4, 5, 1, 2),
                         power, chains(1, 2, 3, (6, 4))))
    history.do(NextTurn())
    assert current_name(history) == "Dave"
    history.do(NextTurn())
    assert current_name(history) == "Sharon"  # Ganger 2 (19 → 16 after the wound) now comes after her
    history.do(SpendAction(ids["Sharon"], "simple"))
    history.do(grenade_timer(history.state, ids["Sharon"], "Sharon's grenade", "grenade-1"))
    history.do(NextTurn())
    assert current_name(history) == "Ganger 2"
    with pytest.raises(OperationError, match="surprised"):  # Dave beat him in the surprise test
        history.do(Sr3Attack(ids["Ganger 2"], ids["Dave"], "Knife", 4, "M", 4, chains(6), 4, chains(1)))
    history.do(Sr3Attack(ids["Ganger 2"], ids["Camilla"], "Knife", 4, "M", 4, chains(6, 6), 4, chains(4, 1)))
    history.do(NextTurn())
    assert current_name(history) == "Ganger 3"
    history.do(DelayAction(ids["Ganger 3"], into_next_pass=True))
    # Richie and Camilla were completely surprised: nobody else acts in pass 1.
    assert history.state.clock.pass_no == 2 and current_name(history) == "Mike"


def _second_pass(history: History, ids: dict[str, str]) -> None:
    history.do(NextTurn())
    assert current_name(history) == "Ganger 1"
    history.do(Sr3Attack(ids["Ganger 1"], ids["Dave"], "Uzi III", 6, "M", 4, chains(5, 2, 2), 6,
                         chains(1, 1, 2, 3)))  # 1 hit, no resistance: Moderate, Dave 22 → 20, pass 2 at 10
    assert SR3.score_text(history.state.combatant(ids["Dave"]), history.state) == "20 → 10"
    history.do(NextTurn())
    assert current_name(history) == "Dave"
    history.do(TakeDelayedAction(ids["Ganger 3"]))  # interrupts before Dave's phase
    history.do(Sr3Attack(ids["Ganger 3"], ids["Mike"], "Shotgun", 10, "S", 4, chains(4, 4, 1), 10,
                         chains((6, 4), (6, 5), 5, 5, 2)))  # 2 hits vs 2 resisted: base Serious
    history.do(NextTurn())
    assert current_name(history) == "Dave"
    history.do(NextTurn())
    assert current_name(history) == "Sharon's grenade"
    history.do(ApplyHarm(ids["Ganger 2"], "physical", 6, "grenade"))  # 12 boxes: dying
    history.do(ApplyHarm(ids["Ganger 1"], "physical", 3, "grenade"))
    history.do(NextTurn())
    assert current_name(history) == "Sharon"
    rest = play_round(history)
    # Ganger 3's delayed action, taken before Dave, was his action of pass 2: no phase 5 for him as well.
    assert [(p, name) for p, name, _phase in rest] == [
        (2, "Sharon"), (2, "Richie"), (3, "Mike"), (3, "Ganger 1"), (4, "Mike")]


def test_scripted_fight() -> None:
    history, ids = eight_characters()
    _first_round(history, ids)
    _second_pass(history, ids)
    state = history.state
    assert SR3.status(state.combatant(ids["Ganger 2"]), state) is Status.DYING
    assert state.combatant(ids["Mike"]).boxes("physical") == 6
    assert state.combatant(ids["Mike"]).pools["combat"].spent == 2
    roller = Roller.seeded(2026)
    for number in (2, 3):
        history.do(roll_initiative(history.state, SR3, roller))
        assert history.state.clock.round == number
        assert history.state.combatant(ids["Mike"]).pools["combat"].spent == 0  # pools refresh each turn
        assert ids["Ganger 2"] not in history.state.clock.acted
        played = play_round(history)
        assert "Ganger 2" not in [name for _p, name, _phase in played]  # dying: no turns
    text = log_text(history)
    for line in (
        "Richie is completely surprised and cannot act in the first pass.",
        "Mike attacks Ganger 2 with Ares Predator (9M).",
        "Mike: 4 successes at TN 4.",
        "Mike uses 2 combat pool dice.",
        "Ganger 2 resists: 1 success at TN 9.",
        "Ganger 2 takes Serious Physical damage.",
        "Ganger 3 delays into the next pass.",
        "Initiative pass 2 begins.",
        "Ganger 3 takes the delayed action.",
        "Sharon's grenade goes off.",
        "Ganger 2 is now Dying.",
        "Round 1 ends.",
        "Round 3 begins.",
        "Dave acts in phase 10.",
    ):
        assert line in text.splitlines(), line
    final = to_data(history.state)
    document = json.loads(json.dumps(history_to_document(history)))
    assert to_data(history_from_document(document).state) == final
    count = len(history.entries)
    while history.undo():
        pass
    assert to_data(history.state) == to_data(history.initial)
    for _index in range(count):
        history.redo()
    assert to_data(history.state) == final
