"""Each game's dice line: the generic forms, the game's own words, and another game's words refused clearly.

Parametrised over the registry (:func:`rules.systems.all_systems`), so a sixth game is checked as it arrives.
"""

from __future__ import annotations

import pytest

from rules.dice import (
    DiceError,
    DiceExpression,
    DiceReader,
    DiceTerm,
    DiceWord,
    Roller,
    dice_examples,
    known_words,
    parse,
)
from rules.history import new_history
from rules.rolls import RecordRoll, parse_for
from rules.systems import all_systems
from rules.systems.base import RuleSystem

SYSTEMS = list(all_systems().values())
IDS = [system.id for system in SYSTEMS]


def _foreign(system: RuleSystem) -> list[tuple[RuleSystem, DiceWord]]:
    """Every other game's word this game's dice line does not know."""
    own = {name for word in system.dice_words() for name in word.words}
    return [(other, word) for other in SYSTEMS if other.id != system.id
            for word in other.dice_words() if word.word not in own]


@pytest.mark.parametrize("system", SYSTEMS, ids=IDS)
def test_every_game_reads_the_generic_forms(system: RuleSystem) -> None:
    for example in (*dice_examples(), "2d10-1", "d%", "d20 under 12 +1b", "4d6 < 3"):
        assert parse_for(system, example) == parse(example)


@pytest.mark.parametrize("system", SYSTEMS, ids=IDS)
def test_a_games_own_words_parse_and_read_back(system: RuleSystem) -> None:
    for word in system.dice_words():
        assert word.example, f"{system.id}: {word.word} has no example"
        expression = parse_for(system, word.example)
        assert parse_for(system, expression.text) == expression
        rolled = expression.roll(Roller.seeded(7))
        assert expression.from_faces(rolled.faces_text()) == rolled
        assert word.word in known_words(system.dice_words())


@pytest.mark.parametrize("system", SYSTEMS, ids=IDS)
def test_another_games_words_are_refused_naming_this_games_words(system: RuleSystem) -> None:
    foreign = _foreign(system)
    if not foreign:
        pytest.skip("no other game has a word this one lacks")
    for other, word in foreign:
        with pytest.raises(DiceError) as refused:
            parse_for(system, word.example)
        message = str(refused.value)
        assert f"“{word.word}”" in message
        assert other.title in message and system.title in message
        assert ", ".join(known_words(system.dice_words())) in message


@pytest.mark.parametrize("system", SYSTEMS, ids=IDS)
def test_an_unknown_word_of_no_game_is_refused_too(system: RuleSystem) -> None:
    with pytest.raises(DiceError, match="Unknown word “foo”"):
        parse_for(system, "3d6 foo")


def test_two_games_have_words_of_their_own() -> None:
    """The checks above are not vacuous: at least two games extend the dice line, with different words."""
    owners = {word.word: system.id for system in SYSTEMS for word in system.dice_words()}
    assert len(set(owners.values())) >= 2


def test_a_game_word_may_not_take_a_generic_word() -> None:
    class Under(DiceWord):
        word = "under"

        def read(self, dice: DiceTerm, reader: DiceReader) -> DiceExpression:
            raise AssertionError

    with pytest.raises(ValueError, match="under"):
        parse("d20 under 5", (Under(),))


@pytest.mark.parametrize("system", SYSTEMS, ids=IDS)
def test_the_log_records_a_roll_as_the_game_reads_it(system: RuleSystem) -> None:
    history = new_history(system.id)
    for example in dice_examples(system.dice_words()):
        expression = parse_for(system, example)
        result = expression.roll(Roller.seeded(3))
        history.do(RecordRoll(expression.text, result.faces))
        assert history.entries[-1].text() == f"Roll: {result.describe()}"


@pytest.mark.parametrize("system", SYSTEMS, ids=IDS)
def test_a_roll_recorded_with_another_games_word_still_replays(system: RuleSystem) -> None:
    """Fights saved while the dice line knew every game's words keep their rolls (nothing is lost on load)."""
    for other, word in _foreign(system):
        expression = parse(word.example, other.dice_words())
        history = new_history(system.id)
        history.do(RecordRoll(expression.text, expression.roll(Roller.seeded(5)).faces))
        assert history.entries[-1].text().startswith("Roll: ")
