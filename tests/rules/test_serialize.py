"""Documents: round trips, clear messages for damaged or hostile content, newer versions refused politely."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.encounter import Encounter
from rules.errors import RulesError
from rules.history import diff, revert
from rules.serialize import (
    SCHEMA_VERSION,
    SchemaError,
    encounter_from_data,
    history_from_document,
    history_to_document,
    to_data,
)
from rules.systems import get_system
from rules.systems.sr3.surprise_test import may_act_against
from rules.systems.walka import SYSTEM as WALKA
from rules.systems.walka import seating
from rules.systems.walka.seating import listed_seats
from tests.rules.sr3_scenes import eight_characters, play_round, roll_ones
from tests.rules.test_walka_scenes import roll, table

SR3 = get_system("sr3")


def _document() -> dict[str, Any]:
    history, ids = eight_characters()
    roll_ones(history, ids)
    play_round(history)
    document: dict[str, Any] = json.loads(json.dumps(history_to_document(history)))
    return document


DOCUMENT = _document()


def _load(document: Any) -> str:
    with pytest.raises(SchemaError) as error:
        history_from_document(document)
    return str(error.value)


def test_round_trip() -> None:
    assert history_to_document(history_from_document(copy.deepcopy(DOCUMENT))) == DOCUMENT


def test_newer_version_is_refused_politely() -> None:
    document = dict(DOCUMENT, schema_version=SCHEMA_VERSION + 1)
    assert "newer version of Bojovka" in _load(document)


def test_not_an_encounter() -> None:
    assert "not a Bojovka encounter file" in _load({"hello": "world"})
    assert "not a Bojovka encounter file" in _load([1, 2, 3])


def test_wrong_type_names_the_place() -> None:
    document = copy.deepcopy(DOCUMENT)
    document["operations"][0]["attributes"]["body"] = "four"
    assert _load(document).startswith("operations[0].attributes.body: expected a whole number")
    document = copy.deepcopy(DOCUMENT)
    document["initial"]["clock"] = {"round": "one"}
    assert _load(document).startswith("initial.clock.round: expected a whole number")


def test_huge_number_is_refused() -> None:
    document = copy.deepcopy(DOCUMENT)
    document["operations"][0]["attributes"]["reaction"] = 10**30
    assert "too large" in _load(document)


def test_unknown_operation() -> None:
    document = copy.deepcopy(DOCUMENT)
    document["operations"].append({"op": "__import__('os').system('rm -rf /')"})
    assert "unknown operation" in _load(document)


def test_tampered_state_is_detected() -> None:
    document = copy.deepcopy(DOCUMENT)
    document["state"]["name"] = "Something else"
    assert "does not match" in _load(document)


def test_deep_nesting_in_free_form_data() -> None:
    document = copy.deepcopy(DOCUMENT)
    nested: Any = "x"
    for _index in range(60):
        nested = {"a": nested}
    document["initial"]["options"] = {"tables": nested}
    assert "nested too deeply" in _load(document)


def _mutations(document: dict[str, Any]) -> st.SearchStrategy[Any]:
    junk = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True), st.text(max_size=5),
                     st.lists(st.integers(), max_size=3), st.dictionaries(st.text(max_size=3), st.integers(),
                                                                          max_size=2))
    return st.tuples(st.integers(0, 10_000), junk)


def _replace_somewhere(node: Any, index: int, value: Any) -> Any:
    """Replace the index-th value found walking the document (wrapping around)."""
    paths: list[tuple[Any, Any]] = []

    def walk(item: Any) -> None:
        children = item.items() if isinstance(item, dict) else enumerate(item) if isinstance(item, list) else ()
        for key, child in children:
            paths.append((item, key))
            walk(child)

    walk(node)
    parent, key = paths[index % len(paths)]
    parent[key] = value
    return node


@settings(max_examples=150, deadline=None)
@given(_mutations(DOCUMENT))
def test_mutated_documents_load_or_fail_clearly(mutation: tuple[int, Any]) -> None:
    document = _replace_somewhere(copy.deepcopy(DOCUMENT), *mutation)
    try:
        history_from_document(document)
    except RulesError as error:
        assert str(error)  # a message for the GM, never another exception type


# --- a game's own state -------------------------------------------------------------------------


@pytest.mark.parametrize("junk", [5, "x", [1, "Ania"], {"c1": 1, "c2": ["c1", 7]}, True, 2.5, [], {}])
def test_a_games_own_state_of_the_wrong_shape_is_read_as_far_as_it_makes_sense(junk: Any) -> None:
    """``game`` is free-form data in a file: a game reads an item of the wrong shape as absent, never fails."""
    walka, _ids = table()
    roll(walka, Ania=8, Bartek=3, Celina=10, GM=3)
    document = json.loads(json.dumps(history_to_document(walka)))
    document["state"]["game"] = {"seats": junk, "gm_tie_decision": junk}
    state = encounter_from_data(document["state"])
    assert set(listed_seats(state)) <= {"Ania"} and seating.decision(state, False) is None
    assert WALKA.remaining_slots(state) and WALKA.open_tie(state) is not None
    sr3, ids = eight_characters()
    roll_ones(sr3, ids)
    document = json.loads(json.dumps(history_to_document(sr3)))
    document["state"]["game"] = {"surprise": junk}
    state = encounter_from_data(document["state"])
    assert may_act_against(state, "c1", "c2") and may_act_against(state, "c2", "c1")
    assert may_act_against(state, "c2", "c3") == ("c2" not in junk if isinstance(junk, dict) else True)
    assert len(SR3.remaining_slots(state)) == 8


def test_a_games_items_are_kept_in_key_order_and_undone_item_by_item() -> None:
    """Any way to the same state builds the same ``game`` (order included), and a delta names only the item."""
    start = Encounter("walka")
    first = start.with_game_item("zeta", (1,)).with_game_item("alpha", "a")
    second = start.with_game_item("alpha", "a").with_game_item("zeta", (1,))
    assert list(first.game) == list(second.game) == ["alpha", "zeta"] and first == second
    assert first.with_game_item("alpha", first.game["alpha"]) is first
    assert first.with_game_item("missing", None) is first
    assert list(first.with_game_item("alpha", None).game) == ["zeta"]
    changed = first.with_game_item("zeta", (2,))
    delta = diff(first, changed)
    assert delta.items == {"game": {"zeta": ((1,), (2,))}} and not delta.fields
    assert revert(changed, delta) == first and changed.game["alpha"] is first.game["alpha"]
    loaded = encounter_from_data(json.loads(json.dumps(to_data(changed))))
    assert loaded == changed and list(loaded.game) == list(changed.game)
