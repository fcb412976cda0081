"""Souboj's round: 1d6 every round, simultaneous groups and their inner order, reactions, surprise, timing."""

from __future__ import annotations

import pytest

from rules.combatants import ApplyHarm, SetAttribute, SetOption, SpendAction
from rules.effects import AddEffect
from rules.encounter import Effect, Status, Timing
from rules.errors import OperationError, RulesError
from rules.history import History
from rules.serialize import to_data
from rules.systems.base import DiceSpec, Hook
from rules.systems.souboj import (
    ActAfter,
    AddInitiativeEffect,
    Declare,
    DropReaction,
    GrantAction,
    HoldReaction,
    JudgeLastAction,
    SetDyingCountdown,
    TimePasses,
    UseReaction,
)
from rules.systems.souboj.model import Action, Placement, reactions
from rules.turns import DelayAction, NextTurn, SetInitiative, YieldTurn, actor_for
from tests.rules.test_souboj_scene import SOUBOJ, current, fight, finish_round, order, roll

# --- timing hooks -------------------------------------------------------------------------------------------


def test_the_hooks_are_exactly_the_digests() -> None:
    assert SOUBOJ.hooks() == frozenset({Hook.ROUND_START, Hook.TURN_START, Hook.ROUND_END})


def _reminding(effect_id: str, name: str, hook: Hook, combatant: str | None = None) -> AddEffect:
    return AddEffect(Effect(effect_id, name, target=combatant, reminds=Timing(hook.value, combatant)))


def test_each_hook_fires_at_the_digests_moment() -> None:
    history, ids = fight()
    history.do(_reminding("e1", "Start of the round", Hook.ROUND_START))
    history.do(_reminding("e2", "Chief's turn", Hook.TURN_START, ids["Chief"]))
    history.do(_reminding("e3", "End of the round", Hook.ROUND_END))
    history.do(_reminding("e4", "Never: no passes here", Hook.PASS_START))
    roll(history, ids, Aleš=6, Bora=5, Cyril=3, Bandit=2, Chief=1)
    # After the initiative roll, before the first action: the round's start (and Aleš's turn starts).
    assert [r.text for r in history.entries[-1].reminders] == ["Reminder: Start of the round"]
    assert current(history) == ["Aleš"]
    while current(history) != ["Chief"]:
        history.do(NextTurn())
    assert [r.text for r in history.entries[-1].reminders] == ["Reminder: Chief's turn"]
    history.do(SetInitiative(ids["Chief"], 0))  # initiative 0 still acts; the round ends after it
    history.do(NextTurn())
    assert history.state.clock.current is None
    assert [r.text for r in history.entries[-1].reminders] == ["Reminder: End of the round"]


def test_initiative_is_rolled_every_round() -> None:
    history, ids = fight()
    roll(history, ids, Aleš=6, Bora=5, Cyril=3, Bandit=2, Chief=1)
    finish_round(history)
    assert all(c.initiative is None for c in history.state.combatants.values())
    assert SOUBOJ.score_text(history.state.combatant(ids["Aleš"]), history.state) == "–"
    with pytest.raises(OperationError, match="Roll initiative"):
        history.do(NextTurn())
    roll(history, ids, Aleš=1, Bora=2, Cyril=3, Bandit=4, Chief=5)
    assert history.state.clock.round == 2
    assert current(history) == ["Chief"]


# --- scores, modifiers, losing the round ------------------------------------------------------------------------


def _modifier(history_ids: tuple[History, dict[str, str]], name: str, effect_id: str, value: int,
              rounds: int | None = None) -> AddInitiativeEffect:
    _history, ids = history_ids
    expires = Timing(Hook.ROUND_END.value) if rounds else None
    return AddInitiativeEffect(Effect(effect_id, f"Modifier {value}", target=ids[name], expires=expires,
                                      remaining=rounds), value)


def test_effects_modify_the_initiative_roll_while_they_last() -> None:
    scene = fight()
    history, ids = scene
    history.do(_modifier(scene, "Bora", "haste", 2, rounds=1))
    assert SOUBOJ.initiative_dice(history.state.combatant(ids["Bora"]), history.state) == DiceSpec(1, 6, 2)
    roll(history, ids, Aleš=6, Bora=5, Cyril=3, Bandit=2, Chief=1)
    assert order(history)[0] == (7, ["Bora"])  # 5 + 2
    finish_round(history)  # the haste lasted one round
    assert "haste" not in history.state.effects
    assert SOUBOJ.initiative_dice(history.state.combatant(ids["Bora"]), history.state) == DiceSpec(1, 6, 0)


def test_a_score_of_minus_one_loses_the_round_and_zero_still_acts() -> None:
    scene = fight()
    history, ids = scene
    history.do(_modifier(scene, "Bandit", "slow", -2))
    history.do(_modifier(scene, "Chief", "tangled", -1))
    roll(history, ids, Aleš=6, Bora=5, Cyril=3, Bandit=1, Chief=1)
    state = history.state
    assert SOUBOJ.score_text(state.combatant(ids["Bandit"]), state) == "−1 · loses the round"
    assert order(history) == [(6, ["Aleš"]), (5, ["Bora"]), (3, ["Cyril"]), (0, ["Chief"])]
    with pytest.raises(RulesError, match="between"):
        history.do(_modifier(scene, "Aleš", "silly", 21))


# --- simultaneous groups -----------------------------------------------------------------------------------------


def _group_of_four() -> tuple[History, dict[str, str]]:
    history, ids = fight()
    roll(history, ids, Aleš=4, Bora=4, Cyril=4, Bandit=4, Chief=6)
    history.do(NextTurn())  # the Chief acted; the group at 4 acts now
    return history, ids


def test_equal_scores_act_together_as_one_group() -> None:
    history, ids = _group_of_four()
    slot = history.state.clock.current
    assert slot is not None and slot.phase == 4 and len(slot.ids) == 4
    assert SOUBOJ.score_text(history.state.combatant(ids["Bora"]), history.state) == "4 · 2/4"
    history.do(NextTurn())  # the whole group is done at once
    assert history.state.clock.current is None and history.state.clock.round == 1


def test_delay_holds_the_chosen_member_of_a_group_acting_together() -> None:
    history, ids = _group_of_four()
    state = history.state
    assert current(history)[0] == "Aleš"
    # The GM selected Cyril, who acts now with the others: Delay means Cyril, not the first of the group.
    assert actor_for(state, ids["Cyril"]) == ids["Cyril"]
    # Someone outside the group acting now (the Chief has acted), or nobody selected: the current actor.
    assert actor_for(state, ids["Chief"]) == ids["Aleš"] == actor_for(state, None)
    history.do(DelayAction(ids["Cyril"]))
    assert current(history) == ["Aleš", "Bora", "Bandit"]
    assert ids["Cyril"] in history.state.delays and ids["Aleš"] not in history.state.delays
    assert order(history)[-1] == (None, ["Cyril"])  # the held action waits for the end of the round


def test_magic_first_then_ranged_then_melee() -> None:
    history, ids = _group_of_four()
    history.do(Declare(ids["Aleš"], Action.MELEE))
    history.do(Declare(ids["Cyril"], Action.RANGED))
    history.do(Declare(ids["Bandit"], Action.RANGED))
    history.do(Declare(ids["Bora"], Action.MAGIC))
    assert current(history) == ["Bora", "Cyril", "Bandit", "Aleš"]  # the group acting now is reordered at once
    state = history.state
    texts = [SOUBOJ.score_text(state.combatant(ids[n]), state) for n in ("Bora", "Cyril", "Aleš")]
    assert texts == ["4 · 1/4 · magic", "4 · 2/4 · ranged", "4 · 4/4 · melee"]


@pytest.mark.parametrize(("placement", "expected"), [
    (Placement.FIRST, ["Bandit", "Bora", "Cyril", "Aleš"]),
    (Placement.AFTER_MAGIC, ["Bora", "Bandit", "Cyril", "Aleš"]),
    (Placement.AFTER_RANGED, ["Bora", "Cyril", "Bandit", "Aleš"]),
    (Placement.LAST, ["Bora", "Cyril", "Aleš", "Bandit"]),
])
def test_the_gm_places_a_non_combat_action_anywhere(placement: Placement, expected: list[str]) -> None:
    history, ids = _group_of_four()
    history.do(Declare(ids["Bora"], Action.MAGIC))
    history.do(Declare(ids["Cyril"], Action.RANGED))
    history.do(Declare(ids["Aleš"], Action.MELEE))
    history.do(Declare(ids["Bandit"], Action.NONCOMBAT, placement))
    assert current(history) == expected


def test_a_group_still_to_come_is_ordered_too_and_undeclared_come_last() -> None:
    history, ids = fight()
    roll(history, ids, Aleš=6, Bora=3, Cyril=3, Bandit=3, Chief=1)
    history.do(Declare(ids["Bandit"], Action.MAGIC))
    history.do(Declare(ids["Cyril"], Action.MELEE))
    assert order(history)[1] == (3, ["Bandit", "Cyril", "Bora"])
    with pytest.raises(OperationError, match="same score"):
        history.do(ActAfter(ids["Bora"], ids["Chief"]))  # 3 and 1
    history.do(ActAfter(ids["Bandit"], ids["Bora"]))
    assert order(history)[1] == (3, ["Cyril", "Bora", "Bandit"])


def test_act_after_another_with_the_same_score() -> None:
    history, ids = _group_of_four()
    history.do(Declare(ids["Bora"], Action.MAGIC))
    history.do(ActAfter(ids["Bora"], ids["Bandit"]))
    history.do(ActAfter(ids["Cyril"], ids["Bora"]))  # a chain: Bandit, then Bora, then Cyril
    assert current(history) == ["Aleš", "Bandit", "Bora", "Cyril"]
    with pytest.raises(OperationError, match="already acts after"):
        history.do(ActAfter(ids["Bandit"], ids["Cyril"]))
    with pytest.raises(OperationError, match="itself"):
        history.do(ActAfter(ids["Bora"], ids["Bora"]))
    with pytest.raises(OperationError, match="already acted"):
        history.do(ActAfter(ids["Bora"], ids["Chief"]))
    history.do(ActAfter(ids["Bora"], None))
    assert current(history) == ["Bora", "Cyril", "Aleš", "Bandit"]  # magic first, Cyril still right after Bora


def test_the_engines_let_ties_go_first_puts_the_combatant_last_in_its_group() -> None:
    history, ids = fight()
    roll(history, ids, Aleš=4, Bora=4, Cyril=2, Bandit=1, Chief=1)
    assert current(history) == ["Aleš", "Bora"]
    history.do(YieldTurn(ids["Aleš"]))
    assert current(history) == ["Bora", "Aleš"]


def test_declaring_needs_a_running_round_and_a_combatant_who_has_not_acted() -> None:
    history, ids = fight()
    with pytest.raises(OperationError, match="Roll this round"):
        history.do(Declare(ids["Bora"], Action.MAGIC))
    roll(history, ids, Aleš=6, Bora=4, Cyril=3, Bandit=2, Chief=1)
    history.do(NextTurn())
    with pytest.raises(OperationError, match="already acted"):
        history.do(Declare(ids["Aleš"], Action.MELEE))


# --- reactions -------------------------------------------------------------------------------------------------


def test_giving_up_the_initiative_for_a_reaction() -> None:
    history, ids = fight()
    roll(history, ids, Aleš=6, Bora=5, Cyril=3, Bandit=2, Chief=1)
    history.do(HoldReaction(ids["Aleš"]))  # Aleš is acting now: the order goes on without him
    assert current(history) == ["Bora"]
    assert SOUBOJ.score_text(history.state.combatant(ids["Aleš"]), history.state) == "6 · reaction held"
    history.do(UseReaction(ids["Aleš"], ids["Bora"]))  # Bora's 5 is below Aleš's 6
    assert current(history) == ["Bora", "Aleš"]
    history.do(NextTurn())
    assert current(history) == ["Cyril"]
    assert ids["Aleš"] in history.state.clock.acted


def test_a_held_reaction_only_works_against_a_lower_score() -> None:
    history, ids = fight()
    roll(history, ids, Aleš=3, Bora=5, Cyril=6, Bandit=2, Chief=1)
    history.do(NextTurn())  # Cyril acted; Bora acts now
    history.do(HoldReaction(ids["Aleš"], note="parry"))
    with pytest.raises(OperationError, match="lower score"):
        history.do(UseReaction(ids["Aleš"], ids["Bora"]))  # Bora 5 is not below Aleš's 3
    history.do(NextTurn())
    assert current(history) == ["Bandit"]  # Aleš gave up his turn at 3
    history.do(UseReaction(ids["Aleš"], ids["Bandit"]))
    assert current(history) == ["Bandit", "Aleš"]  # he acts together with the action he answers
    assert SOUBOJ.score_text(history.state.combatant(ids["Aleš"]), history.state) == "3 · reacting"
    with pytest.raises(OperationError, match="holds no reaction"):
        history.do(UseReaction(ids["Aleš"], ids["Bandit"]))


def test_a_reaction_is_lost_at_the_end_of_the_round_unless_it_carries_over() -> None:
    history, ids = fight()
    roll(history, ids, Aleš=6, Bora=5, Cyril=3, Bandit=2, Chief=1)
    history.do(HoldReaction(ids["Aleš"], carries_over=True))
    history.do(HoldReaction(ids["Bora"]))
    finish_round(history)
    texts = [r.text for r in history.entries[-1].reminders]
    assert "Bora's held reaction is lost." in texts
    assert "reaction" in history.state.combatant(ids["Aleš"]).extra
    assert "reaction" not in history.state.combatant(ids["Bora"]).extra
    roll(history, ids, Aleš=2, Bora=5, Cyril=3, Bandit=1, Chief=4)
    assert current(history) == ["Bora"]  # a new round: Aleš rolls and acts as usual, reaction still held
    assert SOUBOJ.score_text(history.state.combatant(ids["Aleš"]), history.state) == "2 · reaction held"
    history.do(NextTurn())
    history.do(NextTurn())
    history.do(NextTurn())
    history.do(NextTurn())  # Bora, Chief, Cyril, Aleš acted; the Bandit (1) acts now
    history.do(UseReaction(ids["Aleš"], ids["Bandit"]))
    assert current(history) == ["Bandit"]  # Aleš acted in his own turn: he does not join the group
    with pytest.raises(OperationError, match="holds no reaction"):
        history.do(DropReaction(ids["Aleš"]))


def test_a_creature_holds_as_many_reactions_as_it_wants_side_by_side() -> None:
    # souboj.md: "Reakcí si bytost může schovat kolik chce, ovšem (logicky fungují pouze na bytosti s nižší
    # iniciativou" — as many reactions as it wants, each only against a lower initiative; carried-over and new ones
    # side by side.
    history, ids = fight()
    roll(history, ids, Aleš=6, Bora=5, Cyril=3, Bandit=2, Chief=1)
    history.do(HoldReaction(ids["Cyril"], carries_over=True, note="if he shoots, I duck"))
    entry = history.do(HoldReaction(ids["Cyril"], note="if he runs, I trip him"))
    assert "Cyril holds one more reaction." in entry.text()
    cyril = history.state.combatant(ids["Cyril"])
    assert [held.note for held in reactions(cyril)] == ["if he shoots, I duck", "if he runs, I trip him"]
    assert SOUBOJ.score_text(cyril, history.state) == "3 · 2 reactions held"
    while current(history) != ["Bandit"]:
        history.do(NextTurn())
    with pytest.raises(OperationError, match="holds 2 reactions"):
        history.do(UseReaction(ids["Cyril"], ids["Bandit"], index=2))
    history.do(UseReaction(ids["Cyril"], ids["Bandit"], index=1))  # the second: the Bandit runs
    assert [held.note for held in reactions(history.state.combatant(ids["Cyril"]))] == ["if he shoots, I duck"]
    while history.state.clock.current is not None:
        history.do(NextTurn())
    roll(history, ids, Aleš=6, Bora=5, Cyril=3, Bandit=2, Chief=1)  # round 2: the carried-over one is still held
    history.do(HoldReaction(ids["Cyril"], note="a new one"))
    assert [held.note for held in reactions(history.state.combatant(ids["Cyril"]))] == [
        "if he shoots, I duck", "a new one"]
    history.do(DropReaction(ids["Cyril"], index=0))
    assert [held.note for held in reactions(history.state.combatant(ids["Cyril"]))] == ["a new one"]


def test_holding_a_reaction_is_refused_when_there_is_no_initiative_to_give() -> None:
    history, ids = fight()
    roll(history, ids, Aleš=6, Bora=5, Cyril=3, Bandit=2, Chief=1)
    history.do(NextTurn())
    with pytest.raises(OperationError, match="already acted"):
        history.do(HoldReaction(ids["Aleš"]))
    history.do(HoldReaction(ids["Cyril"]))
    history.do(DropReaction(ids["Cyril"]))
    assert SOUBOJ.score_text(history.state.combatant(ids["Cyril"]), history.state) == "3 · gave up the initiative"
    assert [names for _score, names in order(history)] == [["Bora"], ["Bandit"], ["Chief"]]


def test_the_last_of_a_group_holding_a_reaction_moves_the_order_on() -> None:
    history, ids = fight()
    roll(history, ids, Aleš=6, Bora=5, Cyril=3, Bandit=2, Chief=1)
    history.do(HoldReaction(ids["Aleš"]))
    assert current(history) == ["Bora"]
    assert history.state.clock.acted == frozenset()


# --- surprise rounds -----------------------------------------------------------------------------------------


def test_surprise_only_the_attacking_side_gets_initiative() -> None:
    history, ids = fight({"surprise": "attackers_only", "surprise_attackers": "opponents"})
    assert not SOUBOJ.can_act(history.state.combatant(ids["Aleš"]), history.state)  # the party does not even roll
    roll(history, ids, Bandit=2, Chief=5)
    assert order(history) == [(5, ["Chief"]), (2, ["Bandit"])]
    finish_round(history)
    assert SOUBOJ.can_act(history.state.combatant(ids["Aleš"]), history.state)
    roll(history, ids, Aleš=6, Bora=5, Cyril=3, Bandit=2, Chief=1)
    assert current(history) == ["Aleš"]


def test_surprise_the_defenders_get_only_reactions() -> None:
    history, ids = fight({"surprise": "reactions_only", "surprise_attackers": "party"})
    roll(history, ids, Aleš=2, Bora=5, Cyril=3, Bandit=6, Chief=1)
    assert "Surprise round: Bandit, Chief get only reactions." in [r.text for r in history.entries[-1].reminders]
    assert [names for _score, names in order(history)] == [["Bora"], ["Cyril"], ["Aleš"]]
    state = history.state
    assert SOUBOJ.score_text(state.combatant(ids["Bandit"]), state) == "6 · reaction held"
    history.do(NextTurn())
    history.do(UseReaction(ids["Chief"], ids["Cyril"]))  # a surprise reaction answers any score
    assert current(history) == ["Cyril", "Chief"]
    finish_round(history)
    assert "reaction" not in history.state.combatant(ids["Bandit"]).extra
    roll(history, ids, Aleš=2, Bora=5, Cyril=3, Bandit=6, Chief=1)
    assert current(history) == ["Bandit"]


def test_round_one_the_readier_side_acts_first_then_the_others_each_by_its_scores() -> None:
    # souboj.md: "In the first round initiative need not be kept: some sides are readier than others, usually the
    # attacker"; Decision: "the GM may set the round-1 order by hand (e.g. the readier side first)".
    history, ids = fight({"surprise": "readier_first", "surprise_attackers": "opponents"})
    roll(history, ids, Aleš=6, Bora=4, Cyril=4, Bandit=2, Chief=4)
    assert order(history) == [(4, ["Chief"]), (2, ["Bandit"]), (6, ["Aleš"]), (4, ["Bora", "Cyril"])]
    assert ("Round 1: the opponents are readier and act first, then the player characters and allies, each side by "
            "its scores.") in [r.text for r in history.entries[-1].reminders]
    with pytest.raises(OperationError, match="same score"):  # the Chief's 4 is not Bora's group in this round
        history.do(ActAfter(ids["Bora"], ids["Chief"]))
    finish_round(history)
    roll(history, ids, Aleš=6, Bora=4, Cyril=4, Bandit=2, Chief=4)  # round 2: the scores alone
    assert order(history) == [(6, ["Aleš"]), (4, ["Bora", "Cyril", "Chief"]), (2, ["Bandit"])]


def test_round_one_the_party_may_be_the_readier_side_and_a_score_typed_by_hand_still_places_one() -> None:
    history, ids = fight({"surprise": "readier_first", "surprise_attackers": "party"})
    roll(history, ids, Aleš=1, Bora=2, Cyril=3, Bandit=6, Chief=5)
    assert [names for _score, names in order(history)] == [["Cyril"], ["Bora"], ["Aleš"], ["Bandit"], ["Chief"]]
    history.do(SetInitiative(ids["Aleš"], 5))  # the GM's hand: Aleš next, before Bora
    assert [names for _score, names in order(history)] == [["Cyril"], ["Aleš"], ["Bora"], ["Bandit"], ["Chief"]]


def test_a_creature_falling_in_the_readier_sides_group_is_not_taken_for_one_falling_in_the_others() -> None:
    history, ids = fight({"surprise": "readier_first", "surprise_attackers": "opponents", "dying_last_action": True})
    roll(history, ids, Aleš=4, Bora=3, Cyril=3, Bandit=4, Chief=1)
    history.do(ApplyHarm(ids["Aleš"], "wounds", 32))  # the Bandit's blow in the opponents' group at 4: −2, dying
    history.do(NextTurn())  # the Chief
    history.do(NextTurn())  # the party's group at 4: Aleš, dying since the Bandit's group
    assert current(history) == ["Aleš"]
    with pytest.raises(OperationError, match="dying"):
        history.do(SpendAction(ids["Aleš"], "action"))


def test_the_surprise_options_are_validated() -> None:
    history, _ids = fight()
    with pytest.raises(RulesError):
        history.do(SetOption("surprise", "everyone"))


# --- dying creatures keep their turn -------------------------------------------------------------------------------


def test_a_dying_creature_at_the_start_of_its_turn_may_roll_endurance_for_one_last_action() -> None:
    history, ids = fight()
    history.do(ApplyHarm(ids["Bandit"], "wounds", 22))
    assert SOUBOJ.status(history.state.combatant(ids["Bandit"]), history.state) is Status.DYING
    history.do(SetDyingCountdown(ids["Bandit"], 3))
    roll(history, ids, Aleš=6, Bora=5, Cyril=3, Bandit=2, Chief=1)
    while current(history) != ["Bandit"]:
        history.do(NextTurn())
    assert [r.text for r in history.entries[-1].reminders] == [
        "Bandit is dying: roll Endurance (5) for one last action."]
    history.do(JudgeLastAction(ids["Bandit"], False))  # the GM's call on the roll: failed
    finish_round(history)
    roll(history, ids, Aleš=6, Bora=5, Cyril=3, Bandit=2, Chief=1)
    while current(history) != ["Bandit"]:
        history.do(NextTurn())
    assert not history.entries[-1].reminders  # "the last action is allowed once (it is the last)"


# --- after the fight --------------------------------------------------------------------------------------------


def test_after_the_fight_per_round_effects_tick_every_ten_seconds() -> None:
    history, ids = fight()
    bleeding = Effect("bleed", "Bleeding", target=ids["Cyril"], expires=Timing(Hook.ROUND_END.value),
                      remaining=4, reminds=Timing(Hook.ROUND_START.value))
    history.do(AddEffect(bleeding))
    history.do(TimePasses(30))  # three times 10 seconds: three reminders, three of the four rounds used
    assert history.state.effects["bleed"].remaining == 1
    assert [r.text for r in history.entries[-1].reminders] == ["Reminder: Bleeding (×3)"]
    history.do(TimePasses(10))
    assert "bleed" not in history.state.effects
    assert history.entries[-1].text().splitlines() == ["10 seconds pass.", "Bleeding ends."]


def test_time_passes_only_between_rounds_and_in_steps_of_ten_seconds() -> None:
    history, ids = fight()
    with pytest.raises(OperationError, match="steps of 10"):
        history.do(TimePasses(15))
    with pytest.raises(OperationError, match="steps of 10"):
        history.do(TimePasses(0))
    with pytest.raises(OperationError, match="At most"):
        history.do(TimePasses(36_010))
    roll(history, ids, Aleš=6, Bora=5, Cyril=3, Bandit=2, Chief=1)
    with pytest.raises(OperationError, match="Finish the round"):
        history.do(TimePasses(10))


# --- the action budget ----------------------------------------------------------------------------------------


def _left(history: History, combatant_id: str) -> int:
    return SOUBOJ.action_budget(history.state.combatant(combatant_id), history.state)[0].left


def test_the_actions_per_round_are_the_creatures_own_number() -> None:
    # souboj.md: "Decision: actions per round, major and minor, are per-creature data; default one major action".
    history, ids = _group_of_four()
    assert "actions_per_round" not in history.state.combatant(ids["Bora"]).attributes  # one, unless the GM says
    history.do(SetAttribute(ids["Bora"], "actions_per_round", 2))  # a quick creature
    assert _left(history, ids["Bora"]) == 2
    history.do(SpendAction(ids["Bora"], "action"))
    history.do(SpendAction(ids["Bora"], "action"))
    assert _left(history, ids["Bora"]) == 0
    with pytest.raises(OperationError, match="already acted"):
        history.do(SpendAction(ids["Bora"], "action"))
    history.do(NextTurn())  # its turn over: nothing left either way
    assert _left(history, ids["Bora"]) == 0


def _budget(history: History, combatant_id: str) -> list[tuple[str, int, int]]:
    return [(item.key, item.left, item.allowed)
            for item in SOUBOJ.action_budget(history.state.combatant(combatant_id), history.state)]


def test_minor_actions_are_the_creatures_own_number_too_counted_spent_and_refused_beyond_it() -> None:
    # souboj.md Decision: "actions per round, major and minor, are per-creature data; default one major action".
    history, ids = _group_of_four()
    bora = ids["Bora"]
    assert _budget(history, bora) == [("action", 1, 1)]  # the ordinary creature: one major action, no minor one
    history.do(SetAttribute(bora, "minor_actions", 1))
    assert _budget(history, bora) == [("action", 1, 1), ("minor", 1, 1)]
    history.do(SpendAction(bora, "minor"))
    assert history.entries[-1].text() == "Bora takes a minor action."
    assert _budget(history, bora) == [("action", 1, 1), ("minor", 0, 1)]
    with pytest.raises(OperationError, match="Bora has 1 minor action a round and has used it"):
        history.do(SpendAction(bora, "minor"))
    history.do(GrantAction(bora, "minor"))  # the GM's override, logged and undoable
    assert history.entries[-1].text() == "The GM grants Bora one more minor action this round."
    history.do(SpendAction(bora, "minor"))
    assert _budget(history, bora) == [("action", 1, 1), ("minor", 0, 2)]
    history.undo()
    history.undo()
    assert _budget(history, bora) == [("action", 1, 1), ("minor", 0, 1)]
    history.do(SpendAction(bora, "action"))
    history.do(GrantAction(bora, "action"))
    history.do(SpendAction(bora, "action"))  # a second major action, granted by the GM
    assert _budget(history, bora)[0] == ("action", 0, 2)
    finish_round(history)
    roll(history, ids, Aleš=4, Bora=4, Cyril=4, Bandit=4, Chief=6)
    assert _budget(history, bora) == [("action", 1, 1), ("minor", 1, 1)]  # a grant lasts its round only


def test_the_gm_grants_actions_only_of_the_two_kinds_and_during_a_round() -> None:
    history, ids = fight()
    with pytest.raises(OperationError, match="Roll this round's initiative first"):
        history.do(GrantAction(ids["Bora"], "action"))
    roll(history, ids, Aleš=6, Bora=4, Cyril=4, Bandit=4, Chief=1)
    with pytest.raises(OperationError, match="major and minor actions only"):
        history.do(GrantAction(ids["Bora"], "free"))


def test_one_action_per_round_marked_in_its_own_turn() -> None:
    history, ids = _group_of_four()
    assert _left(history, ids["Bora"]) == 1
    history.do(SpendAction(ids["Bora"], "action"))
    assert _left(history, ids["Bora"]) == 0
    assert history.entries[-1].text() == "Bora takes an action."  # the budget's own words, not "a action action"
    with pytest.raises(OperationError, match="already acted"):
        history.do(SpendAction(ids["Bora"], "action"))
    with pytest.raises(OperationError, match="counts major and minor actions only"):
        history.do(SpendAction(ids["Aleš"], "simple"))
    assert _left(history, ids["Chief"]) == 0  # the Chief played his turn
    with pytest.raises(OperationError, match="own initiative"):
        history.do(SpendAction(ids["Chief"], "action"))
    history.do(HoldReaction(ids["Cyril"]))
    assert _left(history, ids["Cyril"]) == 0  # the initiative given up was the round's action
    finish_round(history)
    roll(history, ids, Aleš=4, Bora=4, Cyril=4, Bandit=4, Chief=6)
    assert _left(history, ids["Bora"]) == 1  # a new round


def test_a_reaction_resolves_together_or_after_and_always_after_an_instant_action() -> None:
    # souboj.md: "the GM judges whether they resolve together or one after the other (Decision: together by default,
    # "většinou nastejno" …; the GM may switch each time). Almost any action can be interrupted by a reaction, except
    # instant actions (e.g. a blink): there the reaction ALWAYS comes after the instant action."
    lines = {}
    for timing in ("together", "after", "after_instant"):
        history, ids = fight()
        roll(history, ids, Aleš=3, Bora=5, Cyril=6, Bandit=2, Chief=1)
        history.do(HoldReaction(ids["Aleš"]))
        while current(history) != ["Bandit"]:
            history.do(NextTurn())
        lines[timing] = history.do(UseReaction(ids["Aleš"], ids["Bandit"], timing=timing)).text()
        assert current(history) == ["Bandit", "Aleš"]
    assert lines == {"together": "Aleš reacts to Bandit.",
                     "after": "Aleš reacts to Bandit, once Bandit's action is done.",
                     "after_instant": "Aleš reacts to Bandit's instant action, after it: an instant action is never "
                                      "interrupted."}
    with pytest.raises(OperationError, match="Unknown reaction timing"):
        history.do(HoldReaction(ids["Aleš"]))
        history.do(UseReaction(ids["Aleš"], ids["Bandit"], timing="before"))
    assert "timing" not in to_data(UseReaction(ids["Aleš"], ids["Bandit"]))  # older files read the same
