"""Souboj's condition: two damage tracks, unconscious but not dying, shadow damage fading, dying and death,
and attacks landing on them."""

from __future__ import annotations

import pytest

from rules.combatants import ApplyHarm, SetDamage, SetOption
from rules.encounter import Status
from rules.errors import OperationError
from rules.history import History
from rules.systems.souboj import FinishOff, MarkDead, SetDyingCountdown, SoubojAttack, TimePasses
from rules.systems.souboj.model import Cause, Kind
from tests.rules.test_souboj_scene import SOUBOJ, fight, finish_round, roll


def _status(history: History, combatant_id: str) -> Status:
    return SOUBOJ.status(history.state.combatant(combatant_id), history.state)


def _notes(history: History, combatant_id: str) -> list[str]:
    return list(SOUBOJ.condition_notes(history.state.combatant(combatant_id), history.state))


def test_two_tracks_sized_by_the_hit_points() -> None:
    history, ids = fight()
    tracks = SOUBOJ.tracks(history.state.combatant(ids["Bandit"]), history.state)
    assert [(t.key, t.size, t.kind) for t in tracks] == [("wounds", 20, "points"), ("shadow", 20, "points")]


# --- shadow damage --------------------------------------------------------------------------------------------


def test_unconscious_but_not_dying_while_the_hit_points_without_shadow_damage_stay_above_zero() -> None:
    history, ids = fight()
    bandit = ids["Bandit"]  # 20 hit points
    history.do(ApplyHarm(bandit, "wounds", 8))
    history.do(ApplyHarm(bandit, "shadow", 12))  # 20 − 8 − 12 = 0: out, but 12 without the shadow damage
    assert _status(history, bandit) is Status.UNCONSCIOUS
    assert _notes(history, bandit)[:3] == [
        "Hit points 0 of 20", "12 without the shadow damage",
        "Unconscious, not dying: without the shadow damage the hit points stay above 0"]
    history.do(ApplyHarm(bandit, "wounds", 12))  # now 0 without the shadow damage too
    assert _status(history, bandit) is Status.DYING


def test_three_quarters_of_the_shadow_damage_fade_after_sixty_rounds_and_the_creature_wakes() -> None:
    history, ids = fight()
    bandit = ids["Bandit"]
    history.do(ApplyHarm(bandit, "shadow", 25))  # −5: unconscious
    assert "3/4 of the shadow damage fades in 60 rounds" in _notes(history, bandit)
    history.do(TimePasses(590))  # 59 rounds of 10 seconds
    assert history.state.combatant(bandit).boxes("shadow") == 25
    history.do(TimePasses(10))  # the 60th: 25 × 3/4 = 18.75, rounded down: 18 fade, 7 stay
    assert history.state.combatant(bandit).boxes("shadow") == 7
    assert _status(history, bandit) is Status.ACTIVE
    assert history.entries[-1].text().splitlines() == [
        "10 seconds pass.", "18 shadow damage of Bandit fades.", "Bandit is now Active."]
    assert "Bandit wakes up." in [r.text for r in history.entries[-1].reminders]


def test_the_quarter_left_stays_until_healed_and_a_new_shadow_wound_starts_the_clock_again() -> None:
    # souboj.md Decision: "the remaining quarter stays until healed (only ¾ is said to fade)".
    history, ids = fight()
    bandit = ids["Bandit"]
    history.do(ApplyHarm(bandit, "shadow", 25))
    history.do(TimePasses(600))  # 18 fade, 7 stay
    assert history.state.combatant(bandit).boxes("shadow") == 7
    assert not any("fades in" in note for note in _notes(history, bandit))
    history.do(TimePasses(1200))  # 120 rounds more: nothing else fades
    assert history.state.combatant(bandit).boxes("shadow") == 7
    history.do(ApplyHarm(bandit, "shadow", 4))  # a new flat blow: 11, and a new clock
    assert "3/4 of the shadow damage fades in 60 rounds" in _notes(history, bandit)
    history.do(TimePasses(600))  # 11 × 3/4 = 8.25: 8 fade, 3 stay
    assert history.state.combatant(bandit).boxes("shadow") == 3


def test_rounding_the_fading_part_up_is_the_gms_option() -> None:
    history, ids = fight({"shadow_rounding": "up"})
    history.do(ApplyHarm(ids["Bandit"], "shadow", 25))
    history.do(TimePasses(600))
    assert history.state.combatant(ids["Bandit"]).boxes("shadow") == 25 - 19


def test_still_below_zero_after_the_shadow_damage_faded_it_dies() -> None:
    history, ids = fight()
    bandit = ids["Bandit"]
    history.do(ApplyHarm(bandit, "wounds", 15))
    history.do(ApplyHarm(bandit, "shadow", 16))  # 20 − 15 − 16 = −11: unconscious (5 without shadow)
    history.do(TimePasses(600))  # 12 of 16 fade: 20 − 15 − 4 = 1, above 0: it wakes
    assert _status(history, bandit) is Status.ACTIVE
    history2, ids2 = fight()
    history2.do(ApplyHarm(ids2["Bandit"], "wounds", 18))
    history2.do(ApplyHarm(ids2["Bandit"], "shadow", 16))  # −14; 2 without the shadow damage
    history2.do(TimePasses(600))  # 12 fade: 20 − 18 − 4 = −2 < 0
    assert _status(history2, ids2["Bandit"]) is Status.DEAD
    history2.do(ApplyHarm(ids2["Bandit"], "wounds", -30))
    assert _status(history2, ids2["Bandit"]) is Status.DEAD  # healing a corpse does not revive it


def test_the_shadow_clock_runs_in_rounds_during_the_fight() -> None:
    history, ids = fight()
    history.do(ApplyHarm(ids["Bandit"], "shadow", 4))
    roll(history, ids, Aleš=6, Bora=5, Cyril=3, Bandit=2, Chief=1)
    finish_round(history)
    assert "3/4 of the shadow damage fades in 59 rounds" in _notes(history, ids["Bandit"])
    history.do(SetDamage(ids["Bora"], "shadow", 3))  # set by hand: the clock starts at the next round's end
    history.do(TimePasses(10))
    assert "3/4 of the shadow damage fades in 59 rounds" in _notes(history, ids["Bora"])


# --- dying ----------------------------------------------------------------------------------------------------------


def test_dying_with_a_countdown_set_by_the_gm() -> None:
    history, ids = fight()
    bandit = ids["Bandit"]
    with pytest.raises(OperationError, match="not dying"):
        history.do(SetDyingCountdown(bandit, 2))
    history.do(ApplyHarm(bandit, "wounds", 21))
    assert "Dying: set how many rounds it has left" in _notes(history, bandit)
    history.do(SetDyingCountdown(bandit, 2))
    assert "Dying: 2 rounds left" in _notes(history, bandit)
    assert "Dies at once at −20 hit points" in _notes(history, bandit)
    roll(history, ids, Aleš=6, Bora=5, Cyril=3, Bandit=2, Chief=1)
    finish_round(history)
    assert "Dying: 1 round left" in _notes(history, bandit)
    roll(history, ids, Aleš=6, Bora=5, Cyril=3, Bandit=2, Chief=1)
    finish_round(history)
    assert _status(history, bandit) is Status.DEAD
    assert "Bandit dies." in [r.text for r in history.entries[-1].reminders]


def test_healed_above_zero_before_death_it_is_saved() -> None:
    history, ids = fight()
    bandit = ids["Bandit"]
    history.do(ApplyHarm(bandit, "wounds", 21))
    history.do(SetDyingCountdown(bandit, 1))
    history.do(ApplyHarm(bandit, "wounds", -3))
    assert _status(history, bandit) is Status.ACTIVE
    assert "dying_rounds" not in history.state.combatant(bandit).extra
    history.do(TimePasses(10))
    assert _status(history, bandit) is Status.ACTIVE


def test_at_minus_the_maximum_hit_points_it_dies_at_once() -> None:
    history, ids = fight()
    bandit = ids["Bandit"]
    history.do(ApplyHarm(bandit, "wounds", 39))  # −19
    assert _status(history, bandit) is Status.DYING
    history.do(ApplyHarm(bandit, "wounds", 1))  # −20 = −(maximum)
    assert _status(history, bandit) is Status.DEAD
    assert history.entries[-1].text().splitlines()[-1] == "Bandit is now Dead."


def test_whether_shadow_damage_counts_towards_that_death_is_the_gms_option() -> None:
    history, ids = fight({"shadow_counts_for_death": False})
    bandit = ids["Bandit"]
    history.do(ApplyHarm(bandit, "wounds", 30))  # dying at −10
    history.do(ApplyHarm(bandit, "shadow", 15))  # −25 with the shadow damage, −10 without
    assert _status(history, bandit) is Status.DYING
    history.do(SetOption("shadow_counts_for_death", True))
    assert _status(history, bandit) is Status.DEAD


def test_the_gm_may_declare_a_death_and_take_it_back() -> None:
    history, ids = fight()
    history.do(MarkDead(ids["Chief"]))
    assert _status(history, ids["Chief"]) is Status.DEAD
    with pytest.raises(OperationError, match="Nothing to change"):
        history.do(MarkDead(ids["Chief"]))
    history.do(MarkDead(ids["Chief"], dead=False))
    assert _status(history, ids["Chief"]) is Status.ACTIVE


# --- attacks landing -------------------------------------------------------------------------------------------


def _melee(attacker: str, target: str, **changes: object) -> SoubojAttack:
    """Aleš's sword: 1d6 + Strength 8 + weapon 6 against 1d6 + Dexterity 5 + weapon defence 2."""
    fields: dict[str, object] = {"weapon": "sword", "attack_bonus": 14, "defence_bonus": 7, "attack_roll": 5,
                                 "defence_roll": 2, "strength": 8, "armor": 1, "level": 4}
    fields.update(changes)
    return SoubojAttack(attacker, target, Kind.MELEE, **fields)  # type: ignore[arg-type]


def test_a_melee_hit_deals_base_plus_strength_minus_armor() -> None:
    history, ids = fight()
    history.do(_melee(ids["Aleš"], ids["Bandit"]))  # 19 against 9: base 10, + 8 − 1 = 17
    assert history.state.combatant(ids["Bandit"]).boxes("wounds") == 17
    assert history.entries[-1].text().splitlines() == [
        "Aleš attacks Bandit with sword (Melee (face to face)).",
        "Attack 5 + 14 = 19 against defence 2 + 7 = 9.",
        "Hit: base 10, damage 17.",
        "Bandit takes 17 on the Wounds track."]


def test_a_miss_when_the_attack_does_not_beat_the_defence() -> None:
    history, ids = fight()
    history.do(_melee(ids["Aleš"], ids["Bandit"], attack_roll=1, defence_roll=6, defence_bonus=9))  # 15 vs 15
    assert history.state.combatant(ids["Bandit"]).boxes("wounds") == 0
    assert history.entries[-1].text().splitlines()[-1] == "The attack misses."


def test_a_flat_blow_deals_shadow_damage() -> None:
    history, ids = fight()
    history.do(_melee(ids["Aleš"], ids["Bandit"], flat=True, attack_roll=2))  # 16 − 9 = 7 + 8 − 1 = 14
    bandit = history.state.combatant(ids["Bandit"])
    assert (bandit.boxes("wounds"), bandit.boxes("shadow")) == (0, 14)
    with pytest.raises(OperationError, match="Only a melee attack"):
        history.do(SoubojAttack(ids["Cyril"], ids["Bandit"], Kind.RANGED, attack_roll=3, defence_roll=3,
                                flat=True))


def test_a_critical_hit_multiplies_the_damage_by_the_level_at_most_ten() -> None:
    history, ids = fight()
    # Base 10 + 8 − 1 = 17 × level 4 = 68: far past −20, the Chief (28) dies.
    history.do(_melee(ids["Aleš"], ids["Chief"], causes=(Cause.BEHIND,)))
    assert "Critical hit (attack from behind): 17 × 4 = 68." in history.entries[-1].text()
    assert _status(history, ids["Chief"]) is Status.DEAD


def test_a_critical_wound_prompts_its_after_effect_but_a_flat_or_killing_one_does_not() -> None:
    # souboj.md, "Critical hits": "The GM may add effects (bleeding, amputation…) by the size of the wound."
    history, ids = fight()
    # Attack 5 + 14 = 19 against 2 + 7 + 8 = 17: base 2, + 8 − 1 = 9, × level 1 = 9 on the Chief's 28 hit points.
    entry = history.do(_melee(ids["Aleš"], ids["Chief"], defence_bonus=15, level=1, causes=(Cause.BEHIND,)))
    offered = [reminder for reminder in entry.reminders if reminder.offers_effect]
    assert [(reminder.combatant, reminder.text) for reminder in offered] == [
        (ids["Chief"], "A critical wound of 9 on Chief: add its after-effect if it has one (bleeding, a lost limb…, "
                       "by the size of the wound).")]
    assert _status(history, ids["Chief"]) is Status.ACTIVE
    flat = history.do(_melee(ids["Aleš"], ids["Chief"], defence_bonus=15, level=1, causes=(Cause.BEHIND,),
                             flat=True))
    assert not any(reminder.offers_effect for reminder in flat.reminders)  # shadow damage neither bleeds nor cuts
    killing = history.do(_melee(ids["Aleš"], ids["Bandit"], causes=(Cause.BEHIND,)))  # 17 × 4 = 68
    assert _status(history, ids["Bandit"]) is Status.DEAD
    assert not any(reminder.offers_effect for reminder in killing.reminders)


def test_a_critical_wound_that_leaves_the_target_dying_kills_it_on_the_spot() -> None:
    history, ids = fight()
    # Firearm 1d6 + 5 against 1d6 + Dexterity 5: 10 − 6 = 4 × level 2 = 8 on 22 − 15 hit points.
    history.do(ApplyHarm(ids["Cyril"], "wounds", 15))
    history.do(SoubojAttack(ids["Bandit"], ids["Cyril"], Kind.FIREARM, "pistol", 5, 5, 5, 1, level=2,
                            causes=(Cause.GM,)))
    assert history.state.combatant(ids["Cyril"]).boxes("wounds") == 23
    assert _status(history, ids["Cyril"]) is Status.DEAD
    assert "The critical wound kills Cyril on the spot." in history.entries[-1].text()
    with pytest.raises(OperationError, match="Only a firearm"):
        history.do(_melee(ids["Aleš"], ids["Bandit"], causes=(Cause.GM,)))


def test_an_ordinary_wound_leaves_the_target_dying_with_a_reminder() -> None:
    history, ids = fight()
    history.do(ApplyHarm(ids["Bandit"], "wounds", 10))
    history.do(_melee(ids["Aleš"], ids["Bandit"]))
    assert _status(history, ids["Bandit"]) is Status.DYING
    assert history.entries[-1].reminders[0].text.startswith("Bandit is dying: set how many rounds")


def test_finishing_off_a_dying_creature_is_automatic() -> None:
    history, ids = fight()
    with pytest.raises(OperationError, match="not dying"):
        history.do(FinishOff(ids["Aleš"], ids["Bandit"]))
    history.do(ApplyHarm(ids["Bandit"], "wounds", 25))
    history.do(FinishOff(ids["Aleš"], ids["Bandit"]))
    assert _status(history, ids["Bandit"]) is Status.DEAD
    assert history.entries[-1].text() == "Aleš finishes off Bandit."
    with pytest.raises(OperationError, match="already dead"):
        history.do(_melee(ids["Aleš"], ids["Bandit"]))


def test_a_spell_deals_what_the_spell_says() -> None:
    history, ids = fight()
    history.do(SoubojAttack(ids["Bora"], ids["Bandit"], Kind.MAGIC, "fireball", spell_damage=9))
    assert history.state.combatant(ids["Bandit"]).boxes("wounds") == 9
    with pytest.raises(OperationError, match="spell"):
        history.do(SoubojAttack(ids["Bora"], ids["Bandit"], Kind.MAGIC, attack_roll=3, spell_damage=9))


@pytest.mark.parametrize("changes", [
    {"attack_roll": 7}, {"defence_roll": None}, {"level": 0}, {"armor": -1},
    {"causes": (Cause.BEHIND, Cause.BEHIND)}, {"spell_damage": 3}, {"attack_bonus": 5000},
])
def test_a_bad_attack_is_refused_and_changes_nothing(changes: dict[str, object]) -> None:
    history, ids = fight()
    before = history.state
    with pytest.raises(OperationError):
        history.do(_melee(ids["Aleš"], ids["Bandit"], **changes))
    assert history.state is before


def test_an_unconscious_attacker_cannot_attack_unless_its_group_acts_now() -> None:
    history, ids = fight()
    history.do(ApplyHarm(ids["Aleš"], "shadow", 30))
    with pytest.raises(OperationError, match="cannot attack"):
        history.do(_melee(ids["Aleš"], ids["Bandit"]))
    history.do(ApplyHarm(ids["Aleš"], "shadow", -30))
    roll(history, ids, Aleš=4, Bora=3, Cyril=2, Bandit=4, Chief=1)
    history.do(_melee(ids["Bandit"], ids["Aleš"], flat=True, attack_bonus=30))  # 33 on 30: Aleš is out…
    assert _status(history, ids["Aleš"]) is Status.UNCONSCIOUS
    history.do(_melee(ids["Aleš"], ids["Bandit"]))  # …but his blow, struck at the same time, still lands
    assert history.state.combatant(ids["Bandit"]).boxes("wounds") == 17
