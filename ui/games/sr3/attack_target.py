"""What an SR3 shot hits: a person, a vehicle or drone, or a barrier, and the rating of a barrier in the way.

sr3.md, Ammunition: "APDS halves armor and barrier ratings (round down), standard against vehicles and drones …
Flechette: … barrier and vehicle armor doubled"; Barriers: "a barrier rated above the attack's Power stops it".
The row sits in the Situation box where the attacker's difficult terrain had a row of its own: the dialog is at the
height of a 768-pixel laptop screen and must not grow. A vehicle's one armor rating is the defence box's ballistic
armor (prefilled from the target's data).
"""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QLabel, QWidget

from app.i18n import _, pgettext
from rules.systems.sr3.damage import TARGET_KIND_LABELS, TargetKind
from rules.systems.sr3.shot import ShotSheet
from ui.widgets.inputs import Choice, spin_box

#: The highest barrier rating the field takes (a sanity limit for a typed number, as the operation's).
MAX_BARRIER_FIELD = 50


class HitRow(QWidget):
    """The kind of target the shot hits, and the rating of the barrier shot at or through (none: 0)."""

    def __init__(self, combo_length: int) -> None:
        super().__init__()
        self.kind: Choice[TargetKind] = Choice(((_(label), kind) for kind, label in TARGET_KIND_LABELS.items()),
                                               min_length=combo_length)
        self.kind.setAccessibleName(_("What the shot hits"))
        self.kind.setToolTip(_("A person wears body armor. A vehicle or drone has one armor rating: type it as the "
                               "ballistic armor. A barrier has its rating, typed beside."))
        self.barrier = spin_box(0, MAX_BARRIER_FIELD, special=pgettext("no barrier", "none"), name=_("Barrier rating"))
        self.barrier.setToolTip(_("The rating of the barrier shot at, or shot through to reach the target (none: "
                                  "nothing in the way). A barrier rated above the attack's Power stops it."))
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.kind, 1)
        layout.addWidget(QLabel(_("barrier rating")))
        layout.addWidget(self.barrier)

    def inputs(self) -> list[QWidget]:
        """Inputs whose every change recomputes the sheet."""
        return [self.kind, self.barrier]


def barrier_text(sheet: ShotSheet) -> str:
    """The barrier's verdict in plain words ("": no barrier), as the damage box and the result say it."""
    if not sheet.barrier:
        return ""
    if sheet.stopped:
        return _("The barrier (rating {rating}) stops the attack: it is rated above the Power {power}.").format(
            rating=sheet.barrier, power=sheet.power)
    return _("The barrier (rating {rating}) does not stop the attack: it is not rated above the Power {power}."
             ).format(rating=sheet.barrier, power=sheet.power)
