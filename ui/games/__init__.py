"""The registry of the games' window parts: one package per game here, each defining ``GAME_UI``.

It mirrors :mod:`rules.systems`: a package's name is its game's id, it is imported the first time the game is
asked for, and nothing else names a game. A game with rules but no package here gets a plain
:class:`~ui.games.base.GameUi` (no dialog, no extra sections), so it still runs in the window. A game kept
elsewhere (a test's toy game) is added with :func:`register_game_ui`.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from ui.games.base import GameUi

_NOT_GAMES = frozenset({"base"})
_ELSEWHERE: dict[str, str] = {}  # game id → module defining GAME_UI outside this package


def _module_name(system_id: str) -> str | None:
    if system_id in _ELSEWHERE:
        return _ELSEWHERE[system_id]
    here = {info.name for info in pkgutil.iter_modules(__path__) if info.name not in _NOT_GAMES}
    return f"{__name__}.{system_id}" if system_id in here else None


@cache
def game_ui(system_id: str) -> GameUi:
    """The window parts of the game ``system_id`` (imported on first use)."""
    name = _module_name(system_id)
    found = getattr(importlib.import_module(name), "GAME_UI", None) if name else None
    return found if isinstance(found, GameUi) and found.id == system_id else GameUi(system_id)


def register_game_ui(system_id: str, module_name: str) -> None:
    """Find the window parts of ``system_id`` in ``module_name`` (a game kept outside this package)."""
    _ELSEWHERE[system_id] = module_name
    game_ui.cache_clear()


def unregister_game_ui(system_id: str) -> None:
    """Forget a game added with :func:`register_game_ui` (a test's toy game, once the test is over)."""
    _ELSEWHERE.pop(system_id, None)
    game_ui.cache_clear()
