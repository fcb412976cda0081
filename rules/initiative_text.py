"""What the GM types for a player's initiative: the faces rolled at the table, or the total the player announces.

One rule, shown in the Roll initiative dialog's hints: ``=17`` is always a total; several numbers (``4,5,6``) are
the faces, one per die; a lone number is the die when one die is rolled, and the total when several are (a lone
number cannot be the faces of several dice). So ``17`` for ``6 + 2d6`` is the total, ``4`` for ``6 + 1d6`` is the
die (its total would be written ``=10``), and for one die with nothing added the two readings agree. The game turns
a total into what it stores (:meth:`RuleSystem.initiative_from_total`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from rules.dice import read_face, read_faces
from rules.errors import RulesError
from rules.limits import TYPED_SCORE
from rules.systems.base import DiceSpec
from rules.text import _

#: Marks a typed number as the total the player announces.
TOTAL_MARK: Final[str] = "="
#: The largest total read (SetInitiative's bound).
MAX_TOTAL: Final[int] = TYPED_SCORE.high


@dataclass(frozen=True)
class TypedInitiative:
    """One typed field: the faces (one per die) or the announced ``total`` (then ``faces`` is empty)."""

    faces: tuple[int, ...] = ()
    total: int | None = None


def _total(text: str) -> int:
    digits = text.strip().replace("−", "-")
    number = digits[1:] if digits[:1] == "-" else digits
    if not number.isdigit() or abs(int(digits)) > MAX_TOTAL:
        raise RulesError(_("After “=” type the total the player announces, e.g. =17.")) from None
    return int(digits)


def read_initiative(text: str, spec: DiceSpec) -> TypedInitiative | None:
    """Read a typed initiative for a roll of ``spec`` (None: the field is empty, the app rolls)."""
    typed = text.strip()
    if not typed:
        return None
    if typed.startswith(TOTAL_MARK):
        return TypedInitiative(total=_total(typed[len(TOTAL_MARK):]))
    chains = read_faces(typed)
    if len(chains) == 1 and len(chains[0]) == 1 and spec.count != 1:
        return TypedInitiative(total=chains[0][0])  # one number for several dice (or none): the total
    # read_face turns a d10's "0" into 10, as players call it
    return TypedInitiative(faces=tuple(read_face(face, spec.sides) for chain in chains for face in chain))


def example_faces(spec: DiceSpec) -> str:
    """Faces to show in a hint, one per die (at most three, then an ellipsis): ``4,2,6``."""
    shown = [str(min(face, spec.sides)) for face in (4, 2, 6)[: spec.count]]
    return ",".join(shown) + (",…" if spec.count > len(shown) else "")


def example_total(spec: DiceSpec) -> int:
    """A total the dice can make, to show in a hint: about the middle of the range."""
    return spec.base + (spec.count * (spec.sides + 1) + 1) // 2
