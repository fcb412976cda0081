"""A fast copy-with-changes of the state's frozen dataclasses.

The state is rebuilt many times per operation (Next Turn replaced the encounter and its clock about a dozen
times), and an opened file replays every operation: :func:`dataclasses.replace` runs the generated ``__init__``
with every field again, which was a seventh of replaying a fight. :func:`evolve` copies the instance's
attributes and sets the changed ones, with the same result for classes that have no ``__post_init__``, no
``init=False`` fields and no ``__slots__`` (checked once per class; any other class falls back to ``replace``).
"""

from __future__ import annotations

from dataclasses import fields, is_dataclass, replace
from typing import Any, TypeVar

_D = TypeVar("_D")

#: Per class: the names of its fields, or None when :func:`evolve` must use :func:`dataclasses.replace`.
_FIELDS: dict[type, frozenset[str] | None] = {}


def _copyable_fields(kind: type) -> frozenset[str] | None:
    if not is_dataclass(kind) or hasattr(kind, "__post_init__") or hasattr(kind, "__slots__"):
        return None
    specs = fields(kind)
    if any(not spec.init for spec in specs):
        return None
    return frozenset(spec.name for spec in specs)


def evolve(instance: _D, **changes: Any) -> _D:
    """``dataclasses.replace(instance, **changes)``, without running ``__init__`` again (TypeError for a name
    that is not a field, as ``replace`` gives)."""
    kind = type(instance)
    if kind not in _FIELDS:
        _FIELDS[kind] = _copyable_fields(kind)
    names = _FIELDS[kind]
    if names is None:
        return replace(instance, **changes)  # type: ignore[type-var]
    if not changes.keys() <= names:
        raise TypeError(f"{kind.__name__} has no field {sorted(changes.keys() - names)[0]!r}")
    copy = object.__new__(kind)
    attributes = copy.__dict__
    attributes.update(instance.__dict__)
    attributes.update(changes)
    return copy
