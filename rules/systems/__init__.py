"""The registry of games. Each game is a module (or package) here that defines ``SYSTEM``.

Adding a sixth game means adding one package here: the registry discovers it, nothing else names it. A game is
imported the first time it is asked for (its module name is its id), so opening an SR3 fight imports SR3
only; :func:`all_systems` imports them all. Lists that only name the games (the welcome page, the recent
files) ask :func:`system_title`, which reads the game's ``meta.json`` beside its modules instead of importing it.
A game kept elsewhere (a test's toy game) is added with
:func:`register_system`, as :func:`ui.games.register_game_ui` adds its window parts.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
from functools import cache
from importlib import resources

from rules.errors import RulesError
from rules.log_formats import attribute_format, register_log_format
from rules.systems.base import RuleSystem
from rules.text import _

_NOT_GAMES = frozenset({"base"})
_ELSEWHERE: dict[str, str] = {}  # game id → module defining SYSTEM outside this package


@cache
def system_ids() -> tuple[str, ...]:
    """The ids of every game in this package (and registered from elsewhere), in a stable order, without
    importing any of them."""
    here = {info.name for info in pkgutil.iter_modules(__path__) if info.name not in _NOT_GAMES}
    return tuple(sorted(here | set(_ELSEWHERE)))


@cache
def _load(system_id: str) -> RuleSystem | None:
    module_name = _ELSEWHERE.get(system_id, f"{__name__}.{system_id}")
    system = getattr(importlib.import_module(module_name), "SYSTEM", None)
    if not isinstance(system, RuleSystem) or system.id != system_id:
        return None
    register_log_format(attribute_format(system_id), system.attribute_name)  # "armor set to 2" in the GM's words
    return system


@cache
def all_systems() -> dict[str, RuleSystem]:
    """Every game found in this package, by id, in a stable order (imports them all)."""
    return {system_id: system for system_id in system_ids() if (system := _load(system_id)) is not None}


@cache
def system_title(system_id: str) -> str:
    """The English title of a game (N_-marked in its rules; translate it with ``_``), without importing the game
    when its ``meta.json`` names it; a game without one (kept elsewhere) is imported for it."""
    if system_id not in _ELSEWHERE:
        entry = resources.files(__name__).joinpath(system_id, "meta.json")
        try:
            title = json.loads(entry.read_text(encoding="utf-8")).get("title")
        except (OSError, ValueError, AttributeError):
            title = None
        if isinstance(title, str) and title:
            return title
    return get_system(system_id).title


def get_system(system_id: str) -> RuleSystem:
    """The game with that id (imported on first use), or a clear error naming it."""
    system = _load(system_id) if system_id in system_ids() else None
    if system is None:
        raise RulesError(_("Unknown game {game!r}.").format(game=system_id))
    return system


def _forget() -> None:
    for cached in (system_ids, _load, all_systems, system_title):
        cached.cache_clear()


def register_system(system_id: str, module_name: str) -> None:
    """Find the game ``system_id`` in ``module_name`` (a game kept outside this package); its id is listed from
    now on."""
    _ELSEWHERE[system_id] = module_name
    _forget()


def unregister_system(system_id: str) -> None:
    """Forget a game added with :func:`register_system` (a test's toy game leaves no trace in the next test)."""
    _ELSEWHERE.pop(system_id, None)
    _forget()
