"""Crafted files (issue 19): each is refused with a message naming what is wrong, or it opens in the window and the
window shows it: the initiative chart, the status line, the player view, the details of everyone and the Roll
initiative dialog, with no exception ("Something went wrong") and nothing that loops or allocates without bound
(pytest-timeout guards each file).

The accepted ones include every game's sample with every number at the top of its limit (rules.limits), and a timer
going off whose effect the GM removed (the status line raised KeyError on it).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QApplication

from app.storage import StorageError, load_encounter
from rules import limits
from rules.serialize import FORMAT, SCHEMA_VERSION, to_data
from rules.systems import all_systems
from tests.rules.test_state_limits import full_state
from tests.ui.conftest import WindowFactory
from ui.dialogs.initiative import RollInitiativeDialog
from ui.main_window import MainWindow
from ui.status import fight_status

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support (propagateSizeHints|raise)\(\)")

Change = Callable[[dict[str, Any]], None]


def _at_the_limits(state: dict[str, Any]) -> None:
    """Every number of the state at the top of its limit, as far as the state stays whole."""
    state["clock"]["round"] = limits.ROUND.high - 1
    for combatant in state["combatants"].values():
        combatant["attributes"] = dict.fromkeys(combatant["attributes"], limits.ATTRIBUTE.high)
        combatant["damage"] = dict.fromkeys(combatant["damage"], limits.DAMAGE.high)
        combatant["pools"] = {key: {"size": limits.POOL_DICE.high, "spent": 1} for key in combatant["pools"]}
        combatant["initiative"] = {"base": limits.ATTRIBUTE.high, "dice": [6] * limits.INITIATIVE_DICE.high,
                                   "tiebreak": [3] * limits.TIEBREAK_DICE.high}
        combatant["actions_used"] = dict.fromkeys(combatant["actions_used"], limits.ACTIONS.high)
    for effect in state["effects"].values():
        if effect.get("remaining") is not None:
            effect["remaining"] = limits.EFFECT_COUNT.high


def _without_damage(state: dict[str, Any]) -> None:
    """At the limits, but nobody hurt: everyone rolls initiative (with 9,999 initiative dice where a game reads the
    attribute, which Roll initiative refuses with a message)."""
    _at_the_limits(state)
    state["clock"].update(pass_no=0, current=None, acted=[], yielded=[])
    state["delays"] = {}
    for combatant in state["combatants"].values():
        combatant["damage"] = dict.fromkeys(combatant["damage"], 0)


def _removed_timer(state: dict[str, Any]) -> None:
    state["clock"]["current"] = {"kind": "timer", "ids": ["e-gone"], "phase": 5}


def _cases() -> Iterator[Any]:
    for system_id, system in sorted(all_systems().items()):
        sample = json.loads(json.dumps(to_data(system.sample().state)))
        yield pytest.param(sample, _at_the_limits, True, id=f"{system_id}-at-the-limits")
        yield pytest.param(sample, _without_damage, True, id=f"{system_id}-unhurt-at-the-limits")
    sr3 = full_state()
    yield pytest.param(sr3, _removed_timer, True, id="removed-timer")
    refused: dict[str, Change] = {
        "round-past-the-limit": lambda state: state["clock"].__setitem__("round", limits.ROUND.high + 1),
        "pass-of-a-billion": lambda state: state["clock"].__setitem__("pass_no", 10**9),
        "initiative-dice-of-a-billion": lambda state: state["combatants"]["c1"]["attributes"].__setitem__(
            "initiative_dice", 10**9),
        "100000-faces": lambda state: state["combatants"]["c1"]["initiative"].__setitem__("dice", [3] * 100_000),
        "id-not-its-key": lambda state: state["combatants"]["c1"].__setitem__("id", "zz"),
        "effect-on-nobody": lambda state: state["effects"]["e9"].__setitem__("target", "c99"),
        "timer-of-nothing": lambda state: state["clock"].__setitem__("current", {"kind": "timer", "ids": []}),
        "actor-not-in-the-fight": lambda state: state["clock"]["current"].__setitem__("ids", ["c99"]),
    }
    for name, change in refused.items():
        yield pytest.param(sr3, change, False, id=name)


def _settle() -> None:
    QApplication.processEvents()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def _show_everything(window: MainWindow) -> None:
    window.show()
    window.on_initiative_chart()
    window.open_player_view()
    _settle()
    assert fight_status(window.document.state, window.document.system)
    for combatant_id in window.document.state.combatants:
        window.table.select_combatant(combatant_id)
        _settle()
    window.grab()
    dialog = RollInitiativeDialog(window.session, window)
    dialog.show()
    _settle()
    dialog.grab()
    dialog.roll()  # rolls, or says why not (the round still runs; 9,999 dice are more than Bojovka rolls)
    _settle()
    dialog.close()
    dialog.deleteLater()
    _settle()


@pytest.mark.timeout(120)
@pytest.mark.parametrize(("state", "change", "accepted"), list(_cases()))
def test_a_crafted_file_is_refused_or_shown_whole(state: dict[str, Any], change: Change, accepted: bool,
                                                  open_window: WindowFactory, tmp_path: Path) -> None:
    crafted = copy.deepcopy(state)
    change(crafted)
    path = tmp_path / "crafted.bojovka"
    path.write_text(json.dumps({"format": FORMAT, "schema_version": SCHEMA_VERSION, "initial": crafted,
                                "operations": []}), encoding="utf-8")
    if not accepted:
        with pytest.raises(StorageError, match=r"^Cannot open “.*”: initial\."):
            load_encounter(path)
        return
    window = open_window(crafted["system_id"])
    window.workspace.open(path)
    _show_everything(window)


def test_the_status_line_names_a_timer_whose_effect_was_removed(open_window: WindowFactory, tmp_path: Path) -> None:
    state = full_state()
    _removed_timer(state)
    path = tmp_path / "timer.bojovka"
    path.write_text(json.dumps({"format": FORMAT, "schema_version": SCHEMA_VERSION, "initial": state,
                                "operations": []}), encoding="utf-8")
    window = open_window("sr3")
    window.workspace.open(path)
    assert fight_status(window.document.state, window.document.system).endswith("Timer goes off now")
    assert window.round_label.text().endswith("Timer goes off now")
