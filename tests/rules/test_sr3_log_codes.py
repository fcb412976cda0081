"""SR3 damage codes in the combat log are written in the letters of the GM's language when the log is read.

sr3.md: "the Czech L/M/V/S (lehké, mírné, vážné, smrtelné) has S = Deadly, V = Serious (Czech 11V = 11S, Czech
9S = 9D)". The log keeps the code as stored (English letters, so a fight replays to the same facts in every
language) and shows it as the window shows it: a Czech GM who typed 9S reads "(9S)", not "(9D)".
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from rules.combatants import SetAttribute
from rules.documents import decode_line, encode_line
from rules.history import History, LogLine
from rules.log_formats import shown_in_language
from rules.systems.sr3 import Sr3Attack
from rules.systems.sr3.damage import DAMAGE_CODE_FORMAT
from rules.systems.sr3.resistance import Sr3ResistHit
from tests.rules.languages import install_rules_language
from tests.rules.sr3_scenes import eight_characters, roll_ones
from tests.rules.test_sr3_scripted_fight import chains


@pytest.fixture
def english_after() -> Iterator[None]:
    yield
    install_rules_language("en")


def _deadly_shot() -> tuple[History, LogLine]:
    """Mike shoots Ganger 1 with a 9D code and misses (every die a 1): the first line names the code."""
    history, ids = eight_characters()
    roll_ones(history, ids)
    entry = history.do(Sr3Attack(ids["Mike"], ids["Ganger 1"], "Ares Predator", 9, "D", 4, chains(1, 1), 4,
                                 chains(1), mode="SA"))
    return history, entry.log[0]


@pytest.mark.parametrize(("language", "shown"), [
    ("en", " (9D)."),  # English L/M/S/D
    ("cs", " (9S)."),  # the digest's "Czech 9S = 9D"
    ("pl", " (9Śm)."),
    ("ru", ", 9См)."),  # "Mike атакует Ganger 1 (Ares Predator, 9См)."
])
def test_the_attack_line_writes_the_code_in_the_gm_s_letters(english_after: None, language: str,
                                                              shown: str) -> None:
    _history, line = _deadly_shot()
    assert line.args["code"] == "9D"  # stored as every release stored it
    install_rules_language(language)
    assert shown in line.render()


def test_the_czech_log_of_a_serious_wound_reads_v(english_after: None) -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    entry = history.do(Sr3Attack(ids["Mike"], ids["Ganger 1"], "AK-97", 11, "S", 4, chains(1, 1), 4, chains(1),
                                 mode="SA"))
    install_rules_language("cs")
    assert "(11V)" in entry.log[0].render()  # the digest's "Czech 11V = 11S"


def test_the_format_survives_saving_and_a_line_saved_without_it_reads_as_stored(english_after: None) -> None:
    _history, line = _deadly_shot()
    saved = json.loads(json.dumps(encode_line(line)))
    reopened = decode_line(saved, "log[0][0]")
    install_rules_language("cs")
    assert "(9S)" in reopened.render()
    older = decode_line(saved[:5], "log[0][0]")  # a line as releases before the format wrote it
    assert "(9D)" in older.render()


def test_a_format_this_release_does_not_know_leaves_the_text_as_stored() -> None:
    line = LogLine("{name} resists {code}.", {"name": "Ganger", "code": "9D"}, shown_as={"code": "no such format"})
    assert line.render() == "Ganger resists 9D."
    assert shown_in_language(DAMAGE_CODE_FORMAT, "not a code") == "not a code"


def test_a_resisted_blast_is_logged_in_the_gm_s_letters_whatever_language_applied_it(english_after: None) -> None:
    history, _ids = eight_characters()
    target = next(c.id for c in history.state.combatants.values() if c.name == "Ganger 2")
    install_rules_language("cs")  # applied in a Czech window: the stored line must not depend on it
    entry = history.do(Sr3ResistHit(target, 10, "D", 10, ((2,),) * 4, 0, "stun"))
    assert entry.log[0].args["code"] == "10D Stun"
    assert entry.log[0].render().startswith("Ganger 2 odolává 10S")
    install_rules_language("en")
    assert entry.log[0].render() == "Ganger 2 resists 10D Stun."


def test_an_attribute_set_by_hand_is_named_in_the_gm_s_language(english_after: None) -> None:
    # The log said "Ganger 1: body set to 5." in every language: the key, not the attribute's name.
    history, ids = eight_characters()
    entry = history.do(SetAttribute(ids["Ganger 1"], "body", 5))
    assert entry.log[0].args["attribute"] == "body"  # stored as it always was
    assert entry.text() == "Ganger 1: Body set to 5."
    install_rules_language("cs")
    assert entry.log[0].render() == "Ganger 1: Tělo nastaveno na 5."
    unknown = history.do(SetAttribute(ids["Ganger 1"], "house_rule", 2))  # a key the game does not know
    assert unknown.log[0].render() == "Ganger 1: house_rule nastaveno na 2."


def test_an_edited_field_is_named_in_the_gm_s_language(english_after: None) -> None:
    # The log said "Ganger 1: notes changed." in every language: the field's key.
    from rules.combatants import EditCombatant

    history, ids = eight_characters()
    entry = history.do(EditCombatant(ids["Ganger 1"], "notes", "has the keys"))
    assert entry.log[0].args["field"] == "notes"  # stored as it always was
    assert entry.text() == "Ganger 1: Notes changed."
    install_rules_language("cs")
    assert entry.log[0].render() == "Ganger 1: změněno pole „Poznámky“."
    install_rules_language("ru")
    assert entry.log[0].render() == "Ganger 1: изменено поле «Заметки»."
