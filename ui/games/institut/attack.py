"""Institute attacks: shooting, melee, grenades, explosions and suppression fire, with the odds before the dice.

Four pages (:mod:`ui.games.institut.pages`) share the attacker and target at the top. Each page turns its
form into the rules' values (:class:`~rules.systems.institut.combat.Shot`, pools built by :func:`attack_pool`,
:func:`damage_pool`…), shows how every pool was built and the exact odds (:mod:`rules.systems.institut.odds`) as
the GM types, takes the dice rolled by the app or typed in, and on Resolve applies ONE operation through the
document. A refused operation is shown in the status line; nothing raises.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from PySide6.QtWidgets import QDialogButtonBox, QGridLayout, QLabel, QTabWidget, QVBoxLayout, QWidget

from app.document import Change
from app.i18n import N_, _
from rules.dice import Roller
from rules.encounter import SlotKind, Weapon
from rules.errors import RulesError
from rules.history import Operation
from rules.systems.institut.system import tables
from rules.systems.institut.tables import InstitutTables, load_tables
from ui.dialogs.attack_dialog import AttackDialog, Marked, ResolvedForm
from ui.games.institut.pages.check import CheckPage
from ui.games.institut.pages.grenade import BlastPage, GrenadePage
from ui.games.institut.pages.page import Context, Page
from ui.games.institut.pages.shooting import AttackPage
from ui.games.institut.pages.suppression import SuppressionPage

# --- the dialog --------------------------------------------------------------------------------------------


class InstitutAttackDialog(AttackDialog):
    """Resolve Institute attacks one after another, with the odds shown before the dice.

    The page shown supplies the form, the odds and the operation. After a resolution the page stays open with
    fresh dice: the GM's next edit starts the next attack.
    """

    resolved_hint = N_("Done. Enter new dice for the next one, or close.")
    ready_hint = N_("Press Resolve (Enter) to apply.")
    resolved_form = ResolvedForm.OPEN
    override_text = N_("Resolve anyway (GM's override)")
    override_tip = N_("The rules refuse this (the reason is shown above the buttons). As the GM you may allow it "
                      "all the same: the log notes your override.")

    # --- construction ---------------------------------------------------------------------------
    def _build(self, roller: Roller) -> None:
        self._data = self._load_tables()
        self.attack = AttackPage(roller, self._data)
        self.grenade = GrenadePage(roller, self._data)
        self.blast = BlastPage(roller)
        self.suppression = SuppressionPage(roller)
        self.check = CheckPage(roller)
        self.tabs = QTabWidget()
        for page, title in ((self.attack, _("Shoot or strike")), (self.grenade, _("Grenade")),
                            (self.blast, _("Explosion")), (self.suppression, _("Suppression fire")),
                            (self.check, _("Skill check"))):
            self.tabs.addTab(page, title)
        if self._current_timer():
            self.tabs.setCurrentWidget(self.blast)  # a timed grenade goes off now
        self.roll_button = self.buttons.addButton(_("Roll the rest"), QDialogButtonBox.ButtonRole.ActionRole)
        self.roll_button.setToolTip(_("Roll every roll still missing, in order."))
        self.roll_button.setAutoDefault(False)
        self._build_layout()

    def _load_tables(self) -> InstitutTables:
        try:
            return tables(self._document.state)
        except RulesError:  # a bad override must not lock the GM out: the bundled tables still work
            return load_tables()

    def _build_layout(self) -> None:
        who = QGridLayout()
        self.attacker_label = QLabel(_("Attacker"))
        for column, (label, widget) in enumerate(((self.attacker_label, self.attacker),
                                                  (QLabel(_("Weapon")), self.weapon_row()),
                                                  (QLabel(_("Target")), self.target))):
            who.addWidget(label, 0, 2 * column)
            who.addWidget(widget, 0, 2 * column + 1)
            who.setColumnStretch(2 * column + 1, 1)
        content = QWidget()
        layout = QVBoxLayout(content)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(who)
        layout.addWidget(self.tabs, 1)
        self._lay_out(content)

    def _connect(self) -> None:
        super()._connect()
        for page in self.pages():
            page.changed.connect(self._refresh)
            page.weapon_typed.connect(self._on_weapon_typed)
        self.tabs.currentChanged.connect(self._on_tab)
        self.roll_button.clicked.connect(self.roll_remaining)

    def pages(self) -> tuple[Page, ...]:
        """Every page, in tab order."""
        return (self.attack, self.grenade, self.blast, self.suppression, self.check)

    def page(self) -> Page:
        """The page shown."""
        current = self.tabs.currentWidget()
        assert isinstance(current, Page)
        return current

    def _odds_views(self) -> tuple[Marked, ...]:
        page = self.page()
        return (page.odds, page.chart)

    # --- combatants -----------------------------------------------------------------------------
    def _current_timer(self) -> bool:
        slot = self._document.state.clock.current
        return slot is not None and slot.kind is SlotKind.TIMER

    def context(self) -> Context:
        """The fight as the pages read it now."""
        state = self._document.state
        return Context(state, self._document.system, self._data, self._attacker(), self._target(),
                       self.chosen_weapon())

    def _prefill(self) -> None:
        self._prefill_pages()
        self._apply_weapon(self.chosen_weapon())

    def _prefill_pages(self) -> None:
        context = self.context()  # each page reads the attacker and the target together
        for page in self.pages():
            page.prefill(context)

    def _attacker_chosen(self) -> None:
        self._prefill()

    def _target_chosen(self) -> None:
        self._prefill_pages()  # the weapon's inputs stay as the GM left them

    def _apply_weapon(self, weapon: Weapon | None) -> None:
        """Every page that attacks with such a weapon takes its numbers; a grenade is thrown on the Grenade page
        and anything else on the first, so the page shown follows the weapon picked (None: the form as typed)."""
        if weapon is None:
            return
        context = self.context()
        for page in self.pages():
            page.apply_weapon(weapon, context)
        shown = self.page()
        if shown in (self.attack, self.grenade) and not shown.fits(weapon):
            self.tabs.setCurrentWidget(self.grenade if self.grenade.fits(weapon) else self.attack)

    def _on_weapon_typed(self) -> None:
        """The GM took a weapon from the GM's list: the attack is no longer made with the saved weapon."""
        index = self.weapon_picker.findData("")
        if index != self.weapon_picker.currentIndex():
            was_blocked = self.weapon_picker.blockSignals(True)
            self.weapon_picker.setCurrentIndex(index)
            self.weapon_picker.blockSignals(was_blocked)
            self._show_ammunition()

    def _set_editable(self, editable: bool) -> None:
        page = self.page()  # a page that needs no attacker (or target) leaves its picker alone
        self.attacker.setEnabled(editable and page.uses_attacker)
        self.weapon_picker.setEnabled(editable and page.uses_attacker and page.uses_weapon)
        self.target.setEnabled(editable and page.uses_target)

    # --- reacting -------------------------------------------------------------------------------
    def _on_tab(self) -> None:
        # A skill check is rolled by anyone, not only an attacker.
        self.attacker_label.setText(_("Who rolls") if self.page() is self.check else _("Attacker"))
        self._set_editable(True)
        self._refresh()

    def _catch_up(self, change: Change | None) -> None:
        if change is None:
            return
        if change.what.options & {"pyramid", "called_shots", "modifiers", "weapons"}:
            self._data = self._load_tables()
            self.attack.set_tables(self._data)
            self.grenade.set_tables(self._data)
        if change.roster_changed:
            self._prefill()

    def _recompute(self) -> None:
        page = self.page()
        page.refresh(self.context())
        self.roll_button.setEnabled(page.can_roll())

    def _resolve_problem(self) -> tuple[str, bool]:
        return self.page().problem(self.context())

    # --- rolling and resolving ------------------------------------------------------------------
    def roll_remaining(self) -> None:
        """Roll every roll still missing on the page shown, in order."""
        page = self.page()
        for _step in range(4):  # each roll may make the next one needed (the damage after a hit)
            page.roll_missing()
            page.refresh(self.context())
        self._refresh()

    def operation(self) -> Operation | None:
        """The operation Resolve would apply now."""
        return self.page().operation(self.context())

    def rolled_outcome(self, operation: Operation) -> str | None:
        return self.page().outcome(operation, self.context())

    def _allowed_without_action(self) -> bool:
        """Whether the page shown would resolve the refused operation with the GM's override: tried on the fight
        without changing it."""
        page = self.page()
        if not page.offers_override:
            return False
        with self._overriding(page):
            operation = self.operation()
        return self._document.accepts(operation)

    def resolve_anyway(self) -> None:
        """The GM's override of the refusal shown: resolved past the rule, which the log notes."""
        with self._overriding(self.page()):
            self.resolve()

    @staticmethod
    @contextmanager
    def _overriding(page: Page) -> Iterator[None]:
        page.gm_override = True
        try:
            yield
        finally:
            page.gm_override = False

    def _show_result(self, text: str) -> None:
        self.page().result.setText(text)

    def _after_resolve(self, operation: Operation, change: Change) -> None:
        """Fresh dice for the next attack; the odds stay as they were for this roll until the GM starts it."""
        page = self.page()
        rows, chart = page.odds.outcomes(), page.chart.data()  # still this roll's: our own change is not followed
        page.clear_dice()
        self._show_ammunition()  # the rounds this attack fired
        self._refresh()
        page.show_odds(rows, chart)
