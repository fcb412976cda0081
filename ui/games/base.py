"""What one game adds to the window, behind one object: the UI half of a game, as ``RuleSystem`` is its rules.

Each game's package ``ui/games/<game id>/`` defines ``GAME_UI``, a :class:`GameUi`. The generic window asks it
for the game's attack dialog, its surprise test (if it has one), its details-panel sections, its odds-dock
questions and what the actor strip shows of whoever acts now (:meth:`GameUi.essentials`), and never names a game.
A game's package imports its heavy parts (dialogs, charts) inside these methods, so start-up imports only what
the fight on screen needs.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, cast, runtime_checkable

from app.i18n import _
from rules.combatants import SpendAction, SpendPool
from rules.encounter import Combatant, Encounter
from rules.history import Operation
from rules.report import pool_label
from rules.systems.base import RuleSystem

if TYPE_CHECKING:
    from PySide6.QtWidgets import QDialog, QWidget

    from app.document import EncounterDocument
    from rules.dice import Roller
    from ui.charts.odds_questions import Question

Apply = Callable[[Operation], bool]  # applies an operation; False (with a message shown) if refused


class GameSection(Protocol):
    """A part of the details panel: built with the panel's ``apply``, refreshed with the combatant shown."""

    def refresh(self, combatant: Combatant, state: Encounter, system: RuleSystem) -> None:
        """Show ``combatant`` as it is in ``state``."""


SectionFactory = Callable[[Apply], "QWidget"]


@runtime_checkable
class RollingSection(Protocol):
    """A section that rolls dice (SR3's stand-up test): the panel hands it the session's injected roller once built,
    so its rolls come from the same source as every other roll of the fight (seeded in tests)."""

    def use_roller(self, roller: Roller) -> None:
        """Roll with ``roller`` from now on."""


class AttackDialogClass(Protocol):
    """What the window may construct: ``cls(document, roller, attacker_id, target_id, parent)``."""

    def __call__(
        self,
        document: EncounterDocument,
        roller: Roller,
        attacker_id: str | None = None,
        target_id: str | None = None,
        parent: QWidget | None = None,
    ) -> QDialog: ...


class SurpriseDialogClass(Protocol):
    """A game's surprise test: ``cls(document, roller, parent)``."""

    def __call__(self, document: EncounterDocument, roller: Roller, parent: QWidget | None = None) -> QDialog: ...


@dataclass(frozen=True)
class Control:
    """A one-click command beside a reading (spend one die, use one action): a symbol, what it does (its tooltip
    and accessible name) and the operation, or None when it cannot be done now."""

    symbol: str
    tip: str
    operation: Operation | None = None


@dataclass(frozen=True)
class Reading:
    """One thing the actor strip shows of the acting combatant ("combat 6/7"), with its quick controls.

    ``key`` names it for the strip's tests and accessibility (a pool's or an action kind's key)."""

    key: str
    text: str
    tip: str = ""
    controls: tuple[Control, ...] = ()


@dataclass(frozen=True)
class Essentials:
    """A titled group of readings in the actor strip (what the actor may still do; its pools)."""

    title: str
    readings: tuple[Reading, ...]


EssentialsFactory = Callable[[Combatant, Encounter, RuleSystem], "Sequence[Essentials]"]


def counted(what: str, left: int, size: int) -> str:
    """A reading's text: "combat 6/7", what is left of how many."""
    return _("{what} {left}/{size}").format(what=what, left=left, size=size)


def budget_essentials(combatant: Combatant, state: Encounter, system: RuleSystem) -> Essentials:
    """What the actor may still do this turn (the game's budget), each kind with a "use one" control: the same
    operation as the details panel's Use buttons."""
    readings = []
    for item in system.action_budget(combatant, state):
        label = _(item.label)
        use = Control("−", _("Use a {action} action").format(action=label),
                      SpendAction(combatant.id, item.key) if item.left > 0 else None)
        readings.append(Reading(item.key, counted(label, item.left, item.allowed), use.tip, (use,)))
    return Essentials(_(system.time_units().budget), tuple(readings))


def pool_essentials(combatant: Combatant, keys: Sequence[str] | None = None) -> Essentials:
    """The combatant's dice pools (or those of ``keys``), each with a "spend one die" control: the same operation
    as the details panel's − button."""
    readings = []
    for key, pool in combatant.pools.items():
        if keys is not None and key not in keys:
            continue
        name = pool_label(key)
        spend = Control("−", _("Spend one die from {pool}").format(pool=name),
                        SpendPool(combatant.id, key, 1) if pool.remaining > 0 else None)
        readings.append(Reading(key, counted(name, pool.remaining, pool.size), spend.tip, (spend,)))
    return Essentials(_("Pools"), tuple(readings))


def default_essentials(combatant: Combatant, state: Encounter, system: RuleSystem) -> list[Essentials]:
    """What any game's actor strip shows: the action budget and the pools (groups with nothing in them left out)."""
    groups = [budget_essentials(combatant, state, system), pool_essentials(combatant)]
    return [group for group in groups if group.readings]


@dataclass(frozen=True)
class Part:
    """One of a game's window parts, named by module and attribute and imported the first time it is asked for
    (so start-up imports only what the fight on screen needs)."""

    module: str
    attribute: str

    def load(self) -> Any:
        """The part itself (a dialog class, a tuple of sections or questions)."""
        return getattr(importlib.import_module(self.module), self.attribute)


class GameUi:
    """The window parts of one game. Without parts it is a game with none: the generic window still runs it.

    A game passes its parts as :class:`Part` values (or overrides the methods for anything cleverer).
    """

    def __init__(self, system_id: str, attack: Part | None = None, sections: Part | None = None,
                 odds: Part | None = None, essentials: Part | None = None, surprise: Part | None = None) -> None:
        self.id = system_id
        self._attack, self._sections, self._odds, self._essentials = attack, sections, odds, essentials
        self._surprise = surprise

    def attack_dialog(self) -> AttackDialogClass | None:
        """The game's attack dialog class, or None (attacks are then resolved with the dice line and Damage)."""
        return cast("AttackDialogClass", self._attack.load()) if self._attack else None

    def surprise_dialog(self) -> SurpriseDialogClass | None:
        """The game's surprise test dialog class, or None (the game has no surprise rule: the action is hidden)."""
        return cast("SurpriseDialogClass", self._surprise.load()) if self._surprise else None

    def has_surprise(self) -> bool:
        """Whether the game has a surprise test (without importing its dialog)."""
        return self._surprise is not None

    def sections(self) -> Sequence[SectionFactory]:
        """Extra sections of the combatant details panel, top to bottom (banks, pyramid, seating…)."""
        return cast("Sequence[SectionFactory]", self._sections.load()) if self._sections else ()

    def odds_questions(self) -> Sequence[Question]:
        """The what-if questions of the odds dock."""
        return cast("Sequence[Question]", self._odds.load()) if self._odds else ()

    def essentials(self, combatant: Combatant, state: Encounter, system: RuleSystem) -> Sequence[Essentials]:
        """What the actor strip shows of ``combatant`` as it acts: its budget and pools, or the game's own
        (an :data:`EssentialsFactory`, which may build on :func:`budget_essentials` and :func:`pool_essentials`)."""
        factory = cast("EssentialsFactory", self._essentials.load()) if self._essentials else default_essentials
        return factory(combatant, state, system)
