"""The lifecycle every game's attack dialog shares: pick who attacks whom, resolve, show, follow the fight.

:class:`AttackDialog` owns the attacker and target pickers, the button box (Resolve, Next, Close) with Enter
moving from Resolve to Next once an attack is resolved, the status line and the result label. It resolves ONE
operation through the document with itself as the initiator, so that it can tell its own change from everyone
else's without a flag; a refusal (:class:`~rules.errors.RulesError`) is shown in the status line and nothing
changes. It follows the fight: someone else's change (undo, next turn, a panel) starts the next attack with the
fight's new numbers, a new roster refills the pickers, and another fight loaded closes the dialog. It is freed
once closed: every connection it makes is to a bound method, none to a lambda holding it.

A game supplies its form, what the form makes of the fight (odds, dice) and its operation. The smallest
dialog a sixth game writes::

    class ToyAttackDialog(AttackDialog):
        def _build(self, roller: Roller) -> None:
            self.dice = DiceEntry(_("Attack"), roller)
            content = QWidget()
            layout = QVBoxLayout(content)
            layout.addLayout(self._pickers_form())
            layout.addWidget(self.dice)
            layout.addWidget(self.result_label)
            self._lay_out(content)

        def _recompute(self) -> None:  # the odds are worked out and shown here too
            self.dice.set_expression(parse("2d6") if self._target() is not None else None, _("No target."))

        def entries(self) -> tuple[DiceEntry, ...]:
            return (self.dice,)

        def operation(self) -> Operation | None:
            attacker, target = self._attacker(), self._target()
            if attacker is None or target is None or self.problem():
                return None
            return ToyAttack(attacker.id, target.id, self.dice.faces())

Everything else has a default a game may override: who may attack (:meth:`_attackers`) and be attacked
(:meth:`_targets`, :meth:`_default_target`), what they prefill (:meth:`_prefill_attacker`,
:meth:`_prefill_target`, :meth:`_attacker_chosen`), the live part of the form (:meth:`_recompute` for the odds,
:meth:`_follow_dice` for what each die decides, with :meth:`_odds_views` marking the outcome that
:meth:`rolled_outcome` names), what stops Resolve (:meth:`_resolve_problem`), what a resolution adds
(:meth:`_after_resolve`), what a resolved attack locks (:attr:`resolved_form`, :meth:`_set_editable` for the
form, :meth:`_set_dice_editable` for the dice) and what the next attack reads again (:meth:`_clear_for_next`,
:meth:`_catch_up`). A game connects its own inputs in :meth:`_connect` after calling the base, watching them with
``self._edits`` so that one edit recomputes once.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from functools import cached_property
from typing import ClassVar, Protocol

from PySide6.QtCore import QRect, Qt, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QWidget,
)

from app.document import Change, EncounterDocument
from app.i18n import N_, _
from rules.dice import Roller
from rules.encounter import Combatant, Status, Weapon
from rules.errors import RulesError
from rules.history import AttackRecord, Operation
from rules.turns import current_actor
from rules.weapons import ammunition_text, last_attack, preferred_weapon
from ui.widgets.dice_entry import DiceEntry
from ui.widgets.inputs import Recompute, fill_combatants
from ui.widgets.layout import ScrolledContent, size_window
from ui.widgets.messages import show_message, text_label


class Marked(Protocol):
    """An odds view that can mark the outcome rolled: an odds table, an odds chart."""

    def highlight(self, outcome: str | None, /) -> None:
        """Mark ``outcome`` (None: no mark)."""


class ResolvedForm(Enum):
    """What a resolved attack's form lets the GM do until the next attack begins."""

    #: The whole form stays as it was rolled until Next.
    LOCKED = "locked"
    #: The dice stay as rolled (locked); any other edit starts the next attack with fresh dice, as Next does, and
    #: keeps the edit: a second shot at another target or with one more modifier costs no press of Next. Locking
    #: only the dice also repaints only them (greying the whole SR3 form cost about 4 ms of every attack).
    DICE_LOCKED = "dice locked"
    #: Nothing is locked: the GM's next edit, dice included, starts the next attack and keeps what was typed; such
    #: a game gives itself fresh dice in :meth:`AttackDialog._after_resolve`.
    OPEN = "open"


class AttackDialog(QDialog):
    """One game's attacks, resolved one after another with the odds shown before the dice (see the module)."""

    #: The GM asked to add an effect on this combatant now (a critical wound's bleeding): the window opens its
    #: effects form for them once the dialog has closed.
    effect_requested = Signal(str)

    #: The window's title, the Next button's text and the status once resolved (translated when shown).
    title: ClassVar[str] = N_("Attack")
    next_text: ClassVar[str] = N_("Next attack")
    resolved_hint: ClassVar[str] = N_("Enter sets up the next attack; Esc closes.")
    #: What the status line says when nothing stops Resolve ("": nothing).
    ready_hint: ClassVar[str] = ""
    #: The first item of the target picker, standing for no target ("": every attack has a target).
    no_target: ClassVar[str] = ""
    #: What a resolved attack locks until the next attack (see :class:`ResolvedForm`).
    resolved_form: ClassVar[ResolvedForm] = ResolvedForm.LOCKED
    #: The GM's override of a refusal (:meth:`resolve_anyway`): its button's text and tooltip (translated when shown).
    override_text: ClassVar[str] = N_("Resolve anyway, taking no action")
    override_tip: ClassVar[str] = N_("The rules refused this attack (the reason is shown above the buttons). As the "
                                     "GM you may allow it: it is resolved without spending an action.")

    def __init__(self, document: EncounterDocument, roller: Roller, attacker_id: str | None = None,
                 target_id: str | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(_(self.title))
        self._document = document
        self._resolved = False
        self._body: ScrolledContent | None = None
        self._sized = False  # a dialog laid out without _lay_out: sized for its content on first show
        self._roll_on_show = False
        self._edits = Recompute(self._refresh)
        self.attacker = QComboBox()
        self.target = QComboBox()
        self.weapon_picker = QComboBox()  # the attacker's saved weapons: their numbers fill the form (_apply_weapon)
        self.weapon_picker.setAccessibleName(_("Weapon"))
        self.ammunition = QLabel()
        self.status_label = text_label()
        self.buttons = QDialogButtonBox()
        self._build(roller)  # first: a game's own buttons (Roll the rest) come before Resolve
        # The GM's one click past a limit the rules refused (a third shot in a phase): resolved taking no action.
        self.override_button = self.buttons.addButton(_(self.override_text), QDialogButtonBox.ButtonRole.ActionRole)
        self.override_button.setToolTip(_(self.override_tip))
        self.override_button.setVisible(False)
        self.resolve_button = self.buttons.addButton(_("Resolve"), QDialogButtonBox.ButtonRole.ActionRole)
        self.next_button = self.buttons.addButton(_(self.next_text), QDialogButtonBox.ButtonRole.ActionRole)
        self.close_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Close)
        for button in self.findChildren(QPushButton):
            # Only Resolve and Next answer Enter: after a click on Roll the rest, Enter resolves, not rolls again.
            button.setAutoDefault(button in (self.resolve_button, self.next_button))
        with self._edits.quietly():
            self._fill_pickers(attacker_id or current_actor(document.state), target_id)
            self._prefill()
        self._connect()  # after the first fill: nothing reacts to the form being set up
        self._set_resolved(False)
        self._refresh()

    @cached_property
    def result_label(self) -> QLabel:
        """The log lines of the last resolution (made when first asked for: pages with results of their own
        never need it)."""
        return text_label()

    # --- what a game supplies -------------------------------------------------------------------
    def _build(self, roller: Roller) -> None:
        """Make the form and lay the dialog out: the pickers, the form, the result, then :meth:`_lay_out`."""
        raise NotImplementedError

    def operation(self) -> Operation | None:
        """The operation the form stands for, or None while something is missing."""
        raise NotImplementedError

    def entries(self) -> Sequence[DiceEntry]:
        """The dice entries in the order they are rolled."""
        return ()

    def _prefill(self) -> None:
        """Fill in the numbers read from the attacker, its weapon and the target (the GM may change them)."""
        self._prefill_attacker()
        self._apply_weapon(self.chosen_weapon())
        self._prefill_target()

    def _prefill_attacker(self) -> None:
        """Fill in the numbers read from the attacker."""

    def _prefill_target(self) -> None:
        """Fill in the numbers read from the target."""

    def _attacker_chosen(self) -> None:
        """Another attacker was chosen (the targets and weapons are already refilled): read them again."""
        self._prefill_attacker()
        self._apply_weapon(self.chosen_weapon())
        self._prefill_target()

    def _apply_weapon(self, weapon: Weapon | None) -> None:
        """Fill in the form's weapon part from ``weapon``'s values (None: typed by hand, nothing to fill)."""

    def _target_chosen(self) -> None:
        """Another target was chosen: read its numbers."""
        self._prefill_target()

    def _recompute(self) -> None:
        """Work the form out again: the odds, the dice each entry needs."""

    def _follow_dice(self) -> None:
        """The dice entered so far decide what follows (the next roll needed, or none)."""

    def _odds_views(self) -> Sequence[Marked]:
        """The odds table and chart that mark the outcome rolled."""
        return ()

    def rolled_outcome(self, operation: Operation) -> str | None:
        """The odds row ``operation``'s dice landed on, read before it changes the fight (None: no mark)."""
        return None

    def _after_resolve(self, operation: Operation, change: Change) -> None:
        """What a game shows once ``operation`` is applied, beyond its log lines."""

    def _set_editable(self, editable: bool) -> None:
        """Let the GM change the form, or not (a resolved attack's locked form shows what was rolled)."""
        for widget in (self.attacker, self.target, self.weapon_picker):
            widget.setEnabled(editable)

    def _set_dice_editable(self, editable: bool) -> None:
        """Let the GM roll or type the dice, or not (a resolved attack's dice stay as rolled until the next)."""
        for entry in self.entries():
            entry.setEnabled(editable)

    def _form_locked(self) -> bool:
        """Whether the form (not only its dice) shows a resolved attack that Next must clear first."""
        return self._resolved and self.resolved_form is ResolvedForm.LOCKED

    def _dice_locked(self) -> bool:
        """Whether the dice show a resolved attack's roll (Resolve waits for the next attack)."""
        return self._resolved and self.resolved_form is not ResolvedForm.OPEN

    def _clear_for_next(self) -> None:
        """Forget the last resolution: its mark, and where the dice were locked, the dice and its log lines."""
        self._mark(None)
        if self.resolved_form is not ResolvedForm.OPEN:  # an open form already holds the next attack's dice
            for entry in self.entries():
                entry.clear()
            self.result_label.clear()

    def _catch_up(self, change: Change | None) -> None:
        """Read the fight again for the next attack: after Next (``change`` None) or someone else's change."""

    # --- layout helpers -------------------------------------------------------------------------
    def _pickers_form(self) -> QFormLayout:
        """A form with the attacker, weapon and target rows, for a game to add its own rows to."""
        form = QFormLayout()
        form.addRow(_("Attacker"), self.attacker)
        if self._document.system.weapon_fields():
            form.addRow(_("Weapon"), self.weapon_row())
        form.addRow(_("Target"), self.target)
        return form

    def weapon_row(self) -> QWidget:
        """The weapon picker with the rounds left beside it, for a game that lays out its own form."""
        row = QWidget()
        layout = QHBoxLayout(row)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.weapon_picker, 1)
        layout.addWidget(self.ammunition)
        return row

    def _lay_out(self, content: QWidget, chrome_height: int = 110, centre: bool = True) -> None:
        """``content`` scrolled on small screens, with the status line and the buttons under it."""
        self._content = content
        self._body = ScrolledContent(self, content, self.status_label, self.buttons, chrome_height=chrome_height,
                                     centre=centre)

    def roll_when_shown(self) -> None:
        """Roll every die the attack needs as soon as the dialog shows (Repeat last attack: Enter resolves)."""
        self._roll_on_show = True

    def showEvent(self, event: QShowEvent) -> None:
        """Size the dialog to its content once Qt has laid it out (earlier, size hints are too small)."""
        super().showEvent(event)
        if self._roll_on_show:
            self._roll_on_show = False
            self.roll_remaining()
        if self._body is not None:
            self._body.shown()
        elif not self._sized:
            self._sized = True
            if not self.testAttribute(Qt.WidgetAttribute.WA_Resized):
                # Qt's own first size is at most ⅔ of the screen: Souboj's dialog opened narrower than it wants.
                self.fit_to()

    def fit_to(self, available: QRect | None = None) -> None:
        """Size the shown dialog for its content within ``available`` (by default, its screen's free area; a
        screenshot passes a laptop's, whatever screen it is taken on)."""
        if self._body is not None:
            self._body.fit(available)
        else:
            size_window(self, self.sizeHint(), available=available)

    # --- the pickers ----------------------------------------------------------------------------
    def _attacker(self) -> Combatant | None:
        return self._document.state.combatants.get(self.attacker.currentData())

    def _target(self) -> Combatant | None:
        return self._document.state.combatants.get(self.target.currentData())

    def _attackers(self, wanted: str | None) -> list[Combatant]:
        """Who may attack: whoever the game lets act, and ``wanted`` whatever its state."""
        state, system = self._document.state, self._document.system
        return [c for c in state.combatants.values() if system.can_act(c, state) or c.id == wanted]

    def _targets(self, attacker: Combatant | None, wanted: str | None) -> list[Combatant]:
        """Who may be attacked: everyone but the attacker and the dead, and ``wanted`` whatever its state."""
        state, system = self._document.state, self._document.system
        return [c for c in state.combatants.values() if (attacker is None or c.id != attacker.id)
                and (system.status(c, state) is not Status.DEAD or c.id == wanted)]

    def _default_target(self, candidates: list[Combatant], attacker: Combatant) -> str | None:
        """The target chosen when none was asked for: the first on another side, else the first."""
        chosen = [c for c in candidates if c.side is not attacker.side] or candidates
        return chosen[0].id if chosen else None

    def _fill_pickers(self, attacker_id: str | None, target_id: str | None) -> None:
        fill_combatants(self.attacker, self._attackers(attacker_id), attacker_id, silently=True)
        record = self._last_attack()
        self._fill_targets(target_id or (record.target_id if record is not None else None))
        self._fill_weapons(record.weapon if record is not None else None)

    def _last_attack(self) -> AttackRecord | None:
        """The chosen attacker's latest attack in the history (None: none yet, or no attacker)."""
        attacker = self._attacker()
        return last_attack(self._document.history.entries, attacker.id) if attacker is not None else None

    def _fill_weapons(self, wanted: str | None, keep_typed: bool = False) -> None:
        """Offer the attacker's weapons, choosing ``wanted`` (the one used last), else the first; ``keep_typed``:
        ``wanted`` "" is the GM's "Typed in the form", which stays chosen."""
        attacker = self._attacker()
        weapons = attacker.weapons if attacker is not None else ()
        system = self._document.system
        was_blocked = self.weapon_picker.blockSignals(True)
        self.weapon_picker.clear()
        for weapon in weapons:
            self.weapon_picker.addItem(system.describe_weapon(weapon), weapon.name)
        self.weapon_picker.addItem(_("Typed in the form"), "")
        chosen = preferred_weapon(attacker, AttackRecord(attacker.id, None, wanted or "")) if attacker else None
        if keep_typed and wanted == "":
            chosen = None  # the form holds what the GM typed: a saved weapon chosen now would fire its rounds
        index = self.weapon_picker.findData(chosen.name if chosen is not None else "")
        self.weapon_picker.setCurrentIndex(max(0, index))
        self.weapon_picker.blockSignals(was_blocked)
        self._show_ammunition()

    def chosen_weapon(self) -> Weapon | None:
        """The saved weapon chosen, as the fight has it now (None: the GM types the weapon's numbers)."""
        attacker = self._attacker()
        name = self.weapon_picker.currentData()
        return attacker.weapon(name) if attacker is not None and name else None

    def weapon_name(self) -> str:
        """The chosen weapon's name for the operation ("" when typed in the form): its rounds are counted down."""
        weapon = self.chosen_weapon()
        return weapon.name if weapon is not None else ""

    def _show_ammunition(self) -> None:
        weapon = self.chosen_weapon()
        self.ammunition.setText(ammunition_text(weapon) if weapon is not None else "")

    def _fill_targets(self, wanted: str | None) -> None:
        attacker = self._attacker()
        candidates = self._targets(attacker, wanted)
        if wanted not in {c.id for c in candidates} and attacker is not None:
            wanted = self._default_target(candidates, attacker)
        fill_combatants(self.target, candidates, wanted, silently=True,
                        none=_(self.no_target) if self.no_target else "")

    # --- reacting to the GM ---------------------------------------------------------------------
    def _connect(self) -> None:
        """Wire the pickers, the dice, the buttons and the fight (a game connects its form after this)."""
        self.attacker.currentIndexChanged.connect(self._on_attacker)
        self.target.currentIndexChanged.connect(self._on_target)
        self.weapon_picker.currentIndexChanged.connect(self._on_weapon)
        for entry in self.entries():
            entry.changed.connect(self._on_dice)
        self.resolve_button.clicked.connect(self.resolve)
        self.override_button.clicked.connect(self.resolve_anyway)
        self.next_button.clicked.connect(self.next_attack)
        self.close_button.clicked.connect(self.reject)
        self._document.changed.connect(self._on_document_changed)
        self._document.replaced.connect(self.reject)  # another fight was loaded: this attack is moot

    def _on_attacker(self) -> None:
        if self._edits.quiet:
            return
        with self._edits.quietly():
            self._fill_targets(self.target.currentData())
            record = self._last_attack()
            self._fill_weapons(record.weapon if record is not None else None)
            self._attacker_chosen()
        self._refresh()

    def _on_weapon(self) -> None:
        if self._edits.quiet:
            return
        with self._edits.quietly():
            self._show_ammunition()
            self._apply_weapon(self.chosen_weapon())
        self._refresh()

    def _on_target(self) -> None:
        if self._edits.quiet:
            return
        with self._edits.quietly():
            self._target_chosen()
        self._refresh()

    def _on_dice(self) -> None:
        if self._edits.quiet:
            return
        if self._resolved and self.resolved_form is ResolvedForm.OPEN:
            self._start_next(None)  # new dice in an open form: the next attack has begun
            return
        with self._edits.quietly():
            self._follow_dice()
        self._update_resolve()

    def _on_document_changed(self, change: Change) -> None:
        if change.made_by(self):
            return  # our own attack: its result stays on screen until the next one
        # Someone else changed the fight (undo, next turn, a panel): a shown result may no longer stand.
        self._start_next(change)

    # --- the live form --------------------------------------------------------------------------
    def _refresh(self) -> None:
        """Recompute the form, then what Resolve may do; an edit to a resolved form that is not locked (all of an
        open one, all but the dice of one whose dice are locked) starts the next attack."""
        if self._resolved and self.resolved_form is not ResolvedForm.LOCKED:
            self._start_next(None)
            return
        self._recompute()
        with self._edits.quietly():
            self._follow_dice()
        self.override_button.setVisible(False)  # any edit: the refusal it answered may no longer stand
        self._update_resolve()

    def problem(self) -> str:
        """What stops Resolve now ("" when the attack can be resolved)."""
        return self._resolve_problem()[0]

    def _resolve_problem(self) -> tuple[str, bool]:
        """What stops Resolve now, and whether it is an error (or only the dice still to come)."""
        if self._attacker() is None or self._target() is None:
            return _("Choose an attacker and a target."), True
        if not all(entry.is_complete() for entry in self.entries()):
            return _("Roll or type the dice, then press Enter to resolve."), False
        return "", False

    def _update_resolve(self) -> None:
        problem, is_error = self._resolve_problem()
        self.resolve_button.setEnabled(not problem and not self._dice_locked())
        # Enter resolves while the dice are being entered, and sets up the next attack once resolved.
        self.resolve_button.setDefault(not self._resolved)
        self.next_button.setDefault(self._resolved)
        if self._resolved:
            show_message(self.status_label, _(self.resolved_hint), error=False)
        else:
            show_message(self.status_label, problem or (_(self.ready_hint) if self.ready_hint else ""),
                         error=is_error)

    def roll_remaining(self) -> None:
        """Roll every entry still missing, in order (each result decides whether the next is needed)."""
        for entry in self.entries():
            if entry.isEnabled() and entry.expression() is not None and not entry.is_complete():
                entry.roll()

    # --- resolving ------------------------------------------------------------------------------
    def resolve(self) -> None:
        """Apply the form's operation through the document; a refusal is shown here and nothing changes."""
        if self._dice_locked():
            return  # already applied: Next (or an edit) sets up another attack
        operation = self.operation()
        if operation is None:
            self._refresh()  # say what is missing
            return
        outcome = self.rolled_outcome(operation)
        try:
            change = self._document.apply(operation, initiator=self)
        except RulesError as problem:
            show_message(self.status_label, str(problem))
            self.override_button.setVisible(self._allowed_without_action())
            return
        self.override_button.setVisible(False)
        self._show_result(change.entry.text())
        self._show_ammunition()  # the rounds this attack fired
        self._after_resolve(operation, change)
        self._set_resolved(True)
        self._mark(outcome)

    def _action_box(self) -> QCheckBox | None:
        """The box that makes the attack take the attacker's action, if the game has one (SR3, Walka)."""
        return None

    def _allowed_without_action(self) -> bool:
        """Whether the refused attack would go through taking no action (a limit of the phase or round refused it,
        not the dice or the target): tried on the fight without changing it."""
        box = self._action_box()
        if box is None or not box.isChecked():
            return False
        with self._edits.quietly():
            box.setChecked(False)
            operation = self.operation()
            box.setChecked(True)
        return self._document.accepts(operation)

    def resolve_anyway(self) -> None:
        """The GM's override of a refused limit: untick "takes an action" (the form shows what is applied), resolve."""
        box = self._action_box()
        if box is None:
            return
        with self._edits.quietly():
            box.setChecked(False)
        self.resolve()

    def _show_result(self, text: str) -> None:
        self.result_label.setText(text)

    def _mark(self, outcome: str | None) -> None:
        """Mark the outcome rolled (None: none) in the odds table and the chart alike."""
        for view in self._odds_views():
            view.highlight(outcome)

    def _set_resolved(self, resolved: bool) -> None:
        self._resolved = resolved
        self._set_editable(not self._form_locked())
        self._set_dice_editable(not self._dice_locked())
        self.next_button.setEnabled(resolved)
        self._update_resolve()

    def next_attack(self) -> None:
        """Set up the next attack once one is resolved: fresh dice, the fight's numbers read again."""
        if self._resolved:
            self._start_next(None)

    def _start_next(self, change: Change | None) -> None:
        with self._edits.quietly():
            if self._resolved:
                self._clear_for_next()
            if change is not None and change.roster_changed:
                self._fill_pickers(self.attacker.currentData(), self.target.currentData())
            # the rounds left, a weapon edited in the panel; what the GM typed stays typed
            self._fill_weapons(self.weapon_picker.currentData(), keep_typed=True)
            self._catch_up(change)
        self._set_resolved(False)
        self._refresh()
