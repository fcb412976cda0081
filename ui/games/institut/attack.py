"""Institute attacks: shooting, melee, grenades, explosions and suppression fire, with the odds before the dice.

Four pages (:mod:`ui.games.institut.pages`) share the attacker and target at the top. Each page turns its
form into the rules' values (:class:`~rules.systems.institut.combat.Shot`, pools built by :func:`attack_pool`,
:func:`damage_pool`…), shows how every pool was built and the exact odds (:mod:`rules.systems.institut.odds`) as
the GM types, takes the dice rolled by the app or typed in, and on Resolve applies ONE operation through the
document. A refused operation is shown in the status line; nothing raises.
"""

from __future__ import annotations

from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QLabel,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.document import Change, EncounterDocument
from app.i18n import _
from rules.dice import Roller
from rules.encounter import SlotKind, Status
from rules.errors import RulesError
from rules.history import Operation
from rules.systems.institut.system import tables
from rules.systems.institut.tables import InstitutTables, load_tables
from rules.turns import current_actor
from ui.games.institut.pages.grenade import BlastPage, GrenadePage
from ui.games.institut.pages.page import Context, Page
from ui.games.institut.pages.shooting import AttackPage
from ui.games.institut.pages.suppression import SuppressionPage
from ui.widgets.inputs import fill_combatants
from ui.widgets.layout import ScrolledContent
from ui.widgets.messages import show_message, text_label

# --- the dialog --------------------------------------------------------------------------------------------


class InstitutAttackDialog(QDialog):
    """Resolve Institute attacks one after another, with the odds shown before the dice."""

    def __init__(self, document: EncounterDocument, roller: Roller, attacker_id: str | None = None,
                 target_id: str | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(_("Attack"))
        self._document = document
        self._roller = roller
        self._applying = False
        self._showing_result = False
        self._data = self._load_tables()
        self.attacker = QComboBox()
        self.target = QComboBox()
        self.attack = AttackPage(roller, self._data)
        self.grenade = GrenadePage(roller)
        self.blast = BlastPage(roller)
        self.suppression = SuppressionPage(roller)
        self.tabs = QTabWidget()
        for page, title in ((self.attack, _("Shoot or strike")), (self.grenade, _("Grenade")),
                            (self.blast, _("Explosion")), (self.suppression, _("Suppression fire"))):
            self.tabs.addTab(page, title)
        self.status_label = text_label()
        self.buttons = QDialogButtonBox()
        self.roll_button = self.buttons.addButton(_("Roll the rest"), QDialogButtonBox.ButtonRole.ActionRole)
        self.roll_button.setToolTip(_("Roll every roll still missing, in order."))
        self.resolve_button = self.buttons.addButton(_("Resolve"), QDialogButtonBox.ButtonRole.ActionRole)
        self.close_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Close)
        for button in (self.roll_button, self.close_button):
            button.setAutoDefault(False)
        self.resolve_button.setDefault(True)
        self._build_layout()
        self._fill(self.attacker, attacker_id or current_actor(document.state), able_only=True)
        self._fill(self.target, target_id, exclude=self.attacker.currentData())
        self._connect()
        self._prefill_all()
        if self._current_timer():
            self.tabs.setCurrentWidget(self.blast)
        self.refresh()

    # --- construction ---------------------------------------------------------------------------
    def _load_tables(self) -> InstitutTables:
        try:
            return tables(self._document.state)
        except RulesError:  # a bad override must not lock the GM out: the bundled tables still work
            return load_tables()

    def _build_layout(self) -> None:
        who = QGridLayout()
        who.addWidget(QLabel(_("Attacker")), 0, 0)
        who.addWidget(self.attacker, 0, 1)
        who.addWidget(QLabel(_("Target")), 0, 2)
        who.addWidget(self.target, 0, 3)
        who.setColumnStretch(1, 1)
        who.setColumnStretch(3, 1)
        content = QWidget()
        layout = QVBoxLayout(content)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(who)
        layout.addWidget(self.tabs, 1)
        self._content = content
        self._body = ScrolledContent(self, content, self.status_label, self.buttons, chrome_height=110)

    def showEvent(self, event: QShowEvent) -> None:
        """Size the dialog to its content once Qt has laid it out, within the screen."""
        super().showEvent(event)
        self._body.shown()

    def _connect(self) -> None:
        for page in self.pages():
            page.changed.connect(self.refresh)
        self.tabs.currentChanged.connect(self._on_tab)
        self.attacker.currentIndexChanged.connect(self._on_attacker)
        self.target.currentIndexChanged.connect(self._on_target)
        self.roll_button.clicked.connect(self.roll_remaining)
        self.resolve_button.clicked.connect(self.resolve)
        self.close_button.clicked.connect(self.reject)
        self._document.changed.connect(self._on_document_changed)
        self._document.replaced.connect(self.reject)

    def pages(self) -> tuple[Page, ...]:
        """Every page, in tab order."""
        return (self.attack, self.grenade, self.blast, self.suppression)

    def page(self) -> Page:
        """The page shown."""
        current = self.tabs.currentWidget()
        assert isinstance(current, Page)
        return current

    # --- combatants -----------------------------------------------------------------------------
    def _current_timer(self) -> bool:
        slot = self._document.state.clock.current
        return slot is not None and slot.kind is SlotKind.TIMER

    def _fill(self, combo: QComboBox, wanted: str | None, able_only: bool = False, exclude: str | None = None) -> None:
        state, system = self._document.state, self._document.system
        people = [c for c in state.combatants.values()
                  if c.id != exclude and (c.id == wanted or (system.can_act(c, state) if able_only
                                                             else system.status(c, state) is not Status.DEAD))]
        if wanted not in {c.id for c in people}:
            attacker = state.combatants.get(exclude or "")
            foes = [c for c in people if attacker is not None and c.side is not attacker.side]
            wanted = (foes or people)[0].id if people else None
        fill_combatants(combo, people, wanted, silently=True)

    def context(self) -> Context:
        """The fight as the pages read it now."""
        state = self._document.state
        return Context(state, self._document.system, self._data, state.combatants.get(self.attacker.currentData()),
                       state.combatants.get(self.target.currentData()))

    def _prefill_all(self) -> None:
        context = self.context()
        for page in self.pages():
            page.prefill(context)

    # --- reacting -------------------------------------------------------------------------------
    def _on_tab(self) -> None:
        page = self.page()
        self.attacker.setEnabled(page.uses_attacker)
        self.target.setEnabled(page.uses_target or isinstance(page, SuppressionPage))
        self.refresh()

    def _on_attacker(self) -> None:
        self._fill(self.target, self.target.currentData(), exclude=self.attacker.currentData())
        self._prefill_all()
        self.refresh()

    def _on_target(self) -> None:
        self._prefill_all()
        self.refresh()

    def _on_document_changed(self, change: Change) -> None:
        if self._applying:
            return
        if change.what.options & {"pyramid", "called_shots", "modifiers", "weapons"}:
            self._data = self._load_tables()
            self.attack.set_tables(self._data)
        if change.roster_changed:
            self._fill(self.attacker, self.attacker.currentData(), able_only=True)
            self._fill(self.target, self.target.currentData(), exclude=self.attacker.currentData())
            self._prefill_all()
        self.refresh()

    def refresh(self) -> None:
        """Recompute the page shown and what Resolve may do (a shown result's mark goes: a new roll begins)."""
        page = self.page()
        if self._showing_result:
            self._showing_result = False
            page.mark(None)
        page.refresh(self.context())
        problem, is_error = page.problem(self.context())
        self.resolve_button.setEnabled(not problem)
        self.roll_button.setEnabled(page.can_roll())
        show_message(self.status_label, problem or _("Press Resolve (Enter) to apply."), error=is_error)

    def problem(self) -> str:
        """What stops Resolve now ("" when nothing)."""
        return self.page().problem(self.context())[0]

    # --- rolling and resolving ------------------------------------------------------------------
    def roll_remaining(self) -> None:
        """Roll every roll still missing on the page shown, in order."""
        page = self.page()
        for _step in range(4):  # each roll may make the next one needed (the damage after a hit)
            page.roll_missing()
            page.refresh(self.context())
        self.refresh()

    def operation(self) -> Operation | None:
        """The operation Resolve would apply now."""
        return self.page().operation(self.context())

    def resolve(self) -> None:
        """Apply the page's operation; a refusal is shown here and nothing changes."""
        page, context = self.page(), self.context()
        operation = page.operation(context)
        if operation is None:
            self.refresh()
            return
        highlight = page.outcome(operation, context)
        odds_before, chart_before = page.odds.outcomes(), page.chart.data()
        self._applying = True
        try:
            change = self._document.apply(operation)
        except RulesError as problem:
            show_message(self.status_label, str(problem))
            return
        finally:
            self._applying = False
        page.result.setText("\n".join(line.render() for line in change.entry.log))
        page.clear_dice()
        self.refresh()
        # The odds stay as they were for this roll, with what happened marked, until the GM starts the next one.
        page.show_odds(odds_before, chart_before)
        page.mark(highlight)
        self._showing_result = True
        show_message(self.status_label, _("Done. Enter new dice for the next one, or close."), error=False)
