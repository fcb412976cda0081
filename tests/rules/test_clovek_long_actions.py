"""Člověk long actions: the seed's book (9, then given up) and shed (12, deferred and resumed), and the rules."""

from __future__ import annotations

import pytest

from rules.combatants import ApplyHarm, SetDamage
from rules.errors import OperationError
from rules.history import History
from rules.systems.clovek import (
    ClovekCheck,
    EndLongAction,
    PauseLongAction,
    PowerRoll,
    RefillBanks,
    ResumeLongAction,
    SkillRoll,
    StartLongAction,
)
from rules.systems.clovek.dice import SkillKind
from rules.systems.clovek.long_actions import LongKind, LongState, find_long_action, long_actions
from rules.systems.clovek.rolls import PowerSource
from tests.rules.test_clovek_scenes import seed_fight


def study(history: History, successes: int, power_faces: tuple[tuple[int, ...], ...]) -> None:
    """A day with the book: Cryptology 3 dots (≥ 7), power against mental capacity 4 (base 2, ≥ 6)."""
    faces = ((8,),) * successes if successes else ((5,),)
    history.do(ClovekCheck("b", SkillRoll("mental", faces, 3, SkillKind.KNOWLEDGE, skill_name="Cryptology"),
                           power=PowerRoll(PowerSource.ATTRIBUTE, 4, power_faces) if successes else None,
                           long_action="book"))
    history.do(RefillBanks("b"))  # the next day is a new scene


def book(history: History) -> int:
    return find_long_action(history.state.combatant("b"), "book").power


def test_seed_book_nine_then_given_up() -> None:
    """3 + 2, a pause (her mental stun does not heal), + 4 = 9 of 10, then given up: the power is lost."""
    history = seed_fight()
    history.do(StartLongAction("b", "book", "Decoding the old book", "mental", LongKind.INTERRUPTIBLE, 10))
    study(history, 1, ((6,),))  # 2 + 1
    assert book(history) == 3
    study(history, 1, ((5,),))  # no power success, no critical: the base 2
    assert book(history) == 5
    history.do(PauseLongAction("b", "book"))
    assert find_long_action(history.state.combatant("b"), "book").state is LongState.PAUSED
    with pytest.raises(OperationError, match="do not heal"):
        history.do(ApplyHarm("b", "mental_stun", -1))
    stun = history.state.combatant("b").boxes("mental_stun")
    with pytest.raises(OperationError, match="do not heal while “Decoding the old book” goes on"):
        history.do(SetDamage("b", "mental_stun", stun - 1))  # a stun box clicked clear on the monitor
    history.do(SetDamage("b", "mental_stun", stun + 1))  # marking more is no healing
    history.do(SetDamage("b", "physical_stun", 0))  # nor is another type's stun held
    history.undo()
    history.undo()
    history.do(ResumeLongAction("b", "book"))
    study(history, 2, ((6,), (7,)))  # 2 + 2
    assert book(history) == 9
    beatrice = history.state.combatant("b")
    assert beatrice.boxes("mental_stun") == 3  # one burnt stun wound per roll
    entry = history.do(EndLongAction("b", "book"))
    assert "9 power lost" in entry.text()
    assert long_actions(history.state.combatant("b")) == []
    history.do(ApplyHarm("b", "mental_stun", -3))  # the next scene heals them
    assert history.state.combatant("b").boxes("mental_stun") == 0


def test_seed_shed_twelve_deferred_and_resumed() -> None:
    """Target 20; four hours of 3 power each = 12, one physical stun burnt per hour; deferred, the stun heals,
    and the work resumes at 12."""
    history = seed_fight()
    history.do(StartLongAction("c", "shed", "Tear down the shed", "physical", LongKind.DEFERRABLE, 20))
    for _hour in range(4):
        history.do(ClovekCheck("c", SkillRoll("physical", ((9,),), 2, skill_name="Labour"),
                               power=PowerRoll(PowerSource.ATTRIBUTE, 4, ((6,),), name="Constitution"),
                               long_action="shed"))
        history.do(RefillBanks("c"))
    cesare = history.state.combatant("c")
    assert find_long_action(cesare, "shed").power == 12 and cesare.boxes("physical_stun") == 4
    history.do(PauseLongAction("c", "shed"))
    assert find_long_action(history.state.combatant("c"), "shed").state is LongState.DEFERRED
    history.do(ApplyHarm("c", "physical_stun", -4))
    history.do(ResumeLongAction("c", "shed"))
    shed = find_long_action(history.state.combatant("c"), "shed")
    assert (shed.power, shed.state) == (12, LongState.RUNNING)


def test_a_failed_roll_is_wasted_and_a_critical_failure_wipes_the_power() -> None:
    history = seed_fight()
    history.do(StartLongAction("b", "book", "Book", "mental", LongKind.DEFERRABLE, 10))
    study(history, 1, ((6,),))
    study(history, 0, ())  # a 5 at 3 dots: a plain failure
    action = find_long_action(history.state.combatant("b"), "book")
    assert (action.power, action.rolls) == (3, 2)
    history.do(ClovekCheck("b", SkillRoll("mental", ((3,),), 3, SkillKind.KNOWLEDGE), long_action="book"))
    assert book(history) == 0


def test_breaking_off_an_uninterruptible_action_loses_everything() -> None:
    history = seed_fight()
    history.do(StartLongAction("b", "ritual", "Ritual", "mental", LongKind.UNINTERRUPTIBLE, 10))
    study_ritual = ClovekCheck("b", SkillRoll("mental", ((8,),), 3), power=PowerRoll(PowerSource.ATTRIBUTE, 4, ((6,),)),
                               long_action="ritual")
    history.do(study_ritual)
    entry = history.do(PauseLongAction("b", "ritual"))
    assert "3 power lost" in entry.text()
    assert long_actions(history.state.combatant("b")) == []


def test_reaching_the_target_completes_the_action() -> None:
    history = seed_fight()
    history.do(StartLongAction("b", "note", "Short note", "mental", LongKind.INTERRUPTIBLE, 3))
    entry = history.do(ClovekCheck("b", SkillRoll("mental", ((8,),), 3),
                                   power=PowerRoll(PowerSource.ATTRIBUTE, 4, ((6,),)), long_action="note"))
    assert "complete" in entry.text()
    assert find_long_action(history.state.combatant("b"), "note").state is LongState.COMPLETE
    history.do(ApplyHarm("b", "mental_stun", -1))  # a completed action no longer holds the stun
    assert "finishes" in history.do(EndLongAction("b", "note")).text()


def test_long_action_rolls_are_checked() -> None:
    history = seed_fight()
    history.do(StartLongAction("b", "book", "Book", "mental", LongKind.INTERRUPTIBLE, 10))
    with pytest.raises(OperationError, match="mental long action"):
        history.do(ClovekCheck("b", SkillRoll("physical", ((9,),), 2),
                               power=PowerRoll(PowerSource.ATTRIBUTE, 1, ((2,),)), long_action="book"))
    with pytest.raises(OperationError, match="Roll the power"):
        history.do(ClovekCheck("b", SkillRoll("mental", ((9,),), 2), long_action="book"))
    history.do(PauseLongAction("b", "book"))
    with pytest.raises(OperationError, match="resume"):
        history.do(ClovekCheck("b", SkillRoll("mental", ((3,),), 2), long_action="book"))
    with pytest.raises(OperationError, match="already exists"):
        history.do(StartLongAction("b", "book", "Again", "mental", LongKind.INTERRUPTIBLE, 10))
    with pytest.raises(OperationError, match="target power"):
        history.do(StartLongAction("b", "x", "Zero", "mental", LongKind.INTERRUPTIBLE, 0))
    with pytest.raises(OperationError, match="no long action"):
        history.do(ResumeLongAction("b", "nothing"))


def test_every_roll_needs_room_to_burn_a_stun_wound() -> None:
    history = seed_fight()
    history.do(StartLongAction("b", "book", "Book", "mental", LongKind.INTERRUPTIBLE, 50))
    history.do(ApplyHarm("b", "mental_stun", 10))
    with pytest.raises(OperationError, match="room"):
        study(history, 1, ((6,),))
