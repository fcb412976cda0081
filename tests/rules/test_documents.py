"""Schema 2 documents: a trusted fight opens from its last state, replays lazily, and never shows an unchecked state."""

from __future__ import annotations

import copy
import functools
import json
from typing import Any

import pytest

from rules.combatants import AddCombatant, EditEncounter, SpendAction
from rules.documents import Archive, decode_patch, encode_patch, fight_data
from rules.encounter import Encounter, Side, frozen_map
from rules.errors import RulesError
from rules.history import History, HistoryDamaged, LogLine, checkpoint_gap
from rules.serialize import SCHEMA_VERSION, SchemaError, history_from_document, history_to_document, to_data
from rules.turns import NextTurn, RollInitiative
from tests.app.crash_worker import build_script
from tests.rules.sr3_scenes import eight_characters

OPERATIONS = 600


def spy_on_log(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every entry whose saved log lines are decoded, in order (opening a long fight must decode few)."""
    decoded: list[int] = []
    real_log = Archive.log

    def log(self: Archive, index: int) -> tuple[LogLine, ...]:
        decoded.append(index)
        return real_log(self, index)

    monkeypatch.setattr(Archive, "log", log)
    return decoded


def long_fight(operations: int = OPERATIONS, seed: int = 7) -> History:
    """The seed's eight characters, then a scripted fight of ``operations`` operations."""
    history, _ids = eight_characters()
    for step in build_script(seed, operations, only_operations=True):
        assert step.operation is not None
        history.do(step.operation)
    return history


@functools.cache
def the_history() -> History:
    """The long fight the tests below read (never change it): built when a test first asks, not when the module is
    imported (every test process imports this module while collecting, and most never run a test of it)."""
    return long_fight()


@functools.cache
def _document() -> dict[str, Any]:
    return json.loads(json.dumps(history_to_document(the_history())))  # type: ignore[no-any-return]


def the_document() -> dict[str, Any]:
    """The long fight as a file holds it (a fresh copy: tests change theirs)."""
    return copy.deepcopy(_document())


def states_back_to_start(history: History) -> list[Any]:
    """to_data of every state from the last to the first, undoing (the history is left at the start)."""
    states = [to_data(history.state)]
    while history.undo() is not None:
        states.append(to_data(history.state))
    return states


@functools.cache
def expected_states() -> list[Any]:
    """to_data of each state of the long fight, from the last to the first (built when first asked for)."""
    return states_back_to_start(long_fight())


def test_a_trusted_document_opens_from_its_state_without_replaying_it() -> None:
    loaded = history_from_document(the_document(), trusted=True)
    assert to_data(loaded.state) == _document()["state"]
    completed = sum(entry.complete for entry in loaded.entries)
    assert 0 < completed <= 2 * checkpoint_gap(8)  # the last two segments were checked, nothing else
    assert fight_data(loaded) == fight_data(the_history())
    assert [entry.text() for entry in loaded.entries] == [entry.text() for entry in the_history().entries]


def test_undo_and_redo_through_a_loaded_fight_are_exact() -> None:
    loaded = history_from_document(the_document(), trusted=True)
    assert states_back_to_start(loaded) == expected_states()
    assert all(entry.complete for entry in loaded.redo_entries)
    while loaded.redo() is not None:
        pass
    assert to_data(loaded.state) == _document()["state"]
    assert [entry.reminders for entry in loaded.entries] == [entry.reminders for entry in the_history().entries]


def test_the_document_keeps_checkpoints_as_small_patches() -> None:
    positions = [item["at"] for item in _document()["checkpoints"]]
    assert positions == sorted(positions) and len(positions) >= OPERATIONS // checkpoint_gap(8)
    history = History(Encounter("sr3", "Crowd"))
    for number in range(200):
        history.do(AddCombatant(f"c{number}", f"Ganger {number}", Side.OPPONENT, frozen_map({"reaction": number})))
    ids = [f"c{number}" for number in range(200)]
    history.do(RollInitiative(frozen_map(dict.fromkeys(ids, (3,))), frozen_map(dict.fromkeys(ids, (1, 2)))))
    for _step in range(150):
        history.do(NextTurn())
    document = history_to_document(history)
    state_bytes = len(json.dumps(document["state"]))
    # After the initiative roll (which changes everyone) a patch holds what changed, not a whole fight.
    patches = [len(json.dumps(item["patch"])) for item in document["checkpoints"] if item["at"] > 201]
    assert len(patches) >= 150 // checkpoint_gap(200) - 1 > 5 and max(patches) < state_bytes / 20


def test_saving_a_loaded_fight_again_reuses_its_patches_and_round_trips() -> None:
    loaded = history_from_document(the_document(), trusted=True)
    assert history_to_document(loaded) == _document()  # nothing decoded again, nothing changed
    loaded.do(NextTurn())
    again = history_from_document(json.loads(json.dumps(history_to_document(loaded))), trusted=True)
    reference = long_fight()
    reference.do(NextTurn())
    assert fight_data(again) == fight_data(reference)
    assert states_back_to_start(again) == states_back_to_start(reference)


def test_new_operations_after_undoing_into_a_loaded_fight() -> None:
    loaded = history_from_document(the_document(), trusted=True)
    reference = long_fight()
    for history in (loaded, reference):
        for _step in range(300):  # deep into the saved history: many segments replayed
            history.undo()
        history.do(NextTurn())
    resaved = json.loads(json.dumps(history_to_document(loaded)))
    assert fight_data(history_from_document(resaved, trusted=True)) == fight_data(reference)
    assert states_back_to_start(history_from_document(resaved, trusted=True)) == states_back_to_start(reference)


def test_an_untrusted_document_is_replayed_in_full() -> None:
    loaded = history_from_document(the_document())
    assert all(entry.complete for entry in loaded.entries)
    assert fight_data(loaded) == fight_data(the_history())


def test_a_schema_1_document_still_opens() -> None:
    old = {key: value for key, value in the_document().items() if key not in ("log", "checkpoints")}
    old["schema_version"] = 1
    assert SCHEMA_VERSION == 3
    for trusted in (False, True):  # a sealed schema 1 file has nothing to open from: it is replayed
        assert fight_data(history_from_document(copy.deepcopy(old), trusted=trusted)) == fight_data(the_history())


# --- damage and forgery -------------------------------------------------------------------------


def _first_checkpoint(document: dict[str, Any]) -> dict[str, Any]:
    checkpoint: dict[str, Any] = document["checkpoints"][0]
    assert len(document["checkpoints"]) >= 4  # far enough from the end to open, and be found on undo
    return checkpoint


def _undo_until_refused(history: History) -> tuple[list[Any], str]:
    shown = [to_data(history.state)]
    while True:
        try:
            if history.undo() is None:
                return shown, ""
        except HistoryDamaged as damage:
            return shown, str(damage)
        shown.append(to_data(history.state))


def test_a_forged_checkpoint_stops_undo_before_any_state_it_made_is_shown() -> None:
    document = the_document()
    checkpoint = _first_checkpoint(document)
    combatants = checkpoint["patch"]["items"].setdefault("combatants", {})
    combatants["c3"] = dict(to_data(the_history().state.combatants["c3"]), notes="forged")  # no operation touches it
    loaded = history_from_document(document, trusted=True)
    shown, problem = _undo_until_refused(loaded)
    assert "damaged at operation" in problem and "Everything after it is intact" in problem
    assert shown == expected_states()[: len(shown)]  # every state shown is the true one
    assert len(shown) > checkpoint_gap(8)  # and undo went as far back as it safely could
    assert loaded.state is not None and to_data(loaded.state) == expected_states()[len(shown) - 1]
    assert _undo_until_refused(loaded)[1] == problem  # asked again: the same answer, at once


def test_a_forged_log_line_is_found_when_its_segment_is_replayed() -> None:
    document = the_document()
    document["log"][40][2] = [["{name} wins the fight.", {"name": "Mallory"}]]
    loaded = history_from_document(document, trusted=True)
    shown, problem = _undo_until_refused(loaded)
    assert "the log does not match" in problem and shown == expected_states()[: len(shown)]


def test_a_forged_final_state_is_refused_on_opening() -> None:
    document = the_document()
    document["state"]["combatants"]["c1"]["damage"]["physical"] += 1  # a value the fight never reached
    with pytest.raises(SchemaError, match="does not match"):
        history_from_document(document, trusted=True)


@pytest.mark.parametrize("damage", [
    lambda d: d["log"].pop(),
    lambda d: d.__setitem__("checkpoints", {"at": 3}),
    lambda d: d["checkpoints"].insert(0, {"at": 10**6, "patch": {}}),
    lambda d: d["checkpoints"].append(copy.deepcopy(d["checkpoints"][0])),
    lambda d: d["operations"].__setitem__(5, {"op": "no_such_operation"}),
    lambda d: d["log"].__setitem__(7, [1, "one", []]),
])
def test_damaged_structure_is_refused_on_opening(damage: Any) -> None:
    document = the_document()
    damage(document)
    with pytest.raises(RulesError):
        history_from_document(document, trusted=True)


@pytest.mark.parametrize(("record", "problem"), [
    ([True, 1, []], "expected a whole number"),  # a bool is no round
    ([1, 1.0, []], "expected a whole number"),
    ([10**9 + 1, 1, []], "expected a whole number"),
    ([1, -(10**9) - 1, []], "expected a whole number"),
    ([1, 1, ()], "expected a list"),
    ([1, 1], "expected a list"),
    ({"round": 1}, "expected a list"),
    ([1, 1, [["line", {}]] * 1001], "too many entries"),
])
def test_each_log_record_is_checked_on_opening_and_named(record: Any, problem: str) -> None:
    """The entries of a trusted fight are made on a fast path; anything it does not take is refused as before."""
    document = the_document()
    document["log"][7] = record
    with pytest.raises(SchemaError, match=problem) as error:
        history_from_document(document, trusted=True)
    assert str(error.value).startswith("log[7]")


def test_log_records_at_the_limits_open() -> None:
    document = the_document()
    document["log"][7][:2] = [10**9, -(10**9)]
    loaded = history_from_document(document, trusted=True)
    assert (loaded.entries[7].round, loaded.entries[7].pass_no) == (10**9, -(10**9))
    assert loaded.entries[8].round == _document()["log"][8][0] and loaded.entries[7].index == 7


@pytest.mark.parametrize("patch", [
    [], {"fields": []}, {"fields": {"clock": "later"}}, {"fields": {"combatants": {}}},
    {"items": {"clock": {}}}, {"items": {"combatants": {"c1": {"name": 5}}}},
    {"keys": {"combatants": ["c1", "c1"]}}, {"keys": {"combatants": ["nobody"]}},
    {"keys": {"combatants": ["c1"]}, "items": {"combatants": {"c9": {}}}}, {"fields": {"nonsense": 1}},
])
def test_a_hostile_patch_gives_a_clear_message(patch: Any) -> None:
    with pytest.raises(SchemaError) as error:
        decode_patch(the_history().state, patch, "checkpoints[at=8]")
    assert str(error.value).startswith("checkpoints[at=8]")


def test_a_patch_is_exact_including_the_order_of_every_mapping() -> None:
    history = long_fight(200)
    early, late = history.checkpoints[1][1], history.state
    assert early is not None
    patch = json.loads(json.dumps(encode_patch(early, late)))
    assert to_data(decode_patch(late, patch, "p")) == to_data(early)
    reordered = list(reversed(list(history.state.combatants)))
    assert list(decode_patch(late, {"keys": {"combatants": reordered}}, "p").combatants) == reordered


def test_the_archive_is_the_source_of_every_pending_entry() -> None:
    loaded = history_from_document(the_document(), trusted=True)
    assert isinstance(loaded.source, Archive)
    assert loaded.entries[3].operation == the_history().entries[3].operation  # decoded on demand, not replayed
    assert not loaded.entries[3].complete


def test_a_saved_patch_is_not_reused_when_its_next_state_changed_at_the_same_position() -> None:
    """Found by the fuzzer: after undoing the last operation and doing another, the position after the last
    checkpoint is the same but its state is not, so the checkpoint's saved patch no longer describes it."""
    loaded = history_from_document(the_document(), trusted=True)
    reference = long_fight()
    for history in (loaded, reference):
        history.undo()
        history.do(EditEncounter("name", "Another ending"))
    resaved = json.loads(json.dumps(history_to_document(loaded)))
    assert states_back_to_start(history_from_document(resaved, trusted=True)) == states_back_to_start(reference)


def test_a_fight_saved_with_the_old_wording_of_an_action_still_undoes_past_it() -> None:
    """The budget buttons' line was "{name} takes a {action} action." (the key in it): a saved fight keeps that line,
    and undoing replays the action, which must write the same facts under today's wording."""
    history, ids = eight_characters()
    history.do(RollInitiative(frozen_map(dict.fromkeys(ids.values(), (1,))), frozen_map({})))
    history.do(SpendAction(ids["Mike"], "simple"))
    history.do(NextTurn())
    document = json.loads(json.dumps(history_to_document(history)))
    spent = len(history.entries) - 2
    document["log"][spent][2] = [["{name} takes a {action} action.", {"name": "Mike", "action": "simple"}, None, 0,
                                  ["action"]]]
    loaded = history_from_document(document, trusted=True)
    assert loaded.entries[spent].text() == "Mike takes a simple action."  # its saved line, as the GM saw it then
    assert loaded.undo() is not None and loaded.undo() is not None  # no "the log does not match"
    history.undo()
    history.undo()
    assert to_data(loaded.state) == to_data(history.state)
