"""Documents: round trips, clear messages for damaged or hostile content, newer versions refused politely."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import RulesError
from rules.serialize import SCHEMA_VERSION, SchemaError, history_from_document, history_to_document
from tests.rules.sr3_scenes import eight_characters, play_round, roll_ones


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
