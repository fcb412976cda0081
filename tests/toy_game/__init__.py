"""A sixth game kept under tests/: its rules package (``rules/``) and its window parts (``ui/``).

:func:`registered` adds it to both registries for a while and takes every trace of it out again (its id, its
operations, the cached sample builders), because the other tests iterate over every registered game. Nothing
here imports the toy's rules on import, so collecting the tests registers nothing.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final

from rules.history import Operation
from rules.systems import get_system, register_system, unregister_system
from rules.systems.base import RuleSystem

TOY_ID: Final[str] = "toy"
RULES_MODULE: Final[str] = "tests.toy_game.rules"
UI_MODULE: Final[str] = "tests.toy_game.ui"


def _toy_operations() -> tuple[type[Operation], ...]:
    operations: tuple[type[Operation], ...] = importlib.import_module(RULES_MODULE).OPERATIONS
    return operations


@contextmanager
def registered() -> Iterator[RuleSystem]:
    """The toy game, registered (rules and window parts) until the block ends."""
    from app.samples import samples
    from ui.games import register_game_ui, unregister_game_ui

    register_system(TOY_ID, RULES_MODULE)
    register_game_ui(TOY_ID, UI_MODULE)
    samples.cache_clear()
    try:
        system = get_system(TOY_ID)
        for operation in _toy_operations():  # back in the registry if an earlier block took them out
            Operation.registry[operation.kind] = operation
        yield system
    finally:
        for operation in _toy_operations():
            Operation.registry.pop(operation.kind, None)
        unregister_system(TOY_ID)
        unregister_game_ui(TOY_ID)
        samples.cache_clear()
