"""Fixtures every layer's tests may use."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from rules.systems.base import RuleSystem
from tests.toy_game import registered


@pytest.fixture
def toy_game() -> Iterator[RuleSystem]:
    """A sixth game (tests/toy_game), registered for this test only: the next test's games are the shipped ones."""
    with registered() as system:
        yield system


@pytest.fixture(autouse=True)
def heap_given_back() -> Iterator[None]:
    """Opening a fight freezes everything alive then (app.storage.settle_heap): in the app that is the one window
    and the fight, for the whole session; a test process opens thousands of windows, so each test gives what it
    froze back to the collector (a closed window's reference cycles would otherwise stay until the process ends)."""
    yield
    gc.unfreeze()
