"""Fixtures every layer's tests may use."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from rules.systems.base import RuleSystem
from tests.toy_game import registered


@pytest.fixture
def toy_game() -> Iterator[RuleSystem]:
    """A sixth game (tests/toy_game), registered for this test only: the next test's games are the shipped ones."""
    with registered() as system:
        yield system
