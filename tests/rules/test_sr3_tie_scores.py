"""SR3 tied initiative, step 1 (sr3.md, Ties):

"1. Higher score in the previous pass." "Example: Richie 17, wounded to 15, ties Rváč 3 (15); Richie originally had
the higher score in the first pass → Richie first, and again in pass 2 (5 vs 5)." "Decision … step 1 compares the
scores before any wound taken this turn (rolled results, earlier wounds subtracted), reproducing Richie in both
passes; option: previous pass's scores."
"""

from __future__ import annotations

import pytest

from rules.combatants import ApplyHarm, SetOption
from rules.encounter import Encounter, Side, frozen_map
from rules.history import History, new_history
from rules.systems import get_system
from rules.systems.sr3.tie_scores import TIE_SCORES, TieScores
from rules.turns import RollInitiative
from tests.rules.sr3_scenes import EIGHT, add, play_round

SR3 = get_system("sr3")


def eight(rule: TieScores | None, richie_reaction: int = 16) -> tuple[History, dict[str, str]]:
    """The seed's eight characters (Reaction = score − 1, one die showing 1); ``rule`` None: a fight saved before
    the option (it holds none). Richie's Reaction decides step 2 against Ganger 3's 14 when step 1 is a tie."""
    history = new_history("sr3", "Seed example") if rule is not None else History(Encounter("sr3", "Seed example"))
    if rule is not None:
        history.do(SetOption(TIE_SCORES, rule.value))
    ids = {}
    for name, score in EIGHT.items():
        side = Side.OPPONENT if name.startswith("Ganger") else Side.PLAYER
        reaction = richie_reaction if name == "Richie" else score - 1
        dice = len(faces_to(17, reaction)) if name == "Richie" else 1
        ids[name] = add(history, name, side, reaction=reaction, reaction_natural=min(reaction, 6),
                        initiative_dice=dice, body=4, quickness=4, intelligence=4, willpower=4)
    return history, ids


def faces_to(score: int, reaction: int) -> tuple[int, ...]:
    """d6 faces that make ``score`` with ``reaction``."""
    rest, faces = score - reaction, []
    while rest > 0:
        faces.append(min(6, rest))
        rest -= faces[-1]
    return tuple(faces)


def richie_and_ganger_3(history: History, ids: dict[str, str]) -> list[list[str]]:
    """Roll the seed's scores (Richie's dice make 17 whatever his Reaction), wound Richie 17 → 15 (a Moderate
    wound, −2) before anyone acts, play the turn: who of the two goes first in passes 1 and 2."""
    rolls: dict[str, tuple[int, ...]] = dict.fromkeys(ids.values(), (1,))
    rolls[ids["Richie"]] = faces_to(17, history.state.combatant(ids["Richie"]).attribute("reaction"))
    history.do(RollInitiative(frozen_map(rolls), frozen_map()))
    history.do(ApplyHarm(ids["Richie"], "physical", 3))
    played = play_round(history)
    return [[name for pass_no, name, _phase in played if pass_no == number and name in ("Richie", "Ganger 3")]
            for number in (1, 2)]


def test_a_new_fight_starts_with_the_decision_and_an_old_one_keeps_the_rolled_results() -> None:
    assert SR3.option(new_history("sr3").state, TIE_SCORES) == TieScores.TURN_START.value
    assert SR3.option(Encounter("sr3"), TIE_SCORES) == TieScores.ROLLED.value


@pytest.mark.parametrize("rule", [TieScores.TURN_START, TieScores.PASS_START, None])
def test_richie_goes_first_in_the_first_pass(rule: TieScores | None) -> None:
    # Ganger 3's Reaction (14) beats Richie's (5): only step 1 puts Richie first.
    history, ids = eight(rule, richie_reaction=5)
    first, _second = richie_and_ganger_3(history, ids)
    assert first == ["Richie", "Ganger 3"]


def test_the_decision_puts_richie_first_in_both_passes() -> None:
    history, ids = eight(TieScores.TURN_START, richie_reaction=5)  # even with a lower Reaction than Ganger 3
    assert richie_and_ganger_3(history, ids) == [["Richie", "Ganger 3"], ["Richie", "Ganger 3"]]


def test_the_previous_pass_scores_tie_in_pass_2_and_reaction_decides() -> None:
    # Pass 1 ended with both at 15: in pass 2 (5 vs 5) step 1 is a tie, step 2 (modified Reaction) decides.
    history, ids = eight(TieScores.PASS_START, richie_reaction=5)
    assert richie_and_ganger_3(history, ids) == [["Richie", "Ganger 3"], ["Ganger 3", "Richie"]]
    history, ids = eight(TieScores.PASS_START)
    # The seed's Richie (Reaction 16 against 14): Richie again, by step 2 this time.
    assert richie_and_ganger_3(history, ids) == [["Richie", "Ganger 3"], ["Richie", "Ganger 3"]]


def tied_with_old_wounds(rule: TieScores | None) -> list[str]:
    """Two fighters tied at 15 as initiative is rolled: Ann unhurt (Reaction 11 + 4), Bob with a Moderate wound from
    an earlier turn (Reaction 10 + 3 + 4 − 2). Before this turn's wounds both had 15: step 2, the higher modified
    Reaction, puts Ann first; the rolled results (15 and 17) split them by the old wound, Bob first."""
    history = new_history("sr3") if rule is not None else History(Encounter("sr3"))
    if rule is not None:
        history.do(SetOption(TIE_SCORES, rule.value))
    ann = add(history, "Ann", Side.PLAYER, reaction=11, reaction_natural=5, initiative_dice=1, body=4)
    bob = add(history, "Bob", Side.OPPONENT, reaction=10, reaction_natural=5, initiative_dice=2, body=4)
    history.do(ApplyHarm(bob, "physical", 3))  # an earlier turn's wound: −2 initiative
    history.do(RollInitiative(frozen_map({ann: (4,), bob: (3, 4)}), frozen_map()))
    scores = [SR3.score_text(history.state.combatant(cid), history.state) for cid in (ann, bob)]
    assert scores == ["15 → 5", "15 → 5"]
    return [name for _pass, name, _phase in play_round(history)]


def test_an_old_wound_does_not_split_a_tie_now() -> None:
    assert tied_with_old_wounds(TieScores.TURN_START) == ["Ann", "Bob", "Ann", "Bob"]
    assert tied_with_old_wounds(TieScores.PASS_START) == ["Ann", "Bob", "Ann", "Bob"]


def test_a_fight_saved_before_the_option_still_splits_it_by_the_rolled_results() -> None:
    assert tied_with_old_wounds(None) == ["Bob", "Ann", "Bob", "Ann"]
    assert tied_with_old_wounds(TieScores.ROLLED) == ["Bob", "Ann", "Bob", "Ann"]
