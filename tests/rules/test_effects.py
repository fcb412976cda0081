"""Effects tick on the game's timing hooks: rounds, passes, "until the end of X's next turn", reminders."""

from __future__ import annotations

import gettext

from rules import text
from rules.effects import AddEffect, RemoveEffect
from rules.encounter import Effect, Timing
from rules.history import History
from rules.systems.base import Hook
from rules.turns import NextTurn
from tests.rules.sr3_scenes import current_name, eight_characters, play_round, roll_ones


def _started() -> tuple[History, dict[str, str]]:
    history, ids = eight_characters()
    roll_ones(history, ids)
    return history, ids


def test_effect_lasting_two_passes_ends_after_the_second_pass() -> None:
    history, _ids = _started()
    history.do(AddEffect(Effect("smoke", "Smoke grenade cloud", expires=Timing(Hook.PASS_END), remaining=2)))
    while history.state.clock.pass_no == 1:
        history.do(NextTurn())
    assert "smoke" in history.state.effects and history.state.effects["smoke"].remaining == 1
    while history.state.clock.pass_no == 2:
        history.do(NextTurn())
    assert "smoke" not in history.state.effects
    assert "Smoke grenade cloud ends." in "\n".join(entry.text() for entry in history.entries)


def test_until_the_end_of_targets_next_turn() -> None:
    history, ids = _started()
    history.do(AddEffect(Effect("stunned", "Dazed", target=ids["Dave"],
                                expires=Timing(Hook.TURN_END, ids["Dave"]), remaining=1)))
    while current_name(history) != "Dave":
        history.do(NextTurn())
    assert "stunned" in history.state.effects
    history.do(NextTurn())
    assert "stunned" not in history.state.effects
    ended = history.entries[-1]
    assert any("Dazed ends." in reminder.text for reminder in ended.reminders)


def test_round_effect_and_reminder_each_round_start() -> None:
    history, ids = _started()
    history.do(AddEffect(Effect("bleed", "Bleeding", target=ids["Mike"], expires=Timing(Hook.ROUND_END),
                                remaining=2, reminds=Timing(Hook.TURN_START, ids["Mike"]))))
    play_round(history)
    assert history.state.effects["bleed"].remaining == 1
    reminders = [r.text for entry in history.entries for r in entry.reminders]
    assert reminders.count("Reminder: Bleeding") == 3  # Mike's turns in passes 2–4 (pass 1 had begun)
    roll_ones(history, ids)
    play_round(history)
    assert "bleed" not in history.state.effects


def test_removing_an_effect_is_undoable() -> None:
    history, _ids = _started()
    history.do(AddEffect(Effect("aim", "Aiming")))
    history.do(RemoveEffect("aim"))
    assert "aim" not in history.state.effects
    history.undo()
    assert "aim" in history.state.effects


class _Shouting(gettext.NullTranslations):
    """A stand-in catalog: proves log lines are translated when rendered, not when recorded."""

    def gettext(self, message: str) -> str:
        return message.upper().replace("{NAME}", "{name}").replace("{EFFECT}", "{effect}")


def test_log_lines_are_translated_when_rendered() -> None:
    history, _ids = _started()
    history.do(AddEffect(Effect("aim", "Aiming")))
    entry = history.entries[-1]
    assert entry.text() == "Aiming begins."
    text.install(_Shouting())
    try:
        assert entry.text() == "Aiming BEGINS."
    finally:
        text.install(gettext.NullTranslations())
