"""Initiative as the player says it: a typed total next to typed faces (rules.initiative_text, RollInitiative.totals,
RuleSystem.initiative_from_total), for every game's digest.

sr3.md: initiative = modified Reaction + the dice; the total replaces the rolled sum, wounds still count. walka.md:
one d12 per seat, shared by the seat. souboj.md: 1d6 (plus what changes it). institut.md: (Agility + Thinking) d6
summed. clovek.md: the best of the mental dice risked plus Composure; the dice risked stay spent.
"""

from __future__ import annotations

import gettext
import re

import pytest

from rules import text
from rules.combatants import ApplyHarm
from rules.dice import Roller
from rules.encounter import Initiative
from rules.errors import OperationError, RulesError
from rules.history import History
from rules.initiative_text import TypedInitiative, read_initiative
from rules.serialize import history_from_document, history_to_document, to_data
from rules.systems import get_system
from rules.systems.base import DiceSpec
from rules.turns import NextTurn, RollInitiative, roll_initiative
from tests.rules.test_walka_scenes import round_order, table


@pytest.mark.parametrize(("typed", "spec", "read"), [
    ("17", DiceSpec(2, 6, 6), TypedInitiative(total=17)),  # one number cannot be the faces of two dice
    ("4,5", DiceSpec(2, 6, 6), TypedInitiative(faces=(4, 5))),
    ("4 5", DiceSpec(2, 6, 6), TypedInitiative(faces=(4, 5))),
    ("4", DiceSpec(1, 6, 5), TypedInitiative(faces=(4,))),  # one die: a lone number is the die, as always
    ("=10", DiceSpec(1, 6, 5), TypedInitiative(total=10)),  # its total is marked
    ("= 17", DiceSpec(2, 6, 6), TypedInitiative(total=17)),
    ("=-1", DiceSpec(1, 6, -2), TypedInitiative(total=-1)),
    ("7", DiceSpec(1, 12), TypedInitiative(faces=(7,))),  # one die, nothing added: die and total agree
    ("0", DiceSpec(3, 10, 2), TypedInitiative(total=0)),
    ("2, 5, 0", DiceSpec(3, 10, 2), TypedInitiative(faces=(2, 5, 10))),  # a d10's 0 is 10
    ("4", DiceSpec(0, 10, 4), TypedInitiative(total=4)),  # no dice risked: only a total
    ("", DiceSpec(2, 6), None),
    ("  ", DiceSpec(2, 6), None),
])
def test_a_field_reads_as_faces_or_a_total(typed: str, spec: DiceSpec, read: TypedInitiative | None) -> None:
    assert read_initiative(typed, spec) == read


@pytest.mark.parametrize(("typed", "refusal"), [
    ("=", "After “=” type the total the player announces, e.g. =17."),
    ("=x", "After “=” type the total"),
    ("=1000", "After “=” type the total"),
    ("7", "A d6 cannot show 7."),
    ("4,x", "x"),
])
def test_an_unreadable_field_is_refused(typed: str, refusal: str) -> None:
    with pytest.raises(RulesError, match=re.escape(refusal)):
        read_initiative(typed, DiceSpec(1, 6, 5))


def test_the_refusal_is_translated() -> None:
    class Marked(gettext.NullTranslations):
        def gettext(self, message: str) -> str:
            return "»" + message

    text.install(Marked())
    try:
        with pytest.raises(RulesError, match="^" + re.escape("»After “=”")):
            read_initiative("=x", DiceSpec(2, 6))
    finally:
        text.install(gettext.NullTranslations())


def _between_rounds(system_id: str) -> History:
    """The game's sample with its running round played out."""
    history = get_system(system_id).sample()
    for _step in range(100):
        if history.state.clock.current is None:
            return history
        history.do(NextTurn())
    raise AssertionError("the round never ended")


def _id(history: History, name: str) -> str:
    return next(c.id for c in history.state.combatants.values() if c.name == name)


def _rolled(history: History, combatant_id: str) -> Initiative:
    initiative = history.state.combatant(combatant_id).initiative
    assert initiative is not None
    return initiative


def test_sr3_a_total_replaces_the_rolled_sum_and_wounds_still_count() -> None:
    history = _between_rounds("sr3")
    system, wedge, twitch = history.system, _id(history, "Wedge"), _id(history, "Twitch")
    history.do(roll_initiative(history.state, system, Roller.seeded(2), {twitch: (5, 2, 6)}, totals={wedge: 17}))
    state = history.state
    assert state.combatant(wedge).initiative == Initiative(17, (), _rolled(history, wedge).tiebreak)
    assert system.score_text(state.combatant(wedge), state) == "17 → 7"
    assert _rolled(history, twitch).rolled == 9 + 13  # the faces, as before
    assert "Wedge rolls 17 → 7 for initiative." in [line.render() for line in history.entries[-1].log]
    history.do(ApplyHarm(wedge, "physical", 1))  # a Light wound: −1 at once
    assert system.score_text(history.state.combatant(wedge), history.state) == "16 → 6"


def test_sr3_a_total_for_one_die_is_that_die() -> None:
    history = _between_rounds("sr3")
    sharon = _id(history, "Sharon")  # 5 + 1d6
    history.do(roll_initiative(history.state, history.system, Roller.seeded(2), totals={sharon: 10}))
    assert _rolled(history, sharon).dice == (5,)


@pytest.mark.parametrize(("name", "total", "refusal"), [
    ("Wedge", 25, "Wedge rolls 6 + 2d6 for initiative: the total is 8 to 18, not 25."),
    ("Wedge", 7, "the total is 8 to 18, not 7"),
    ("Sharon", 12, "Sharon rolls 5 + 1d6 for initiative: the total is 6 to 11, not 12."),
])
def test_a_total_the_dice_cannot_make_is_refused(name: str, total: int, refusal: str) -> None:
    history = _between_rounds("sr3")
    operation = roll_initiative(history.state, history.system, Roller.seeded(2), totals={_id(history, name): total})
    with pytest.raises(OperationError, match=re.escape(refusal)):
        history.do(operation)


def test_faces_and_a_total_for_one_combatant_are_refused() -> None:
    history = _between_rounds("sr3")
    wedge = _id(history, "Wedge")
    with pytest.raises(OperationError, match=re.escape("Wedge has both faces and a total for initiative: give one.")):
        history.do(RollInitiative({wedge: (3, 4)}, {}, totals={wedge: 13}))


def test_walka_a_total_typed_for_one_of_a_seat_is_the_seats_d12() -> None:
    history, ids = table()
    system = history.system
    faces = {ids["Wedge"]: (5,), ids["Nova"]: (2,)}
    history.do(roll_initiative(history.state, system, Roller.seeded(3), faces, totals={ids["Kira"]: 8}))
    assert _rolled(history, ids["Kira"]).dice == (8,)
    assert _rolled(history, ids["Drone"]).dice == (8,)  # Ania's seat shares Kira's roll
    assert round_order(history)[0] == ["Nova"]  # lowest (2) first, as with faces


def test_souboj_a_total_is_the_die_with_what_changes_it() -> None:
    history = _between_rounds("souboj")
    bandit = _id(history, "Bandit 2")
    spec = history.system.initiative_dice(history.state.combatant(bandit), history.state)
    history.do(roll_initiative(history.state, history.system, Roller.seeded(2), totals={bandit: spec.base + 3}))
    assert _rolled(history, bandit).rolled == spec.base + 3
    assert _rolled(history, bandit).dice == (3,)


def test_institut_a_total_of_the_summed_pool_is_kept_as_it_is() -> None:
    history = _between_rounds("institut")
    sokolov = _id(history, "Sokolov")  # 7d6
    history.do(roll_initiative(history.state, history.system, Roller.seeded(2), totals={sokolov: 30}))
    assert _rolled(history, sokolov).rolled == 30
    assert history.system.score_text(history.state.combatant(sokolov), history.state) == "30"


def test_clovek_a_total_is_the_best_die_plus_composure_and_the_dice_risked_stay_spent() -> None:
    history = _between_rounds("clovek")
    system, beatrice, dante = history.system, _id(history, "Beatrice"), _id(history, "Dante")
    before = history.state.combatant(beatrice).pools["mental"].spent
    risked = system.initiative_dice(history.state.combatant(beatrice), history.state).count  # 2 + 3d10
    history.do(roll_initiative(history.state, system, Roller.seeded(2), totals={beatrice: 10, dante: 4}))
    state = history.state
    assert system.score_text(state.combatant(beatrice), state) == "10"
    assert _rolled(history, beatrice).dice == (8,)
    assert state.combatant(beatrice).pools["mental"].spent == before + risked
    assert system.score_text(state.combatant(dante), state) == "4"  # no dice risked: Composure


@pytest.mark.parametrize(("name", "total", "refusal"), [
    ("Beatrice", 13, "Beatrice's initiative is the best die plus Composure 2: 3 to 12, not 13."),
    ("Dante", 6, "Dante risks no mental dice: the initiative is Composure, 4, not 6."),
])
def test_clovek_refuses_a_total_the_dice_cannot_make(name: str, total: int, refusal: str) -> None:
    history = _between_rounds("clovek")
    operation = roll_initiative(history.state, history.system, Roller.seeded(2), totals={_id(history, name): total})
    with pytest.raises(OperationError, match=re.escape(refusal)):
        history.do(operation)


def test_a_total_is_saved_and_read_back_and_a_roll_without_one_is_saved_as_before() -> None:
    history = _between_rounds("sr3")
    wedge = _id(history, "Wedge")
    plain = roll_initiative(history.state, history.system, Roller.seeded(2))
    assert "totals" not in to_data(plain)  # files that never use it are written exactly as before
    history.do(roll_initiative(history.state, history.system, Roller.seeded(2), totals={wedge: 17}))
    assert to_data(history.entries[-1].operation)["totals"] == {wedge: 17}
    reopened = history_from_document(history_to_document(history))
    assert reopened.state.combatant(wedge).initiative == history.state.combatant(wedge).initiative


def test_a_total_goes_with_the_dice_chosen_for_it() -> None:
    """Člověk: the mental dice risked are chosen in the dialog and the total announced; both land in one step."""
    from tests.rules.test_clovek_scenes import seed_fight

    history = seed_fight()
    system = history.system
    history.do(roll_initiative(history.state, system, Roller.seeded(2), chosen={"c": {"initiative_dice": 3}},
                               totals={"c": 10}))
    cesare = history.state.combatant("c")
    assert cesare.extra["initiative_dice"] == 3
    assert system.score_text(cesare, history.state) == "10"
