"""The dice line reads the open fight's game: its examples, its words, and a clear refusal of another game's."""

from __future__ import annotations

import pytest

from rules.dice import dice_examples
from rules.systems import all_systems
from rules.systems.base import RuleSystem
from tests.ui.conftest import WindowFactory

SYSTEMS = list(all_systems().values())


@pytest.mark.parametrize("system", SYSTEMS, ids=[system.id for system in SYSTEMS])
def test_the_examples_are_the_games(open_window: WindowFactory, system: RuleSystem) -> None:
    line = open_window(system.id).dice_line
    own = [word.example for word in system.dice_words()]
    assert line.examples()[: len(own)] == tuple(own)
    assert set(line.examples()) == set(dice_examples(system.dice_words()))
    assert line.expression.placeholderText().endswith(line.examples()[0])
    foreign = {word.word for other in SYSTEMS if other.id != system.id for word in other.dice_words()}
    foreign -= {word.word for word in system.dice_words()}
    assert not any(f" {word} " in line.expression.toolTip() for word in foreign)


def test_the_examples_follow_a_new_fight_of_another_game(open_window: WindowFactory) -> None:
    window = open_window("sr3")
    assert "tn" in window.dice_line.expression.placeholderText()
    window.workspace.new("walka", "Night Market")
    assert "tn" not in window.dice_line.expression.toolTip()
    window.dice_line.expression.setText("12d6 tn 5")
    window.dice_line.roll()
    assert "belongs to the dice line of another game" in window.dice_line.result.text()
    assert window.dice_line.result.property("error")
