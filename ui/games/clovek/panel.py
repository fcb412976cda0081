"""Člověk's sections of the combatant details panel: the dice banks, long actions, capacity attribute names.

Each section turns a click into one operation (spend dice as an action or a reaction, burn stun for dice or to pay
for a manoeuvre or equipment, set the initiative dice, start or pause a long action…) and shows whatever the
document then says.
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QVBoxLayout,
)

from app.i18n import _, ngettext
from rules.encounter import Combatant, Encounter
from rules.systems.base import RuleSystem
from rules.systems.clovek import ClovekBurn, ClovekSpend, RefillBanks, SetCapacityName, SetInitiativeDice
from rules.systems.clovek.banks import (
    BANK_TITLES,
    BANK_WORDS,
    BANKS,
    CAPACITY,
    CAPACITY_LABELS,
    CAPACITY_NAMES,
    DEXTERITY,
    MENTAL,
    SOCIAL,
    bank,
    burnt_this_round,
    capacity_name,
    extra_map,
    initiative_dice_chosen,
)
from rules.systems.clovek.economy import ACTION, REACTION, action_type, burn_limit_left, round_running, stun_room
from rules.systems.clovek.ops import BURN_FOR_LABELS, MAX_PURPOSE, BurnFor
from ui.games.base import Apply, SectionFactory
from ui.games.clovek.dice import BankView, DiceBanksWidget
from ui.games.clovek.extra_action import ExtraActionPicker
from ui.games.clovek.long_actions import LongActionsSection
from ui.widgets.messages import as_written


def _is_acting(combatant: Combatant, state: Encounter) -> bool:
    current = state.clock.current
    return current is not None and combatant.id in current.ids


class DiceBanksSection(QGroupBox):
    """The three banks as dice: click to spend, burn stun for dice, the mental dice risked on initiative."""

    def __init__(self, apply: Apply) -> None:
        super().__init__(_("Dice banks"))
        self._apply = apply
        self._id = ""
        self._acting: bool | None = None
        self._shown: tuple[Combatant, Encounter] | None = None
        self._system: RuleSystem | None = None
        self.dice = DiceBanksWidget()
        self.action = QRadioButton(_("Action"))
        self.reaction = QRadioButton(_("Reaction"))
        self._roles = QButtonGroup(self)
        self._roles.addButton(self.action)
        self._roles.addButton(self.reaction)
        self.reaction.setChecked(True)
        self.extra_action = ExtraActionPicker()
        self.round_label = QLabel()
        self.round_label.setWordWrap(True)
        self.burn_count = QSpinBox(minimum=1, maximum=20)
        self.burn_count.setAccessibleName(_("Stun wounds to burn"))
        self.burn_bank = QComboBox()
        self.burn_bank.setAccessibleName(_("Type of the stun wounds"))
        for name in BANKS:
            self.burn_bank.addItem(_(BANK_TITLES[name]), name)
        # Burnt stun buys dice back, or pays for a special manoeuvre, an ability or equipment (the seed's list).
        self.burn_for = QComboBox()
        self.burn_for.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.burn_for.setMinimumContentsLength(10)
        self.burn_for.setAccessibleName(_("What the stun wounds pay for"))
        for purpose, label in BURN_FOR_LABELS.items():
            self.burn_for.addItem(_(label), purpose)
        self.burn_note = QLineEdit()
        self.burn_note.setMaxLength(MAX_PURPOSE)
        self.burn_note.setPlaceholderText(_("Which manoeuvre, ability or equipment (optional)"))
        self.burn_note.setAccessibleName(_("What the stun wounds pay for, in words"))
        self.burn_button = QPushButton(_("Burn"))
        self.initiative_dice = QSpinBox(minimum=0, maximum=0)
        self.initiative_dice.setKeyboardTracking(False)
        self.initiative_dice.setAccessibleName(_("Mental dice risked on initiative"))
        self.refill = QPushButton(_("Refill"))
        self.refill.setToolTip(_("Refill every bank now (a new scene, or a round run without initiative)."))
        self._build_layout()
        self._connect()

    def _build_layout(self) -> None:
        roles = QHBoxLayout()
        roles.addWidget(QLabel(_("A click spends dice as:")))
        roles.addWidget(self.action)
        roles.addWidget(self.reaction)
        roles.addStretch(1)
        burn = QHBoxLayout()
        burn.addWidget(self.burn_count)
        burn.addWidget(self.burn_bank, 1)
        burn.addWidget(self.burn_button)
        # What the wounds pay for and the note go on rows of their own: beside the bank they widened the panel past
        # its dock, or were cut to a few letters.
        initiative = QHBoxLayout()
        initiative.addWidget(self.initiative_dice)
        initiative.addWidget(QLabel(_("mental dice")), 1)
        initiative.addWidget(self.refill)
        form = QFormLayout()
        form.addRow(_("Burn stun:"), burn)
        form.addRow("", self.burn_for)
        form.addRow("", self.burn_note)
        form.addRow(_("Initiative:"), initiative)
        layout = QVBoxLayout(self)
        layout.addWidget(self.dice)
        layout.addLayout(roles)
        layout.addWidget(self.extra_action)
        layout.addWidget(self.round_label)
        layout.addLayout(form)

    def _connect(self) -> None:
        self.dice.spend_requested.connect(self._spend)
        self.burn_button.clicked.connect(self._burn)
        # Without keyboard tracking valueChanged comes once per edit (Enter, focus leaving, an arrow step); the
        # spin box's editingFinished would come again on Enter and once more on leaving: one edit, three lines.
        self.initiative_dice.valueChanged.connect(self._commit_initiative)
        self.refill.clicked.connect(lambda: self._apply(RefillBanks(self._id)))
        self.burn_bank.currentIndexChanged.connect(self._on_burn_bank)
        self.burn_for.currentIndexChanged.connect(self._on_burn_bank)
        self.burn_note.returnPressed.connect(self._burn)
        self.action.toggled.connect(self._follow_extra_action)

    # --- showing -------------------------------------------------------------------------------
    def refresh(self, combatant: Combatant, state: Encounter, system: RuleSystem) -> None:
        """Show the combatant's banks, what this round allows and the initiative dice."""
        if combatant.id != self._id or _is_acting(combatant, state) != self._acting:
            # A new combatant or a new turn: the likely role is an action in one's own turn, else a reaction.
            self._acting = _is_acting(combatant, state)
            (self.action if self._acting else self.reaction).setChecked(True)
            self.extra_action.setCurrentIndex(0)
        self._id, self._shown, self._system = combatant.id, (combatant, state), system
        self._follow_extra_action()
        self.dice.set_banks([BankView(name, _(BANK_TITLES[name]), bank(combatant, name).size,
                                      bank(combatant, name).spent, _(BANK_WORDS[name])) for name in BANKS])
        self.round_label.setText(self._round_text(combatant, state))
        self.round_label.setVisible(bool(self.round_label.text()))
        self._refresh_burn(combatant, state)
        self._refresh_initiative(combatant)

    def _round_text(self, combatant: Combatant, state: Encounter) -> str:
        chosen = action_type(combatant)
        parts = [_("This round's actions: {bank}").format(bank=_(BANK_WORDS[chosen]))] if chosen else []
        if round_running(state):
            burnt = [_("{bank} {count} of {limit}").format(bank=_(BANK_WORDS[name]),
                                                           count=burnt_this_round(combatant, name),
                                                           limit=max(0, combatant.attribute(DEXTERITY[name])))
                     for name in BANKS if burnt_this_round(combatant, name)]
            if burnt:
                parts.append(_("stun burnt this round: {list}").format(list=", ".join(burnt)))
        elif not parts:
            parts.append(_("No round under way: actions only spend dice."))
        return "; ".join(parts)

    def _refresh_burn(self, combatant: Combatant, state: Encounter) -> None:
        name, for_dice = str(self.burn_bank.currentData()), self.burn_purpose() is BurnFor.DICE
        most = min(burn_limit_left(combatant, name, state), stun_room(combatant, name, state))
        if for_dice:  # a die back for each wound, never above the bank's maximum
            most = min(most, bank(combatant, name).spent)
        self.burn_count.setMaximum(max(1, most))
        self.burn_button.setEnabled(most > 0)
        self.burn_note.setVisible(not for_dice)
        allowed = ngettext("{name} may burn {count} more {bank} stun wound now.",
                           "{name} may burn {count} more {bank} stun wounds now.", most).format(
            name=combatant.name, count=most, bank=_(BANK_WORDS[name]))
        how = _("One die of the bank back for each wound (never mid-roll).") if for_dice else \
            _("The wounds pay for what is named; no dice come back.")
        self.burn_button.setToolTip(as_written(f"{allowed} {how}"))

    def burn_purpose(self) -> BurnFor:
        """What the Burn button pays for."""
        return BurnFor(self.burn_for.currentData())

    def _on_burn_bank(self) -> None:
        if self._shown is not None:
            self._refresh_burn(*self._shown)

    def _refresh_initiative(self, combatant: Combatant) -> None:
        if self.initiative_dice.hasFocus():
            return
        self.initiative_dice.blockSignals(True)
        self.initiative_dice.setMaximum(bank(combatant, MENTAL).size)
        self.initiative_dice.setValue(initiative_dice_chosen(combatant))
        self.initiative_dice.blockSignals(False)
        self.initiative_dice.setToolTip(_("Best die + Composure {composure}; the dice stay spent for the round.")
                                        .format(composure=combatant.attribute("composure")))

    # --- changing ------------------------------------------------------------------------------
    def role(self) -> str:
        """The role a click gives the dice: an action or a reaction."""
        return ACTION if self.action.isChecked() else REACTION

    def _follow_extra_action(self) -> None:
        """The grant picker, enabled when a click would spend an extra action."""
        if self._shown is not None and self._system is not None:
            self.extra_action.follow(*self._shown, self._system, self.action.isChecked())

    def _spend(self, bank_name: str, count: int) -> None:
        grant = self.extra_action.grant() if self.role() == ACTION else ""
        if self._apply(ClovekSpend(self._id, bank_name, count, self.role(), extra_action=grant)):
            self.extra_action.setCurrentIndex(0)

    def _burn(self) -> None:
        purpose = self.burn_purpose()
        note = "" if purpose is BurnFor.DICE else self.burn_note.text().strip()
        if self._apply(ClovekBurn(self._id, str(self.burn_bank.currentData()), self.burn_count.value(),
                                  purpose.value, note)):
            self.burn_note.clear()

    def _commit_initiative(self) -> None:
        if self.initiative_dice.signalsBlocked() or self._shown is None:
            return
        if self.initiative_dice.value() != initiative_dice_chosen(self._shown[0]):  # nothing new: no log, no undo
            self._apply(SetInitiativeDice(self._id, self.initiative_dice.value()))


class CapacityNamesSection(QGroupBox):
    """What this character's social and mental capacity attributes are called (a per-character **Decision**)."""

    def __init__(self, apply: Apply) -> None:
        super().__init__(_("Capacity attributes"))
        self._apply = apply
        self._id = ""
        self._names: dict[str, str] = {}
        self.values = QLabel()
        self.values.setWordWrap(True)
        self.edits: dict[str, QLineEdit] = {}
        grid = QGridLayout(self)
        grid.addWidget(self.values, 0, 0, 1, 2)
        for row, name in enumerate((SOCIAL, MENTAL), start=1):
            edit = QLineEdit()
            edit.setMaxLength(60)
            edit.setPlaceholderText(_(CAPACITY_LABELS[name]))
            edit.setAccessibleName(_("Name of the {bank} capacity attribute").format(bank=_(BANK_WORDS[name])))
            edit.editingFinished.connect(lambda key=name: self._commit(key))
            grid.addWidget(QLabel(_(BANK_TITLES[name])), row, 0)
            grid.addWidget(edit, row, 1)
            self.edits[name] = edit

    def refresh(self, combatant: Combatant, state: Encounter, system: RuleSystem) -> None:
        """Show the names and the values they stand for."""
        self._id = combatant.id
        own = extra_map(combatant, CAPACITY_NAMES)
        self.values.setText(" · ".join(f"{capacity_name(combatant, name, state)} {combatant.attribute(CAPACITY[name])}"
                                       for name in BANKS))
        for name, edit in self.edits.items():
            value = own.get(name)
            self._names[name] = value if isinstance(value, str) else ""
            if not edit.isModified():
                edit.setText(self._names[name])

    def _commit(self, name: str) -> None:
        edit = self.edits[name]
        edit.setModified(False)
        if edit.text().strip() != self._names.get(name, ""):
            self._apply(SetCapacityName(self._id, name, edit.text()))




#: The sections this game adds to the details panel, top to bottom.
SECTIONS: tuple[SectionFactory, ...] = (DiceBanksSection, LongActionsSection, CapacityNamesSection)
