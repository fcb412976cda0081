"""The GM's commands as app services: each is one undoable, logged change."""

from __future__ import annotations

import pytest

from app.document import EncounterDocument
from app.samples import SAMPLES, sample_path, sample_text
from app.session import FightSession
from rules.combatants import SHARED_MONITOR, AddCombatant, SetDamage, SetHidden, is_hidden
from rules.dice import Roller
from rules.encounter import Encounter, Side, frozen_map
from rules.errors import RulesError
from rules.history import History
from rules.systems import get_system
from tests.rules.sr3_scenes import eight_characters


def _session() -> tuple[FightSession, dict[str, str]]:
    history, ids = eight_characters()
    return FightSession(EncounterDocument(history), Roller.seeded(3)), ids


def test_roll_next_delay_and_back() -> None:
    session, ids = _session()
    session.roll_initiative({ids["Mike"]: (6,)})
    assert session.current_actor() == ids["Mike"]
    session.delay(ids["Mike"])
    assert session.current_actor() != ids["Mike"]
    session.back()
    assert session.current_actor() == ids["Mike"]
    session.next_turn()
    assert session.current_actor() is not None


def test_harm_and_zero_amount() -> None:
    session, ids = _session()
    session.harm(ids["Dave"], "stun", 3)
    assert session.document.state.combatant(ids["Dave"]).boxes("stun") == 3
    with pytest.raises(RulesError, match="other than zero"):
        session.harm(ids["Dave"], "stun", 0)


def test_one_hit_on_several_combatants_is_one_undo_step() -> None:
    session, ids = _session()
    targets = (ids["Dave"], ids["Sharon"])
    harms = {target: session.read_harm("6S", target, "physical") for target in targets}
    entries = len(session.document.history.entries)
    session.harm_each(harms)
    state = session.document.state
    assert [state.combatant(target).boxes("physical") for target in targets] == [6, 6]
    assert len(session.document.history.entries) == entries + 1
    assert session.document.undo_stack.undoText() == "Damage: Dave, Sharon"
    session.harm_each({ids["Dave"]: session.read_harm("M", ids["Dave"], "physical", heal=True)}, heal=True)
    assert session.document.state.combatant(ids["Dave"]).boxes("physical") == 3
    session.back()
    session.back()
    state = session.document.state
    assert [state.combatant(target).boxes("physical") for target in targets] == [0, 0]
    with pytest.raises(RulesError, match="Choose whom it hits"):
        session.harm_each({})


def test_a_typed_total_is_the_round_s_initiative() -> None:
    session, ids = _session()
    session.roll_initiative({ids["Mike"]: (6,)}, totals={ids["Dave"]: 25})
    state = session.document.state
    initiative = state.combatant(ids["Dave"]).initiative
    assert initiative is not None and (initiative.rolled, initiative.dice) == (25, (4,))  # 21 + 1d6: the die is 4


def test_dice_line_rolls_and_typed_faces_are_logged() -> None:
    session, _ids = _session()
    change = session.roll_dice("12d6 tn 5", "3,4,3,2,5,5,1,2,6,5,1,1")
    assert "4 successes" in change.entry.text()
    rolled = session.roll_dice("3d6+2")
    assert rolled.entry.text().startswith("Roll: 3d6+2")
    with pytest.raises(RulesError):
        session.roll_dice("3d6", "7,1,1")
    session.back()
    assert len(session.document.history.entries) == 9  # 8 additions + the first roll


def test_shipped_samples_match_the_code_that_builds_them() -> None:
    for system_id in SAMPLES:
        assert sample_path(system_id).read_text(encoding="utf-8") == sample_text(system_id)


def test_the_dice_line_reads_the_open_fights_game() -> None:
    session = FightSession(EncounterDocument(get_system("walka").sample()), Roller.seeded(3))
    with pytest.raises(RulesError) as refused:
        session.roll_dice("12d6 tn 5")
    assert "“tn” belongs to the dice line of another game (Shadowrun, Third Edition)" in str(refused.value)
    assert "The dice line of Walka knows: d, kh, kl, under, b, p, tens." in str(refused.value)  # kh, kl: keep dice
    assert session.roll_dice("d20 under 12 +1b", "7,15").entry.text().startswith("Roll: d20 under 12")



def test_duplicate_copies_the_numbers_not_the_fight() -> None:
    session, ids = _session()
    document = session.document
    session.roll_initiative()
    document.apply(SetDamage(ids["Ganger 2"], "physical", 3))
    document.apply(SetHidden(ids["Ganger 2"], True))
    original = document.state.combatant(ids["Ganger 2"])
    (copy_id,) = session.duplicate(ids["Ganger 2"]).added
    copy = document.state.combatant(copy_id)
    assert copy.name == "Ganger 4"  # Ganger 1–3 are taken: the numbering goes on
    assert (copy.side, dict(copy.attributes)) == (original.side, dict(original.attributes))
    assert copy.initiative is None and copy.boxes("physical") == 0
    assert is_hidden(copy)  # an ambusher's copy stays out of the players' sight
    assert document.undo_stack.undoText() == "Ganger 4 joins the fight."
    session.back()
    assert copy_id not in document.state.combatants
    session.duplicate(ids["Mike"])
    assert "Mike 2" in {c.name for c in document.state.combatants.values()}


def test_a_duplicated_grunt_leaves_the_group_and_its_shared_monitor() -> None:
    history = History(Encounter("sr3"))
    history.do(AddCombatant("c1", "Guard", Side.OPPONENT, frozen_map({"body": 5}), group="lobby",
                            extra=frozen_map({SHARED_MONITOR: True})))
    session = FightSession(EncounterDocument(history), Roller.seeded(1))
    (copy_id,) = session.duplicate("c1").added
    copy = session.document.state.combatant(copy_id)
    assert (copy.name, copy.group, SHARED_MONITOR in copy.extra) == ("Guard 2", None, False)
    assert copy.attribute("body") == 5
