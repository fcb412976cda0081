"""Souboj's shadow damage clock (souboj.md, "Shadow (non-lethal) damage"): "After 10 minutes (60 rounds) three
quarters of the shadow damage disappear. If the creature is then still below 0 HP, it has died; if it got above 0
(and was unconscious), it wakes." Decisions: "the removed ¾ is rounded down (whole points); the 10 minutes run
separately for each shadow wound from the moment it was dealt (default, the literal reading; options: one clock per
creature from its first shadow wound, or from the end of the fight); the remaining quarter stays until healed; at
exactly 0 HP after the fade the creature stays unconscious."

The Bandit of the scene has 20 hit points; Time passes ticks once per 10 seconds, one round.
"""

from __future__ import annotations

from rules.combatants import ApplyHarm, SetDamage, SetOption
from rules.encounter import Status
from rules.history import History, new_history
from rules.systems.souboj import TimePasses
from rules.systems.souboj.shadow import ShadowClock
from tests.rules.test_souboj_scene import SOUBOJ, fight, finish_round, roll

PER_WOUND, PER_CREATURE, FIGHT_END = ShadowClock.PER_WOUND, ShadowClock.PER_CREATURE, ShadowClock.FIGHT_END


def _scene(clock: ShadowClock) -> tuple[History, str]:
    history, ids = fight({"shadow_clock": clock.value})
    return history, ids["Bandit"]


def _shadow(history: History, bandit: str) -> int:
    return history.state.combatant(bandit).boxes("shadow")


def _status(history: History, bandit: str) -> Status:
    return SOUBOJ.status(history.state.combatant(bandit), history.state)


def _shadow_notes(history: History, bandit: str) -> list[str]:
    notes = SOUBOJ.condition_notes(history.state.combatant(bandit), history.state)
    return [note for note in notes if "shadow" in note.lower() and "without" not in note]


def _two_flat_blows_30_rounds_apart(clock: ShadowClock) -> tuple[History, str]:
    history, bandit = _scene(clock)
    history.do(ApplyHarm(bandit, "shadow", 16))
    history.do(TimePasses(300))  # 30 rounds
    history.do(ApplyHarm(bandit, "shadow", 16))  # 20 − 32 = −12: unconscious, not dying (20 without shadow)
    return history, bandit


def test_a_new_fight_counts_each_shadow_wound_from_the_moment_it_was_dealt() -> None:
    assert SOUBOJ.default_options()["shadow_clock"] == "per_wound"
    history = new_history("souboj", "A new fight")
    assert history.state.options["shadow_clock"] == "per_wound"


def test_each_wound_has_its_own_ten_minutes_shown_in_the_details() -> None:
    history, bandit = _two_flat_blows_30_rounds_apart(PER_WOUND)
    assert _status(history, bandit) is Status.UNCONSCIOUS
    assert _shadow_notes(history, bandit) == ["Shadow wound of 16: −12 in 30 rounds",
                                              "Shadow wound of 16: −12 in 60 rounds"]
    history.do(TimePasses(290))
    assert _shadow(history, bandit) == 32
    history.do(TimePasses(10))  # the first wound's 60th round: 16 × 3/4 = 12 fade, 4 stay
    assert _shadow(history, bandit) == 20
    assert history.entries[-1].text().splitlines()[:2] == ["10 seconds pass.", "12 shadow damage of Bandit fades."]
    # 20 − 20 = exactly 0: "pod 0" dies, "nad 0" wakes; at 0 it stays unconscious
    assert _status(history, bandit) is Status.UNCONSCIOUS
    assert _shadow_notes(history, bandit) == ["Shadow wound of 16: −12 in 30 rounds",
                                              "4 shadow damage left after fading stays until healed"]
    history.do(TimePasses(300))  # the second wound's 60th round: 12 more fade
    assert _shadow(history, bandit) == 8
    assert _status(history, bandit) is Status.ACTIVE
    assert "Bandit wakes up." in [reminder.text for reminder in history.entries[-1].reminders]
    assert _shadow_notes(history, bandit) == ["8 shadow damage left after fading stays until healed"]


def test_one_clock_per_creature_from_its_first_shadow_wound_is_an_option() -> None:
    history, bandit = _two_flat_blows_30_rounds_apart(PER_CREATURE)
    assert _shadow_notes(history, bandit) == ["3/4 of the shadow damage fades in 30 rounds"]
    history.do(TimePasses(300))  # 60 rounds after the first wound: 32 × 3/4 = 24 fade, all at once
    assert _shadow(history, bandit) == 8
    assert _status(history, bandit) is Status.ACTIVE
    history.do(TimePasses(600))
    assert _shadow(history, bandit) == 8


def test_one_clock_from_the_end_of_the_fight_does_not_run_in_its_rounds() -> None:
    history, ids = fight({"shadow_clock": FIGHT_END.value})
    bandit = ids["Bandit"]
    roll(history, ids, Aleš=6, Bora=4, Cyril=4, Bandit=3, Chief=1)
    history.do(ApplyHarm(bandit, "shadow", 24))
    finish_round(history)
    roll(history, ids, Aleš=6, Bora=4, Cyril=4, Chief=1)
    finish_round(history)
    assert _shadow_notes(history, bandit) == ["3/4 of the shadow damage fades 60 rounds after the fight"]
    history.do(TimePasses(590))
    assert _shadow_notes(history, bandit) == ["3/4 of the shadow damage fades in 1 round"]
    history.do(TimePasses(10))  # 24 × 3/4 = 18 fade: 20 − 6 = 14, awake
    assert _shadow(history, bandit) == 6
    assert _status(history, bandit) is Status.ACTIVE


def test_per_wound_the_clock_runs_in_the_rounds_of_the_fight() -> None:
    history, ids = fight({"shadow_clock": PER_WOUND.value})
    bandit = ids["Bandit"]
    roll(history, ids, Aleš=6, Bora=4, Cyril=4, Bandit=3, Chief=1)
    history.do(ApplyHarm(bandit, "shadow", 4))
    finish_round(history)
    assert _shadow_notes(history, bandit) == ["Shadow wound of 4: −3 in 59 rounds"]


def test_still_below_zero_after_its_wound_faded_it_has_died() -> None:
    history, bandit = _scene(PER_WOUND)
    history.do(ApplyHarm(bandit, "wounds", 15))
    history.do(ApplyHarm(bandit, "shadow", 24))  # −19: unconscious, 5 without the shadow damage
    assert _status(history, bandit) is Status.UNCONSCIOUS
    history.do(TimePasses(600))  # 18 fade: 20 − 15 − 6 = −1, below 0
    assert _status(history, bandit) is Status.DEAD
    assert "Bandit dies." in [reminder.text for reminder in history.entries[-1].reminders]


def test_the_fading_three_quarters_of_a_wound_are_rounded_down() -> None:
    history, bandit = _scene(PER_WOUND)
    history.do(ApplyHarm(bandit, "shadow", 5))
    history.do(TimePasses(100))
    history.do(ApplyHarm(bandit, "shadow", 3))
    history.do(TimePasses(500))  # the first: 5 × 3/4 = 3.75, 3 fade
    assert _shadow(history, bandit) == 5
    history.do(TimePasses(100))  # the second: 3 × 3/4 = 2.25, 2 fade
    assert _shadow(history, bandit) == 3


def test_healing_takes_the_newest_shadow_damage_first_and_undo_restores_the_clocks() -> None:
    history, bandit = _scene(PER_WOUND)
    history.do(ApplyHarm(bandit, "shadow", 12))
    history.do(TimePasses(300))
    history.do(ApplyHarm(bandit, "shadow", 8))
    history.do(ApplyHarm(bandit, "shadow", -10))  # the 8 healed, and 2 of the 12
    assert _shadow_notes(history, bandit) == ["Shadow wound of 10: −7 in 30 rounds"]
    history.undo()
    assert _shadow_notes(history, bandit) == ["Shadow wound of 12: −9 in 30 rounds",
                                              "Shadow wound of 8: −6 in 60 rounds"]
    history.do(SetDamage(bandit, "shadow", 15))  # set by hand: 5 less, from the newest
    assert _shadow_notes(history, bandit) == ["Shadow wound of 12: −9 in 30 rounds",
                                              "Shadow wound of 3: −2 in 60 rounds"]
    history.do(SetDamage(bandit, "shadow", 18))  # 3 more by hand: a new wound, a new clock
    assert _shadow_notes(history, bandit)[-1] == "Shadow wound of 3: −2 in 60 rounds"
    assert len(_shadow_notes(history, bandit)) == 3


def test_switching_to_per_wound_mid_fight_keeps_the_creatures_clock_for_its_damage() -> None:
    history, bandit = _scene(PER_CREATURE)
    history.do(ApplyHarm(bandit, "shadow", 12))
    history.do(TimePasses(100))
    history.do(SetOption("shadow_clock", PER_WOUND.value))
    assert _shadow_notes(history, bandit) == ["Shadow wound of 12: −9 in 50 rounds"]
    history.do(ApplyHarm(bandit, "shadow", 4))
    assert _shadow_notes(history, bandit) == ["Shadow wound of 12: −9 in 50 rounds",
                                              "Shadow wound of 4: −3 in 60 rounds"]
    history.do(TimePasses(500))
    assert _shadow(history, bandit) == 3 + 4


def test_a_fight_saved_before_the_option_keeps_one_clock_per_creature() -> None:
    history, ids = fight()  # no options stored, as a fight saved before
    bandit = ids["Bandit"]
    history.do(ApplyHarm(bandit, "shadow", 16))
    history.do(TimePasses(300))
    history.do(ApplyHarm(bandit, "shadow", 16))
    history.do(TimePasses(300))
    assert _shadow(history, bandit) == 8
