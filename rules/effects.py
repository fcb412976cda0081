"""Effects and conditions with durations that tick on the game's timing hooks.

An effect expires after its ``expires`` timing has fired ``remaining`` times ("3 rounds" = three
round ends; "until the end of X's next turn" = one end of X's turn) and reminds the GM every time its
``reminds`` timing fires (bleeding at the start of each round). The turn engine calls :func:`fire_hook`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from rules.encounter import Effect, Encounter, Timing, with_item, without_item
from rules.errors import OperationError
from rules.history import Applied, LogLine, Operation, require_combatant
from rules.limits import EFFECT_COUNT, PASS, ROUND, SCORE
from rules.systems.base import EffectMeaning, Hook, Reminder, RuleSystem
from rules.text import N_, _


def _matches(timing: Timing | None, hook: Hook, actors: tuple[str, ...]) -> bool:
    if timing is None or timing.hook != hook:
        return False
    return timing.combatant is None or timing.combatant in actors


def _tick(effect: Effect, hook: Hook, actors: tuple[str, ...]) -> tuple[Effect | None, Reminder | None]:
    """The effect after this hook (None if it ended) and a reminder to show, if any."""
    reminder = None
    if _matches(effect.reminds, hook, actors):
        reminder = Reminder(_("Reminder: {effect}").format(effect=effect.name), effect.target)
    if effect.remaining is None or not _matches(effect.expires, hook, actors):
        return effect, reminder
    if effect.remaining <= 1:
        return None, Reminder(_("{effect} ends.").format(effect=effect.name), effect.target)
    return replace(effect, remaining=effect.remaining - 1), reminder


def tick_effects(encounter: Encounter, hook: Hook, actors: tuple[str, ...]) -> Applied:
    """Count ``hook`` down on every effect; drop those that end and collect reminders."""
    effects = encounter.effects
    reminders: list[Reminder] = []
    log: list[LogLine] = []
    for effect in encounter.effects.values():
        ticked, reminder = _tick(effect, hook, actors)
        if reminder is not None:
            reminders.append(reminder)
        if ticked is None:
            effects = without_item(effects, effect.id)
            log.append(LogLine("{effect} ends.", {"effect": effect.name}))
        elif ticked is not effect:
            effects = with_item(effects, effect.id, ticked)
    if effects is encounter.effects:
        return Applied(encounter, (), tuple(reminders))
    return Applied(replace(encounter, effects=effects), tuple(log), tuple(reminders))


def fire_hook(encounter: Encounter, system: RuleSystem, hook: Hook, actors: tuple[str, ...] = ()) -> Applied:
    """Run the game's own bookkeeping for ``hook``, then tick effects. Hooks a game lacks do nothing."""
    if hook not in system.hooks():
        return Applied(encounter)
    game = system.on_hook(encounter, hook, actors)
    ticked = tick_effects(game.encounter, hook, actors)
    return Applied(ticked.encounter, ticked.log, game.reminders + ticked.reminders)


# --- game meanings ------------------------------------------------------------------------------


def _names_in(label: str) -> tuple[frozenset[str], frozenset[str]]:
    """A label's whole names (the label, each of its "/" alternatives) and its single words, casefolded."""
    folded = label.casefold()
    whole = frozenset({folded, *(part.strip() for part in folded.split("/"))})
    return whole, frozenset(word for word in re.split(r"[\s/]+", folded) if word)


def meaning_named(meanings: Sequence[EffectMeaning], name: str) -> str:
    """The key of the meaning a typed effect name asks for ("" if none): "Smoke" or "Kouř" → light smoke.

    The name is compared, case-insensitively, with each label in the GM's language and in English: a whole
    label or one of its "/" alternatives first, then a single word of it; of several, the first meaning wins.
    """
    typed = " ".join(name.split()).casefold()
    if not typed:
        return ""
    names = [(meaning.key, [_names_in(_(meaning.label)), _names_in(meaning.label)]) for meaning in meanings]
    for level in (0, 1):
        for key, labels in names:
            if any(typed in found[level] for found in labels):
                return key
    return ""


def meaning_label(system: RuleSystem, key: str) -> str:
    """The GM's words for one of the game's meanings ("" for none or one the game does not know)."""
    found = next((meaning for meaning in system.effect_meanings() if meaning.key == key), None) if key else None
    return _(found.label) if found is not None else ""


def effects_meaning(encounter: Encounter, combatant_ids: Iterable[str]) -> list[Effect]:
    """Effects with a game meaning that bear on these combatants: encounter-wide ones and theirs, in order."""
    ids = set(combatant_ids)
    return [effect for effect in encounter.effects.values()
            if effect.meaning and (effect.target is None or effect.target in ids)]


def _check_meaning(effect: Effect, system: RuleSystem) -> None:
    if not effect.meaning:
        return
    known = [meaning.key for meaning in system.effect_meanings()]
    if effect.meaning not in known:
        raise OperationError(_("Unknown game meaning {meaning!r} for an effect; known: {known}.").format(
            meaning=effect.meaning, known=", ".join(known) or _("none")))


# --- operations ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class AddEffect(Operation):
    """Put an effect (condition, reminder, timer) on a combatant or on the whole encounter."""

    kind = "add_effect"
    effect: Effect

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        if self.effect.id in encounter.effects:
            raise OperationError(_("An effect with id {id!r} already exists.").format(id=self.effect.id))
        if self.effect.target is not None:
            require_combatant(encounter, self.effect.target)
        if self.effect.remaining is not None and self.effect.remaining < 1:
            raise OperationError(_("An effect must last at least once."))
        if self.effect.remaining is not None and self.effect.remaining > EFFECT_COUNT.high:
            raise OperationError(_("An effect lasts at most {limit} times.").format(limit=EFFECT_COUNT.high))
        _check_due(self.effect)
        _check_meaning(self.effect, system)
        updated = replace(encounter, effects=with_item(encounter.effects, self.effect.id, self.effect))
        lines = (N_("{effect} begins on {target}."), N_("{effect} begins."))
        return Applied(updated, (_effect_line(lines, self.effect, encounter),))


def _check_due(effect: Effect) -> None:
    """A timer's moment within the limits a file may hold (a state past them could never be opened again)."""
    if effect.due is None:
        return
    round_no, pass_no, phase = effect.due
    if not (ROUND.allows(round_no) and PASS.allows(pass_no) and SCORE.allows(phase)):
        raise OperationError(_("{effect} cannot go off in round {round}, pass {pass_no} at {phase}.").format(
            effect=effect.name, round=round_no, pass_no=pass_no, phase=phase))


@dataclass(frozen=True)
class RemoveEffect(Operation):
    """End an effect early (the GM's call)."""

    kind = "remove_effect"
    effect_id: str

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        effect = encounter.effects.get(self.effect_id)
        if effect is None:
            raise OperationError(_("No effect with id {id!r}.").format(id=self.effect_id))
        updated = replace(encounter, effects=without_item(encounter.effects, self.effect_id))
        lines = (N_("{effect} is removed from {target}."), N_("{effect} is removed."))
        return Applied(updated, (_effect_line(lines, effect, encounter),))


def _effect_line(texts: tuple[str, str], effect: Effect, encounter: Encounter) -> LogLine:
    """``texts`` = (sentence naming the target, sentence for an encounter-wide effect)."""
    if effect.target is None:
        return LogLine(texts[1], {"effect": effect.name})
    return LogLine(texts[0], {"effect": effect.name, "target": encounter.combatant(effect.target).name})
