"""The life pyramid: which wound class a damage total makes, where each wound lands, what the wounds cost.

Five classes by default (institut.md's placeholder), lightest first; a character's own pyramid may have any
number of classes with its own names (institut.md: "editable per character (number of classes, names,
thresholds and boxes)"). A damage roll enters the heaviest class whose threshold it reaches (below the
lightest: no wound). A wound takes the first free box of its row; a full row passes it to the next heavier
class; a wound with no free box left anywhere stays on the heaviest (Mortal) row as overflow (the GM decides
death). The worst filled class costs dice on every action; a filled box of the heaviest class means the
character is dying.
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
MAX_CLASSES: Final[int] = 10
MAX_NAME: Final[int] = 30

#: A pyramid row as the operations carry it: (threshold, boxes, penalty).
Row = tuple[int, int, int]


@dataclass(frozen=True)
class WoundClass:
    """One row of the pyramid: entered by a damage total of ``entered_at`` or more, ``boxes`` wide; ``name`` is
    the English source of a default class (translated when shown) or the GM's own name."""

    key: str
    entered_at: int
    boxes: int
    penalty: int  # dice off every action while this is the worst filled class
    name: str = ""

    @property
    def label(self) -> str:
        """The name to translate and show."""
        return self.name or CLASS_LABELS.get(self.key, self.key)


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
        check_rows([(c.entered_at, c.boxes, c.penalty) for c in self.classes], [c.label for c in self.classes])

    @property
    def keys(self) -> tuple[str, ...]:
        """The class keys, lightest first."""
        return tuple(c.key for c in self.classes)

    @property
    def heaviest(self) -> str:
        """The heaviest class's key (the Mortal row by default): a wound there means dying."""
        return self.classes[-1].key

    def position(self, key: str) -> int:
        """Position of a class key, lightest first (RulesError for one this pyramid has not)."""
        for position, wound in enumerate(self.classes):
            if wound.key == key:
                return position
        raise RulesError(_("There is no wound class {key!r}.").format(key=key))

    def row(self, key: str) -> WoundClass:
        """The row of a class key."""
        return self.classes[self.position(key)]

    def label(self, key: str) -> str:
        """The English source (or the GM's own name) of a class, to translate when shown."""
        return self.row(key).label

    def names(self) -> tuple[str, ...] | None:
        """The GM's own class names, or None for the default classes."""
        if self.keys == CLASSES and all(not c.name for c in self.classes):
            return None
        return tuple(c.label for c in self.classes)

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
        position = self.position(key)
        low = self.classes[position].entered_at
        if position + 1 == len(self.classes):
            return f"{low}+"
        return f"{low}–{self.classes[position + 1].entered_at - 1}"

    def place(self, filled: Mapping[str, int], key: str, count: int = 1) -> tuple[dict[str, int], list[Placement]]:
        """Add ``count`` wounds of class ``key``: each takes the first free box of its row or a heavier one."""
        boxes = {c.key: max(0, filled.get(c.key, 0)) for c in self.classes}
        placements = []
        start = self.position(key)
        for _wound in range(count):
            free = next((c.key for c in self.classes[start:] if boxes[c.key] < c.boxes), None)
            landed = free or self.heaviest
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
        """A filled box of the heaviest class (Mortal): the character is dying."""
        return filled.get(self.heaviest, 0) > 0

    def carried_over(self, filled: Mapping[str, int], old: Pyramid) -> dict[str, int]:
        """The wounds of ``old``'s rows placed on this pyramid's, class by class in order (lightest first, each
        to the row at its position or the heaviest one), overflowing upwards as any wound would."""
        boxes: dict[str, int] = dict.fromkeys(self.keys, 0)
        for position, key in enumerate(old.keys):
            boxes, _placed = self.place(boxes, self.keys[min(position, len(self.keys) - 1)], filled.get(key, 0))
        return boxes

    def rows(self) -> tuple[tuple[int, int, int], ...]:
        """(threshold, boxes, penalty) per class, lightest first (the form the operations carry)."""
        return tuple((c.entered_at, c.boxes, c.penalty) for c in self.classes)

    def to_json(self) -> dict[str, dict[str, int]]:
        """The pyramid as stored in a combatant's extra data."""
        return {c.key: {"from": c.entered_at, "boxes": c.boxes, "penalty": c.penalty} for c in self.classes}


def check_names(names: Sequence[str]) -> None:
    """Refuse class names the GM could not tell apart or could not read, saying which."""
    seen: set[str] = set()
    for position, name in enumerate(names, start=1):
        if not name.strip():
            raise RulesError(_("Class {number} needs a name.").format(number=position))
        if len(name) > MAX_NAME:
            raise RulesError(_("{wound}: a name is at most {limit} characters.").format(wound=name, limit=MAX_NAME))
        if name.strip().casefold() in seen:
            raise RulesError(_("Two classes are named {wound}: give each its own name.").format(wound=name))
        seen.add(name.strip().casefold())


def check_rows(rows: Sequence[Row], labels: Sequence[str] | None = None) -> None:
    """Refuse a pyramid the rules cannot use, saying what to fix (``labels``: the classes' names, the default
    ones if not given)."""
    names = list(labels) if labels is not None else [CLASS_LABELS[key] for key in CLASSES]
    if labels is None and len(rows) != len(CLASSES):
        raise RulesError(_("A life pyramid has {count} classes.").format(count=len(CLASSES)))
    if not 1 <= len(rows) <= MAX_CLASSES:
        raise RulesError(_("A life pyramid has 1 to {limit} classes.").format(limit=MAX_CLASSES))
    if len(names) != len(rows):
        raise RulesError(_("Give every class a name."))
    previous = 0
    for name, (entered_at, boxes, penalty) in zip(names, rows, strict=True):
        label = _(name)
        if not previous < entered_at <= MAX_THRESHOLD:
            raise RulesError(_("{wound}: the damage that enters it must be above the lighter class's "
                               "({previous}) and at most {limit}.").format(
                wound=label, previous=previous, limit=MAX_THRESHOLD))
        if not 1 <= boxes <= MAX_BOXES:
            raise RulesError(_("{wound}: a row holds 1 to {limit} boxes.").format(wound=label, limit=MAX_BOXES))
        if not 0 <= penalty <= MAX_PENALTY:
            raise RulesError(_("{wound}: the penalty is 0 to {limit} dice.").format(wound=label, limit=MAX_PENALTY))
        previous = entered_at


def pyramid_from_rows(rows: Sequence[Row], names: Sequence[str] | None = None) -> Pyramid:
    """Build a pyramid from (threshold, boxes, penalty) per class, lightest first (RulesError if unusable):
    the five default classes, or (``names`` given) as many classes as names, keyed by position."""
    if names is None:
        if len(rows) != len(CLASSES):
            check_rows(rows)  # says how many classes a pyramid has
        return Pyramid(tuple(WoundClass(key, *row) for key, row in zip(CLASSES, rows, strict=True)))
    check_names(names)
    check_rows(rows, names)
    return Pyramid(tuple(WoundClass(f"class{position}", *row, name=name.strip())
                         for position, (name, row) in enumerate(zip(names, rows, strict=True), start=1)))
