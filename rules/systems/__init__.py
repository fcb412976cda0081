"""The registry of games. Each game is a module (or package) here that defines ``SYSTEM``.

Adding a sixth game means adding one module: the registry discovers it, nothing else names it. A game is
imported the first time it is asked for (its module name is its id), so opening an SR3 fight imports SR3
only; :func:`all_systems` imports them all.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from rules.errors import RulesError
from rules.systems.base import RuleSystem
from rules.text import _

_NOT_GAMES = frozenset({"base"})


@cache
def system_ids() -> tuple[str, ...]:
    """The ids of every game in this package, in a stable order, without importing any of them."""
    return tuple(sorted(info.name for info in pkgutil.iter_modules(__path__) if info.name not in _NOT_GAMES))


@cache
def _load(system_id: str) -> RuleSystem | None:
    system = getattr(importlib.import_module(f"{__name__}.{system_id}"), "SYSTEM", None)
    return system if isinstance(system, RuleSystem) and system.id == system_id else None


@cache
def all_systems() -> dict[str, RuleSystem]:
    """Every game found in this package, by id, in a stable order (imports them all)."""
    return {system_id: system for system_id in system_ids() if (system := _load(system_id)) is not None}


def get_system(system_id: str) -> RuleSystem:
    """The game with that id (imported on first use), or a clear error naming it."""
    system = _load(system_id) if system_id in system_ids() else None
    if system is None:
        raise RulesError(_("Unknown game {game!r}.").format(game=system_id))
    return system
