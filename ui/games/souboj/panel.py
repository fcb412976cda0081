"""Souboj's sections of the combatant details panel: this round (declared action, act after, reaction,
initiative modifiers), hit points (shadow damage, dying countdown, death) and the whole fight (surprise round,
time after the fight). Every control builds one operation and hands it to the panel's ``apply``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.i18n import N_, _, ngettext
from rules.combatants import SetOption
from rules.encounter import Combatant, Effect, Encounter, SlotKind, Status, Timing
from rules.history import Operation
from rules.systems.base import Hook, RuleSystem
from rules.systems.souboj import (
    ActAfter,
    AddInitiativeEffect,
    Declare,
    DropReaction,
    GrantAction,
    HoldReaction,
    JudgeLastAction,
    MarkDead,
    SetDyingCountdown,
    TimePasses,
    UseReaction,
    condition,
    order,
)
from rules.systems.souboj.model import (
    ACTION_LABELS,
    PLACEMENT_LABELS,
    Action,
    Placement,
    Reaction,
    act_after,
    declared_now,
    dying_rounds,
    gave_up_now,
    last_action,
    last_action_taken,
    marked_dead,
    reaction,
    reactions,
)
from rules.systems.souboj.ops import ReactionTiming
from rules.systems.souboj.round_one import (
    ATTACKERS_ONLY,
    NO_SURPRISE,
    REACTIONS_ONLY,
    READIER_FIRST,
    SURPRISE,
    SURPRISE_ATTACKERS,
)
from rules.systems.souboj.shadow import CLOCK_LABELS, SHADOW_CLOCK, ShadowClock, shadow_clock
from ui.games.base import SectionFactory
from ui.widgets.effects_list import next_effect_id
from ui.widgets.inputs import signed

Apply = Callable[[Operation], bool]
NOT_DECLARED: Final = ""
#: The shadow clocks, short for the narrow dock (the settings form names them in full).
CLOCK_SHORT_LABELS: Final[dict[ShadowClock, str]] = {
    ShadowClock.PER_WOUND: N_("each wound on its own"),
    ShadowClock.PER_CREATURE: N_("from the first shadow wound"),
    ShadowClock.FIGHT_END: N_("from the end of the fight"),
}
TIMING_LABELS: Final[dict[ReactionTiming, str]] = {
    ReactionTiming.TOGETHER: N_("together with the action"),
    ReactionTiming.AFTER: N_("after the action"),
    ReactionTiming.AFTER_INSTANT: N_("after an instant action"),
}


def _combo(items: list[tuple[str, str]]) -> QComboBox:
    combo = QComboBox()
    combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    combo.setMinimumContentsLength(10)  # long names must not widen the dock
    for text, data in items:
        combo.addItem(text, data)
    return combo


def _select(combo: QComboBox, data: str | None) -> None:
    """Show ``data`` without emitting a change (the state, not the GM, moved it)."""
    combo.blockSignals(True)
    combo.setCurrentIndex(max(0, combo.findData(data)))
    combo.blockSignals(False)


def _row(*widgets: QWidget, stretch_first: bool = True) -> QWidget:
    """Widgets side by side; the first takes the spare room (or, without ``stretch_first``, nobody does)."""
    holder = QWidget()
    layout = QHBoxLayout(holder)
    layout.setContentsMargins(0, 0, 0, 0)
    for index, widget in enumerate(widgets):
        layout.addWidget(widget, 1 if index == 0 and stretch_first else 0)
    if not stretch_first:
        layout.addStretch(1)
    return holder


def _signed(value: int) -> str:
    return f"−{-value}" if value < 0 else str(value)


# --- this round ---------------------------------------------------------------------------------------------


class RoundSection(QGroupBox):
    """What the combatant does this round: its declared action, whom it acts after, a held reaction."""

    def __init__(self, apply: Apply) -> None:
        super().__init__(_("This round"))
        self._apply = apply
        self._id = ""
        self._effect_id = "e1"  # the next free effect id, as of the last refresh
        self.action = _combo([(_("not declared"), NOT_DECLARED),
                              *((_(label), action.value) for action, label in ACTION_LABELS.items())])
        self.action.setToolTip(_("The creature's first action this round. Within a simultaneous group: whoever has "
                                 "magic as its first action, then firearm, missile and thrown attacks, then face to "
                                 "face; a non-combat action where you place it; undeclared after face to face."))
        self.placement = _combo([(_(label), placement.value) for placement, label in PLACEMENT_LABELS.items()])
        self.placement.setToolTip(_("Where the GM resolves the non-combat action inside its group."))
        self.after = _combo([])
        self.after.setToolTip(_("Act after another combatant with the same score (still at that score)."))
        self.reaction_label = QLabel()
        self.reaction_label.setWordWrap(True)
        self.carries = QCheckBox(_("carries over"))
        self.carries.setToolTip(_("Only some reactions carry over to the next round."))
        self.hold = QPushButton(_("Hold a reaction"))
        self.hold.setToolTip(_("Give up this round's initiative in favour of a reaction."))
        self.drop = QPushButton(_("Let it go"))
        self.which = _combo([])
        self.which.setToolTip(_("Which of the reactions held (a creature may hold as many as it wants)."))
        self.against = _combo([])
        self.timing = _combo([(_(label), timing.value) for timing, label in TIMING_LABELS.items()])
        self.timing.setToolTip(_("Usually at the same time as the action answered; the GM may have them one after "
                                 "the other. An instant action (a blink) is never interrupted: the reaction comes "
                                 "after it."))
        self.react = QPushButton(_("React"))
        self.modifier = QSpinBox(minimum=-20, maximum=20, value=1)
        self.modifier.setToolTip(_("Added to the initiative rolls while the effect lasts."))
        self.modifier_rounds = QSpinBox(minimum=1, maximum=99, value=1)
        self.modifier_rounds.setSuffix(_(" rd"))
        self.modifier_rounds.setToolTip(_("For how many rounds (an effect that ends at the end of the round)."))
        self.add_modifier = QPushButton(_("Add"))
        # The GM's override of the actions per round (souboj.md Decision: per-creature data), one click each.
        self.grant_major = QPushButton(_("+1 action"))
        self.grant_major.setToolTip(_("The GM grants one more major action this round, beyond the creature's "
                                      "number."))
        self.grant_minor = QPushButton(_("+1 minor"))
        self.grant_minor.setToolTip(_("The GM grants one more minor action this round, beyond the creature's "
                                      "number."))
        self._build()
        self._connect()

    def _build(self) -> None:
        form = QFormLayout(self)
        form.addRow(_("First action"), self.action)
        form.addRow(_("Placed"), self.placement)
        form.addRow(_("Act after"), self.after)
        form.addRow(self.reaction_label)
        self.hold_row = _row(self.hold, self.carries, stretch_first=False)
        self.drop_row = _row(self.which, self.drop)
        self.react_row = _row(self.against, self.react)
        form.addRow(self.hold_row)
        form.addRow(self.drop_row)
        form.addRow(_("Against"), self.react_row)
        form.addRow(_("Resolved"), self.timing)
        form.addRow(_("Initiative ±"), _row(self.modifier, self.modifier_rounds, self.add_modifier))
        self.grant_row = _row(self.grant_major, self.grant_minor, stretch_first=False)
        form.addRow(_("GM grants"), self.grant_row)
        self._form = form

    def _connect(self) -> None:
        self.action.activated.connect(lambda _index: self._declare())
        self.placement.activated.connect(lambda _index: self._declare())
        self.after.activated.connect(lambda _index: self._apply(ActAfter(self._id, self.after.currentData() or None)))
        self.hold.clicked.connect(lambda: self._apply(HoldReaction(self._id, self.carries.isChecked())))
        self.react.clicked.connect(lambda: self._apply(UseReaction(self._id, str(self.against.currentData()),
                                                                   self._chosen_reaction(),
                                                                   str(self.timing.currentData()))))
        self.drop.clicked.connect(lambda: self._apply(DropReaction(self._id, self._chosen_reaction())))
        self.add_modifier.clicked.connect(self._add_modifier)
        self.grant_major.clicked.connect(lambda: self._apply(GrantAction(self._id, "action")))
        self.grant_minor.clicked.connect(lambda: self._apply(GrantAction(self._id, "minor")))

    def _declare(self) -> None:
        chosen = self.action.currentData()
        action = Action(chosen) if chosen else None
        self._apply(Declare(self._id, action, Placement(self.placement.currentData())))

    def _add_modifier(self) -> None:
        value = self.modifier.value()
        name = _("Initiative {modifier}").format(modifier=signed(value))
        effect = Effect(self._effect_id, name, target=self._id, expires=Timing(Hook.ROUND_END.value),
                        remaining=self.modifier_rounds.value())
        self._apply(AddInitiativeEffect(effect, value))

    def refresh(self, combatant: Combatant, state: Encounter, system: RuleSystem) -> None:
        """Show this round's choices of ``combatant``."""
        self._id = combatant.id
        self._effect_id = next_effect_id(state)
        running = state.clock.pass_no > 0
        waiting = running and combatant.id not in state.clock.acted and order.takes_part(combatant, state,
                                                                                          system.can_act)
        declared = declared_now(combatant, state)
        _select(self.action, declared.action.value if declared else NOT_DECLARED)
        _select(self.placement, declared.placement.value if declared else Placement.LAST.value)
        self._form.setRowVisible(self.placement, declared is not None and declared.action is Action.NONCOMBAT)
        self._fill_after(combatant, state, system)
        for widget in (self.action, self.placement, self.after):
            widget.setEnabled(waiting)
        self._form.setRowVisible(self.grant_row, running)
        self._show_reaction(combatant, state, system, waiting)

    def _fill_after(self, combatant: Combatant, state: Encounter, system: RuleSystem) -> None:
        score = order.score(combatant)
        mates = [c for c in state.combatants.values() if c.id != combatant.id and score is not None
                 and order.same_group(c, combatant, state) and c.id not in state.clock.acted
                 and order.takes_part(c, state, system.can_act)]
        self.after.blockSignals(True)
        self.after.clear()
        self.after.addItem(_("usual place in the group"), "")
        for mate in mates:
            self.after.addItem(mate.name, mate.id)
        self.after.blockSignals(False)
        _select(self.after, act_after(combatant, state) or "")
        self._form.setRowVisible(self.after, bool(mates))

    def _chosen_reaction(self) -> int:
        index = self.which.currentData()
        return index if isinstance(index, int) else 0

    def _show_reaction(self, combatant: Combatant, state: Encounter, system: RuleSystem, waiting: bool) -> None:
        held = reactions(combatant)
        targets = _reaction_targets(combatant, state) if held else []
        _refill(self.against, [(state.combatant(target).name, target) for target in targets])
        _refill(self.which, [(_reaction_choice(item, index), index) for index, item in enumerate(held)])
        if held:
            parts = [ngettext("Holds {count} reaction.", "Holds {count} reactions.", len(held)).format(
                count=len(held))] if len(held) > 1 else [_reaction_line(held[0])]
            if not targets:
                parts.append(_("Nobody with a lower score acts now."))
            self.reaction_label.setText(" ".join(parts))
        elif gave_up_now(combatant, state):
            self.reaction_label.setText(_("Gave up this round's initiative."))
        else:
            self.reaction_label.setText(_("Reactions work only against lower scores."))
        # One more may be held while the creature waits for its turn, or once it gave this round's initiative up.
        self.hold.setEnabled((waiting or gave_up_now(combatant, state)) and system.status(combatant, state)
                             is Status.ACTIVE)
        self.hold.setText(_("Hold one more reaction") if held else _("Hold a reaction"))
        self.carries.setEnabled(self.hold.isEnabled())
        self.react.setEnabled(bool(held) and bool(targets))
        self.against.setEnabled(self.react.isEnabled())
        self._form.setRowVisible(self.hold_row, not held or self.hold.isEnabled())
        self._form.setRowVisible(self.drop_row, bool(held))
        self.which.setVisible(len(held) > 1)
        self._form.setRowVisible(self.react_row, bool(held))
        self._form.setRowVisible(self.timing, bool(held))
        self.timing.setEnabled(self.react.isEnabled())


def _reaction_line(held: Reaction) -> str:
    """"Holds a reaction that carries over. If he shoots, I duck"."""
    text = _("Holds a reaction that carries over.") if held.carries_over else _("Holds a reaction.")
    return f"{text} {held.note}" if held.note else text


def _reaction_choice(held: Reaction, index: int) -> str:
    """A held reaction in the picker, its note first (the line is narrow): "if he runs, I trip him (carries over)"."""
    name = held.note or _("Reaction {number}").format(number=index + 1)
    return _("{reaction} (carries over)").format(reaction=name) if held.carries_over else name


def _refill(combo: QComboBox, items: list[tuple[str, object]]) -> None:
    """The combo's items replaced, keeping the one chosen where it is still there, without a signal."""
    chosen = combo.currentData()
    combo.blockSignals(True)
    combo.clear()
    for text, data in items:
        combo.addItem(text, data)
    combo.setCurrentIndex(max(0, combo.findData(chosen)))
    combo.blockSignals(False)


def _reaction_targets(combatant: Combatant, state: Encounter) -> list[str]:
    """Whom a held reaction can answer now: those acting now with a lower score (anyone, after a surprise)."""
    held, current = reaction(combatant), state.clock.current
    if held is None or current is None or current.kind is not SlotKind.ACTORS:
        return []
    own = order.score(combatant)
    acting = [i for i in current.ids if i != combatant.id and i in state.combatants]
    if held.surprise:
        return acting
    return [i for i in acting if own is not None and (theirs := order.score(state.combatant(i))) is not None
            and theirs < own]


# --- hit points ---------------------------------------------------------------------------------------------


class DyingSection(QGroupBox):
    """Unconscious or dying: what that means now, the dying countdown, and the GM's word on death."""

    def __init__(self, apply: Apply) -> None:
        super().__init__(_("Dying and death"))
        self._apply = apply
        self._id = ""
        self.detail_label = QLabel()
        self.detail_label.setWordWrap(True)
        self.countdown = QSpinBox(minimum=1, maximum=999, value=3)
        self.countdown.setSuffix(_(" rd"))
        self.countdown.setToolTip(_("Endurance roll, the kind of wound and your call."))
        self.set_countdown = QPushButton(_("Set"))
        self.death = QPushButton()
        # The Endurance roll for one last action, judged by the GM, once in a dying (souboj.md Decision).
        self.last_granted = QPushButton(_("Endurance made: one last action"))
        self.last_refused = QPushButton(_("Endurance failed"))
        form = QFormLayout(self)
        form.addRow(self.detail_label)
        self.countdown_row = _row(self.countdown, self.set_countdown)
        form.addRow(_("Dies in"), self.countdown_row)
        # One above the other: side by side they needed 380 px in Czech, wider than the details dock.
        self.last_row = QWidget()
        column = QVBoxLayout(self.last_row)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(_row(self.last_granted, stretch_first=False))
        column.addWidget(_row(self.last_refused, stretch_first=False))
        form.addRow(self.last_row)
        form.addRow(_row(self.death, stretch_first=False))
        self._form = form
        self.set_countdown.clicked.connect(
            lambda: self._apply(SetDyingCountdown(self._id, self.countdown.value())))
        self.death.clicked.connect(self._toggle_death)
        self.last_granted.clicked.connect(lambda: self._apply(JudgeLastAction(self._id, True)))
        self.last_refused.clicked.connect(lambda: self._apply(JudgeLastAction(self._id, False)))
        self._dead_mark = False

    def _toggle_death(self) -> None:
        self._apply(MarkDead(self._id, not self._dead_mark))

    def refresh(self, combatant: Combatant, state: Encounter, system: RuleSystem) -> None:
        """Show what the combatant's condition means now and offer what the GM may decide."""
        self._id = combatant.id
        status = system.status(combatant, state)
        details = self._details(combatant, status)
        self.detail_label.setText(details)
        self._form.setRowVisible(self.detail_label, bool(details))
        dying = status is Status.DYING
        self._form.setRowVisible(self.countdown_row, dying)
        self._form.setRowVisible(self.last_row, dying and last_action(combatant) is None)
        left = dying_rounds(combatant)
        if dying and left is not None and not self.countdown.hasFocus():
            self.countdown.setValue(left)
        self._dead_mark = marked_dead(combatant)
        self.death.setText(_("Not dead after all") if self._dead_mark else _("Dies now"))
        self.death.setToolTip(_("The GM's call: a special circumstance, or a death to take back."))
        self.death.setEnabled(self._dead_mark or status is not Status.DEAD)

    @staticmethod
    def _details(combatant: Combatant, status: Status) -> str:
        if status is Status.UNCONSCIOUS:
            return _("Unconscious, not dying: {hp} hit points without the shadow damage.").format(
                hp=_signed(condition.hit_points_without_shadow(combatant)))
        if status is Status.DYING:
            left = dying_rounds(combatant)
            if left is None:
                text = _("Dying. How many rounds does it have? A hit to {limit} hit points kills it.").format(
                    limit=_signed(-condition.max_hp(combatant)))
            else:
                text = ngettext("Dying: {count} round left.", "Dying: {count} rounds left.", left).format(count=left)
            return f"{text} {DyingSection._last_action_text(combatant)}".strip()
        if status is Status.DEAD:
            return _("Dead.")
        return ""

    @staticmethod
    def _last_action_text(combatant: Combatant) -> str:
        judged = last_action(combatant)
        if judged is None:
            return ""
        if judged and last_action_taken(combatant):
            return _("Its one last action is taken: it can do nothing more.")
        return _("Its last action was granted.") if judged else _("No last action: the Endurance roll failed.")


# --- the whole fight -----------------------------------------------------------------------------------------


class FightSection(QGroupBox):
    """The fight as a whole: the surprise round before it starts, time passing after it."""

    def __init__(self, apply: Apply) -> None:
        super().__init__(_("Whole fight"))
        self._apply = apply
        self.surprise = _combo([(_("No surprise round"), NO_SURPRISE),
                                (_("The attackers act first"), READIER_FIRST),
                                (_("Only the attackers get initiative"), ATTACKERS_ONLY),
                                (_("Defenders get only reactions"), REACTIONS_ONLY)])
        self.surprise.setToolTip(_("“In the first round initiative need not be kept”: a preset for round 1. To "
                                   "set one creature's place by hand, type its score in the initiative column."))
        self.attackers = _combo([(_("Opponents attack"), "opponents"), (_("The party attacks"), "party")])
        self.seconds = QSpinBox(minimum=10, maximum=3600, value=60, singleStep=10)
        self.seconds.setSuffix(_(" s"))
        self.seconds.setToolTip(_("Per-round effects tick once per 10 seconds after the fight."))
        self.pass_time = QPushButton(_("Pass"))
        self.shadow_clock = _combo([(_(label), clock.value) for clock, label in CLOCK_SHORT_LABELS.items()])
        self.shadow_clock.setToolTip("\n".join(
            [_("Three quarters of the shadow damage fade after 10 minutes (60 rounds), counted:")]
            + [_(label) for label in CLOCK_LABELS.values()]))
        form = QFormLayout(self)
        form.addRow(_("Round 1"), self.surprise)
        form.addRow("", self.attackers)
        form.addRow(_("Shadow fades"), self.shadow_clock)
        form.addRow(_("Time passes"), _row(self.seconds, self.pass_time))
        self.shadow_clock.activated.connect(
            lambda _i: self._apply(SetOption(SHADOW_CLOCK, self.shadow_clock.currentData())))
        self.surprise.activated.connect(self._choose_surprise)
        self.attackers.activated.connect(
            lambda _i: self._apply(SetOption(SURPRISE_ATTACKERS, self.attackers.currentData())))
        self.pass_time.clicked.connect(lambda: self._apply(TimePasses(self.seconds.value())))
        self.seconds.setAlignment(Qt.AlignmentFlag.AlignRight)

    def _choose_surprise(self) -> None:
        chosen = self.surprise.currentData()
        if self._apply(SetOption(SURPRISE, chosen)):
            self.attackers.setEnabled(chosen != "none")  # the panel refreshes on its combatant's changes only

    def refresh(self, combatant: Combatant, state: Encounter, system: RuleSystem) -> None:
        """The surprise round can be chosen until the fight starts; time passes between rounds."""
        _select(self.surprise, str(state.options.get(SURPRISE, "none")))
        _select(self.attackers, str(state.options.get(SURPRISE_ATTACKERS, "opponents")))
        _select(self.shadow_clock, shadow_clock(state).value)
        before = not state.clock.started
        self.surprise.setEnabled(before)
        self.attackers.setEnabled(before and self.surprise.currentData() != "none")
        between = state.clock.pass_no == 0
        self.seconds.setEnabled(between)
        self.pass_time.setEnabled(between)


#: The sections this game adds to the details panel, top to bottom.
SECTIONS: tuple[SectionFactory, ...] = (RoundSection, DyingSection, FightSection)
