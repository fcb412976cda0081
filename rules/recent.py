"""The last few results of a pure function of immutable inputs, found again by the inputs' identity.

The turn engine, the initiative table and the order view all ask for the same state's order of a pass, and a
state is immutable: remembering the last few answers saves working the order out again (a sort of every
combatant) on every change.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, Generic, TypeVar

T = TypeVar("T")

#: Inputs compared by value (they are small and their equal copies are common: a pass number, a yielded set).
_BY_VALUE: Final[tuple[type, ...]] = (str, int, frozenset)


def _same(known: object, asked: object) -> bool:
    return known is asked or (type(known) is type(asked) and isinstance(known, _BY_VALUE) and known == asked)


class Recent(Generic[T]):
    """The results for the last ``kept`` inputs. Inputs are compared by identity (plain values by equality); each
    result keeps its inputs alive, so an identity is never reused while it is here."""

    def __init__(self, kept: int = 4) -> None:
        self._kept = kept
        self._results: list[tuple[tuple[object, ...], T]] = []

    def get(self, inputs: tuple[object, ...], compute: Callable[[], T]) -> T:
        """The result kept for ``inputs``, else ``compute()``'s, kept from now on."""
        for known, result in self._results:
            if len(known) == len(inputs) and all(map(_same, known, inputs)):
                return result
        result = compute()
        self._results.insert(0, (inputs, result))
        del self._results[self._kept:]
        return result
