"""The toy game (tests/toy_game): a sixth game is one rules package and one UI package, registered for one test
at a time, and the every-game harness holds for it as for the shipped games."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from app.samples import samples
from rules.history import Operation
from rules.report import summarize
from rules.systems import all_systems, get_system, system_ids
from rules.systems.base import RuleSystem
from tests.every_game import (
    check_reopened,
    check_timeline_follows,
    check_undo_and_redo,
    options_read_by_rules,
    played,
    replayed_states,
    saved_and_reopened,
)
from tests.toy_game import TOY_ID, registered
from ui.games import game_ui
from ui.games.base import GameUi

TOY = Path(__file__).resolve().parent / "toy_game"


def _leaves_no_trace() -> None:
    assert TOY_ID not in system_ids() and TOY_ID not in all_systems() and TOY_ID not in samples()
    assert not [kind for kind, cls in Operation.registry.items() if cls.__module__.startswith("tests.toy_game")]
    assert type(game_ui(TOY_ID)) is GameUi  # a plain one: the toy's window parts are forgotten


def test_the_toy_game_is_registered_only_while_it_is_asked_for() -> None:
    _leaves_no_trace()
    for _time in range(2):  # the second time its modules are imported already: it must come back whole
        with registered() as system:
            assert TOY_ID in system_ids() and all_systems()[TOY_ID] is system is get_system(TOY_ID)
            assert TOY_ID in samples() and "toy_attack" in Operation.registry
            assert game_ui(TOY_ID).attack_dialog() is not None  # its own parts, not a bare GameUi
        _leaves_no_trace()


def test_the_toy_sample_logs_its_attacks_and_how_likely_they_were(toy_game: RuleSystem) -> None:
    history = toy_game.sample()
    lines = [line.render() for entry in history.entries for line in entry.log]
    assert "Ada rolls 2 + 2 against Goblin 1's Defence 3: a hit for 2." in lines
    assert "Goblin 1 rolls 1 + 1 against Bo's Defence 4: a miss." in lines
    states = replayed_states(history)
    odds = [toy_game.outcome_probability(entry.operation, before)
            for entry, before in zip(history.entries, states, strict=False) if entry.operation.attacker_id()]
    assert odds == [1.0, pytest.approx(1 / 3)]  # Ada cannot miss; a goblin misses Bo on a 1 or a 2
    people = {p.name: p for p in summarize(history).participants}
    assert dict(people["Ada"].dealt) == {"Hit points lost": 2} == dict(people["Goblin 1"].taken)


def test_the_harness_holds_for_the_toy_game(toy_game: RuleSystem, tmp_path: Path) -> None:
    check_undo_and_redo(played(toy_game))
    history = played(toy_game)
    check_reopened(history, saved_and_reopened(history, tmp_path / "toy.bojovka", sealed=True))
    check_timeline_follows(played(toy_game))
    assert options_read_by_rules(toy_game) >= {spec.key for spec in toy_game.option_specs()}


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_the_toy_rules_are_pure_like_a_shipped_games() -> None:
    offenders = {f"{path.name}: {name}" for path in (TOY / "rules").glob("*.py") for name in _imports(path)
                 if name.split(".")[0] in {"PySide6", "pyqtgraph", "app", "ui"} or name.startswith("tests.toy_game.ui")}
    assert offenders == set()
