"""What a game lets the GM choose per combatant as initiative is rolled (Člověk: the mental dice risked), made in
the same operation as the roll: typed faces say how many dice were rolled, and a choice out of range is refused."""

from __future__ import annotations

import pytest

from rules.dice import Roller
from rules.encounter import frozen_map
from rules.errors import RulesError
from rules.history import History
from rules.serialize import history_from_document, history_to_document, to_data
from rules.systems import get_system
from rules.systems.clovek import SetInitiativeDice
from rules.turns import RollInitiative, roll_initiative
from tests.rules.sr3_scenes import eight_characters, roll_ones
from tests.rules.test_clovek_scenes import left, seed_fight


def _choices(history: History) -> object:
    operation = history.entries[-1].operation
    assert isinstance(operation, RollInitiative)
    return operation.choices


def _do_roll(history: History, typed: dict[str, tuple[int, ...]] | None = None,
             chosen: dict[str, dict[str, int]] | None = None) -> None:
    system = get_system("clovek")
    history.do(roll_initiative(history.state, system, Roller.seeded(3), typed, chosen))


def test_clovek_offers_the_mental_dice_up_to_those_left() -> None:
    history = seed_fight()
    history.do(SetInitiativeDice("b", 3))
    system = get_system("clovek")
    (dice,) = system.initiative_inputs(history.state.combatant("b"), history.state)
    assert (dice.key, dice.value, dice.minimum, dice.maximum, dice.counts_dice) == ("initiative_dice", 3, 0, 8, True)


def test_typed_faces_say_how_many_mental_dice_were_risked() -> None:
    # The seed's example: nothing chosen beforehand, five faces typed 2, 5, 7, 8, 3 → 8 + Composure 2 = 10.
    history = seed_fight()
    _do_roll(history, {"b": (2, 5, 7, 8, 3)})
    system = get_system("clovek")
    beatrice = history.state.combatant("b")
    assert system.score_text(beatrice, history.state) == "10"
    assert left(history, "b") == (4, 6, 3)
    assert beatrice.extra["initiative_dice"] == 5  # kept for the next rounds, as the panel would
    assert _choices(history) == {"b": {"initiative_dice": 5}}


def test_a_choice_and_the_roll_are_one_entry_and_one_undo() -> None:
    history = seed_fight()
    before = to_data(history.state)
    entries = len(history.entries)
    _do_roll(history, chosen={"c": {"initiative_dice": 2}, "a": {"initiative_dice": 4}})
    assert len(history.entries) == entries + 1
    assert left(history, "c")[2] == 2 and left(history, "a")[2] == 2  # Cesare 4 − 2, Adriana 6 − 4
    rolled = history.state.combatant("a").initiative
    assert rolled is not None and len(rolled.dice) == 1  # the best of the four dice rolled
    history.undo()
    assert to_data(history.state) == before


def test_choices_survive_saving_and_reopening() -> None:
    history = seed_fight()
    _do_roll(history, {"b": (4, 9)}, {"c": {"initiative_dice": 3}})
    reopened = history_from_document(history_to_document(history))
    assert to_data(reopened.state) == to_data(history.state)
    assert _choices(reopened) == {"b": {"initiative_dice": 2}, "c": {"initiative_dice": 3}}


@pytest.mark.parametrize(("typed", "chosen", "words"), [
    ({"b": (1,) * 9}, None, "0 to 8, not 9"),  # nine faces typed, eight mental dice
    (None, {"c": {"initiative_dice": 5}}, "0 to 4, not 5"),
    (None, {"c": {"initiative_dice": -1}}, "0 to 4, not -1"),
    (None, {"c": {"luck": 1}}, "no initiative choice 'luck'"),
    ({"b": (2, 5)}, {"b": {"initiative_dice": 3}}, "3 dice for initiative, not 2"),
])
def test_choices_that_do_not_fit_are_refused(typed: dict[str, tuple[int, ...]] | None,
                                              chosen: dict[str, dict[str, int]] | None, words: str) -> None:
    history = seed_fight()
    before = to_data(history.state)
    with pytest.raises(RulesError, match=words):
        _do_roll(history, typed, chosen)
    assert to_data(history.state) == before


def test_a_game_without_choices_refuses_one() -> None:
    system = get_system("sr3")
    history, ids = eight_characters()
    assert all(not system.initiative_inputs(c, history.state) for c in history.state.combatants.values())
    some = next(iter(history.state.combatants))
    with pytest.raises(RulesError, match="no initiative choice"):
        roll_initiative(history.state, system, Roller.seeded(1), None, {some: {"dice": 2}})
    roll_ones(history, ids)  # no choices: as before
    assert _choices(history) == frozen_map()
