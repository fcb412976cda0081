"""The registry of games. Each game is a module (or package) here that defines ``SYSTEM``.

Adding a sixth game means adding one module: the registry discovers it, nothing else names it.
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
def all_systems() -> dict[str, RuleSystem]:
    """Every game found in this package, by id, in a stable order."""
    found: dict[str, RuleSystem] = {}
    for module_info in sorted(pkgutil.iter_modules(__path__), key=lambda info: info.name):
        if module_info.name in _NOT_GAMES:
            continue
        module = importlib.import_module(f"{__name__}.{module_info.name}")
        system = getattr(module, "SYSTEM", None)
        if isinstance(system, RuleSystem):
            found[system.id] = system
    return found


def get_system(system_id: str) -> RuleSystem:
    """The game with that id, or a clear error naming it."""
    try:
        return all_systems()[system_id]
    except KeyError:
        raise RulesError(_("Unknown game {game!r}.").format(game=system_id)) from None
