"""The encounter's effects and reminders as a table, and the words that describe their timing.

Rows follow ``state.effects``. Adding or removing an effect inserts or removes its row (the selection stays
on the others); an effect ticking down or a combatant being renamed only emits ``dataChanged``. Only loading
another fight resets the model.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import IntEnum
from types import MappingProxyType
from typing import Any, Final

from PySide6.QtCore import QByteArray, QModelIndex, QPersistentModelIndex, Qt

from app.document import Change, EncounterDocument
from app.i18n import N_, _, ngettext
from rules.effects import meaning_label
from rules.encounter import Effect, Encounter, Timing
from rules.errors import RulesError
from rules.systems import get_system
from rules.systems.base import Hook
from rules.time_units import ROUNDS, TimeUnits
from ui.models.base import EnumTableModel
from ui.widgets.messages import as_written

Index = QModelIndex | QPersistentModelIndex


class Column(IntEnum):
    """Columns of the effects table."""

    NAME = 0
    TARGET = 1
    DURATION = 2
    REMINDS = 3


HEADERS: Final[Mapping[Column, str]] = MappingProxyType({
    Column.NAME: N_("Effect"),
    Column.TARGET: N_("On"),
    Column.DURATION: N_("Remaining"),
    Column.REMINDS: N_("Reminds"),
})


class Role(IntEnum):
    """Named data roles."""

    EFFECT_ID = Qt.ItemDataRole.UserRole + 1
    TARGET_ID = Qt.ItemDataRole.UserRole + 2


#: A hook's name when it concerns everyone (a game's passes are named by the game: :func:`hook_label`).
HOOK_LABELS: Final[Mapping[Hook, str]] = MappingProxyType({
    Hook.ROUND_START: N_("Start of each round"),
    Hook.ROUND_END: N_("End of each round"),
    Hook.TURN_START: N_("Start of each turn"),
    Hook.TURN_END: N_("End of each turn"),
})

#: A hook's name when it is tied to one combatant's turns.
OWN_HOOK_LABELS: Final[Mapping[Hook, str]] = MappingProxyType({
    Hook.TURN_START: N_("Start of {name}'s turns"),
    Hook.TURN_END: N_("End of {name}'s turns"),
})


def ordered_hooks(hooks: frozenset[Hook]) -> list[Hook]:
    """A game's hooks in the order they fire within a round."""
    return [hook for hook in Hook if hook in hooks]


def combatant_name(state: Encounter, combatant_id: str | None) -> str:
    """A combatant's name, the whole encounter for None, the id itself for someone who left."""
    if combatant_id is None:
        return _("Whole encounter")
    combatant = state.combatants.get(combatant_id)
    return combatant.name if combatant is not None else combatant_id


def hook_label(hook: Hook, units: TimeUnits) -> str | None:
    """A hook's name for everyone, in the game's words (None: the game has no such moment)."""
    if hook in HOOK_LABELS:
        return _(HOOK_LABELS[hook])
    if units.passes is None:
        return None
    return _(units.passes.each_start if hook is Hook.PASS_START else units.passes.each_end)


def timing_text(timing: Timing, state: Encounter) -> str:
    """'Start of each round', 'End of Mike's turns'…"""
    hook = _hook(timing.hook)
    label = (hook_label(hook, _units(state)) if hook is not None else None) or timing.hook
    if timing.combatant is None:
        return label
    name = combatant_name(state, timing.combatant)
    if hook is not None and hook in OWN_HOOK_LABELS:
        return _(OWN_HOOK_LABELS[hook]).format(name=name)
    return _("{hook} ({name})").format(hook=label, name=name)


def _hook(value: str) -> Hook | None:
    """The hook named ``value`` (None for a name this version does not know: shown as is)."""
    try:
        return Hook(value)
    except ValueError:
        return None


def _units(state: Encounter) -> TimeUnits:
    """The words of the encounter's game for its rounds and passes."""
    try:
        return get_system(state.system_id).time_units()
    except RulesError:  # a game this version does not know: plain rounds
        return ROUNDS


def duration_text(effect: Effect, state: Encounter) -> str:
    """How long the effect still lasts, in the GM's words (and the game's, for its passes)."""
    if effect.due is not None:
        return _due_text(effect.due, _units(state))
    if effect.remaining is None or effect.expires is None:
        return _("Until removed")
    return _counted(effect.expires, effect.remaining, state)


def _due_text(due: tuple[int, int, int], units: TimeUnits) -> str:
    round_no, pass_no, phase = due
    if units.passes is not None:
        template = units.passes.due if phase > 0 else units.passes.due_at_end
        return _(template).format(round=round_no, pass_no=pass_no, phase=phase)
    if phase > 0:
        return _("Goes off in round {round}").format(round=round_no)
    return _("Goes off at the end of round {round}").format(round=round_no)


def _counted(expires: Timing, count: int, state: Encounter) -> str:
    hook = _hook(expires.hook)
    if hook is Hook.ROUND_END and expires.combatant is None:
        return ngettext("{count} round left", "{count} rounds left", count).format(count=count)
    passes = _units(state).passes
    if hook is Hook.PASS_END and expires.combatant is None and passes is not None:
        return passes.left.text(count)
    if hook is Hook.TURN_END and expires.combatant is not None:
        return ngettext("{count} turn of {name} left", "{count} turns of {name} left", count).format(
            count=count, name=combatant_name(state, expires.combatant))
    return ngettext("{hook}: {count} time left", "{hook}: {count} times left", count).format(
        hook=timing_text(expires, state), count=count)


def reminder_text(effect: Effect, state: Encounter) -> str:
    """When the GM is reminded of it ('' if never)."""
    return timing_text(effect.reminds, state) if effect.reminds is not None else ""


def _mentions(effect: Effect, combatant_ids: frozenset[str]) -> bool:
    """Whether the effect's texts name one of these combatants."""
    named = {effect.target, effect.expires.combatant if effect.expires else None,
             effect.reminds.combatant if effect.reminds else None}
    return bool(named & combatant_ids)


class EffectsModel(EnumTableModel):
    """Every effect of the encounter: name, target, what remains, when it reminds."""

    COLUMNS = Column
    HEADERS = HEADERS

    def __init__(self, document: EncounterDocument) -> None:
        super().__init__()
        self._document = document
        self._ids: list[str] = list(document.state.effects)
        document.changed.connect(self._on_changed)
        document.replaced.connect(self._reset)

    # --- structure -----------------------------------------------------------------------------

    def effect_id(self, row: int) -> str:
        """The id of the effect in ``row``."""
        return self._ids[row]

    # --- data ----------------------------------------------------------------------------------
    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._ids):
            return None
        state = self._document.state
        effect = state.effects.get(self._ids[index.row()])
        if effect is None:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(effect, Column(index.column()), state)
        if role == Qt.ItemDataRole.ToolTipRole:
            tip = self._tooltip(effect)
            return as_written(tip) if tip is not None else None
        if role == Role.EFFECT_ID:
            return effect.id
        if role == Role.TARGET_ID:
            return effect.target
        return None

    def _tooltip(self, effect: Effect) -> str | None:
        """The game meaning (what the attack dialog reads from the effect) and the note, one per line."""
        lines = []
        meaning = meaning_label(self._document.system, effect.meaning)
        if meaning:
            lines.append(_("Game meaning: {meaning}").format(meaning=meaning))
        if effect.note:  # a game's own note is stored in English; the GM's text passes as is
            lines.append(_(effect.note))
        return "\n".join(lines) or None

    @staticmethod
    def _text(effect: Effect, column: Column, state: Encounter) -> str:
        if column is Column.NAME:
            return effect.name
        if column is Column.TARGET:
            return combatant_name(state, effect.target)
        if column is Column.DURATION:
            return duration_text(effect, state)
        return reminder_text(effect, state)

    def roleNames(self) -> dict[int, QByteArray]:
        names = super().roleNames()
        names[Role.EFFECT_ID] = QByteArray(b"effectId")
        names[Role.TARGET_ID] = QByteArray(b"targetId")
        return names

    # --- updates -------------------------------------------------------------------------------
    def _reset(self) -> None:
        self.beginResetModel()
        self._ids = list(self._document.state.effects)
        self.endResetModel()

    def _on_changed(self, change: Change) -> None:
        if change.what.effect_list:  # effects were added or removed: insert and remove just those rows
            self._sync_ids(list(self._document.state.effects))
        changed = change.what.effects
        renamed = change.combatants
        state = self._document.state
        for row, effect_id in enumerate(self._ids):
            if effect_id in changed or _mentions(state.effects[effect_id], renamed):
                self.dataChanged.emit(self.index(row, 0), self.index(row, len(Column) - 1),
                                      [Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole])
