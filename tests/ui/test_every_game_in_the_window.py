"""Every option of every registered game is read by the game: by a rule while the sample fight plays and plays on
(tests/every_game.py), or else by the game's window parts while the window shows that fight (the details panel
with the game's sections for every combatant, the game's attack dialog against every target, its odds questions).

An option nothing reads is a setting the GM changes for nothing; it is kept (a rule may still need it) and
listed in NEVER_READ as an expected failure that fails loudly once something reads it. No game is named here
except in that list: the parameters come from the registry.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

import pytest
from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QApplication

from rules.history import History
from rules.systems import all_systems, get_system
from rules.systems.base import RuleSystem
from rules.turns import current_actor
from tests.every_game import options_read_by_rules, recording
from tests.ui.conftest import WindowFactory
from ui.games import game_ui
from ui.main_window import MainWindow

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")

#: Options no rule and no window part reads (found by this test): (game, option) → why the case is expected to
#: fail. Wire the option up (or drop it with the GM's consent) and take its line out.
NEVER_READ: dict[tuple[str, str], str] = {}


def _cases() -> Iterator[object]:
    for system_id, system in all_systems().items():
        for spec in system.option_specs():
            reason = NEVER_READ.get((system_id, spec.key))
            marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
            yield pytest.param(system_id, spec.key, marks=marks, id=f"{system_id}-{spec.key}")


@cache
def _read_by_rules(system_id: str) -> frozenset[str]:
    return options_read_by_rules(get_system(system_id))


_READ_BY_WINDOW: dict[str, frozenset[str]] = {}  # per game: the window is opened once for all its options


def _settle() -> None:
    QApplication.processEvents()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def _show_the_game(window: MainWindow, system: RuleSystem) -> None:
    """Every combatant in the details panel, the attack dialog against every target, the odds questions."""
    state = window.document.state
    for combatant_id in state.combatants:
        window.table.select_combatant(combatant_id)
        _settle()
    dialog_class = game_ui(system.id).attack_dialog()
    attacker = current_actor(state) or next(iter(state.combatants), None)
    if dialog_class is not None and attacker is not None:
        for target in (i for i in state.combatants if i != attacker):
            dialog = dialog_class(window.document, window.session.roller, attacker, target, window)
            dialog.show()
            _settle()
            dialog.close()
            dialog.deleteLater()
            _settle()
    window.actions_by_name["odds"].trigger()
    _settle()


def options_read_by_the_window(open_window: WindowFactory, system: RuleSystem) -> frozenset[str]:
    """The option keys read while the window shows the game's sample fight as it stands at its end."""
    seen: set[str] = set()
    window = open_window(system.id)
    window.document.replace_history(History(recording(system.sample().state, seen)), None)
    window.show_fight()
    _show_the_game(window, system)
    return frozenset(seen)


@pytest.mark.parametrize(("system_id", "key"), list(_cases()))
def test_every_option_is_read_by_its_game(system_id: str, key: str, open_window: WindowFactory) -> None:
    if key in _read_by_rules(system_id):
        return
    if system_id not in _READ_BY_WINDOW:
        _READ_BY_WINDOW[system_id] = options_read_by_the_window(open_window, get_system(system_id))
    assert key in _READ_BY_WINDOW[system_id], f"{system_id}: nothing reads the option {key!r}"
