"""The life pyramid: which wound class a damage total makes, where each wound lands, what the wounds cost.

Five classes, lightest first. A damage roll enters the heaviest class whose threshold it reaches (below the
lightest: no wound). A wound takes the first free box of its row; a full row passes it to the next heavier
class; a wound with no free box left anywhere stays on the Mortal row as overflow (the GM decides death).
The worst filled class costs dice on every action; a filled Mortal box means the character is dying.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from rules.errors import RulesError
from rules.text import N_, NP_, _

LIGHT, MEDIUM, HEAVY, CRITICAL, MORTAL = "light", "medium", "heavy", "critical", "mortal"
#: The wound classes, lightest first (the keys of the condition tracks too).
CLASSES: Final[tuple[str, ...]] = (LIGHT, MEDIUM, HEAVY, CRITICAL, MORTAL)
CLASS_LABELS: Final[Mapping[str, str]] = {
    LIGHT: N_("Light"),
    MEDIUM: N_("Medium"),
    HEAVY: N_("Heavy"),
    CRITICAL: N_("Critical"),
    MORTAL: N_("Mortal"),
}
#: The classes' short names (the condition column: ``Hvy 2/2 · Crit 1/1``), in this translation context.
CLASS_CONTEXT: Final[str] = "institut wound class"
CLASS_SHORT: Final[Mapping[str, str]] = {
    LIGHT: NP_("institut wound class", "Lgt"),
    MEDIUM: NP_("institut wound class", "Med"),
    HEAVY: NP_("institut wound class", "Hvy"),
    CRITICAL: NP_("institut wound class", "Crit"),
    MORTAL: NP_("institut wound class", "Mort"),
}
MAX_BOXES: Final[int] = 20
MAX_THRESHOLD: Final[int] = 999
MAX_PENALTY: Final[int] = 20


@dataclass(frozen=True)
class WoundClass:
    """One row of the pyramid: entered by a damage total of ``entered_at`` or more, ``boxes`` wide."""

    key: str
    entered_at: int
    boxes: int
    penalty: int  # dice off every action while this is the worst filled class


@dataclass(frozen=True)
class Placement:
    """Where one wound went: the class it was rolled as and the row that took it (None: no box left)."""

    rolled: str
    landed: str
    overflow: bool = False


@dataclass(frozen=True)
class Pyramid:
    """A character's pyramid, lightest class first (validated: thresholds rise, every row has a box)."""

    classes: tuple[WoundClass, ...]

    def __post_init__(self) -> None:
        check_rows([(c.entered_at, c.boxes, c.penalty) for c in self.classes])

    def row(self, key: str) -> WoundClass:
        """The row of a class key."""
        return self.classes[index_of(key)]

    def size(self, key: str) -> int:
        """Boxes in a class's row."""
        return self.row(key).boxes

    def classify(self, damage_total: int) -> str | None:
        """The class a damage total enters (None below the lightest threshold)."""
        found = None
        for wound in self.classes:
            if damage_total >= wound.entered_at:
                found = wound.key
        return found

    def range_text(self, key: str) -> str:
        """``5–9`` or ``25+``: the damage totals that enter a class."""
        position = index_of(key)
        low = self.classes[position].entered_at
        if position + 1 == len(self.classes):
            return f"{low}+"
        return f"{low}–{self.classes[position + 1].entered_at - 1}"

    def place(self, filled: Mapping[str, int], key: str, count: int = 1) -> tuple[dict[str, int], list[Placement]]:
        """Add ``count`` wounds of class ``key``: each takes the first free box of its row or a heavier one."""
        boxes = {c.key: max(0, filled.get(c.key, 0)) for c in self.classes}
        placements = []
        start = index_of(key)
        for _wound in range(count):
            free = next((c.key for c in self.classes[start:] if boxes[c.key] < c.boxes), None)
            landed = free or MORTAL
            boxes[landed] += 1
            placements.append(Placement(key, landed, overflow=free is None))
        return boxes, placements

    def worst(self, filled: Mapping[str, int]) -> str | None:
        """The heaviest class with at least one wound."""
        found = None
        for wound in self.classes:
            if filled.get(wound.key, 0) > 0:
                found = wound.key
        return found

    def penalty(self, filled: Mapping[str, int]) -> int:
        """Dice off every action: the penalty of the worst filled class."""
        worst = self.worst(filled)
        return self.row(worst).penalty if worst is not None else 0

    def dying(self, filled: Mapping[str, int]) -> bool:
        """A filled Mortal box: the character is dying."""
        return filled.get(MORTAL, 0) > 0

    def rows(self) -> tuple[tuple[int, int, int], ...]:
        """(threshold, boxes, penalty) per class, lightest first (the form the operations carry)."""
        return tuple((c.entered_at, c.boxes, c.penalty) for c in self.classes)

    def to_json(self) -> dict[str, dict[str, int]]:
        """The pyramid as stored in a combatant's extra data."""
        return {c.key: {"from": c.entered_at, "boxes": c.boxes, "penalty": c.penalty} for c in self.classes}


def index_of(key: str) -> int:
    """Position of a class key (RulesError for an unknown one)."""
    try:
        return CLASSES.index(key)
    except ValueError:
        raise RulesError(_("There is no wound class {key!r}.").format(key=key)) from None


def check_rows(rows: Sequence[tuple[int, int, int]]) -> None:
    """Refuse a pyramid the rules cannot use, saying what to fix."""
    if len(rows) != len(CLASSES):
        raise RulesError(_("A life pyramid has {count} classes.").format(count=len(CLASSES)))
    previous = 0
    for key, (entered_at, boxes, penalty) in zip(CLASSES, rows, strict=True):
        label = _(CLASS_LABELS[key])
        if not previous < entered_at <= MAX_THRESHOLD:
            raise RulesError(_("{wound}: the damage that enters it must be above the lighter class's "
                               "({previous}) and at most {limit}.").format(
                wound=label, previous=previous, limit=MAX_THRESHOLD))
        if not 1 <= boxes <= MAX_BOXES:
            raise RulesError(_("{wound}: a row holds 1 to {limit} boxes.").format(wound=label, limit=MAX_BOXES))
        if not 0 <= penalty <= MAX_PENALTY:
            raise RulesError(_("{wound}: the penalty is 0 to {limit} dice.").format(wound=label, limit=MAX_PENALTY))
        previous = entered_at


def pyramid_from_rows(rows: Sequence[tuple[int, int, int]]) -> Pyramid:
    """Build a pyramid from (threshold, boxes, penalty) per class, lightest first (RulesError if unusable)."""
    if len(rows) != len(CLASSES):
        check_rows(rows)  # says how many classes a pyramid has
    return Pyramid(tuple(WoundClass(key, *row) for key, row in zip(CLASSES, rows, strict=True)))
