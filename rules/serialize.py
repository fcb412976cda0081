"""To and from plain JSON-able dicts, with a schema version, validation and migrations.

One codec, driven by the dataclasses' type hints, serves the encounter state and every operation, so
a new field or operation needs no serialisation code. Loading validates every value against its type
and bounds (files may be corrupt or hostile) and says *where* a value is wrong. Nothing is evaluated
or unpickled: only data goes in and out.
"""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from collections.abc import Callable, Mapping
from enum import Enum
from functools import cache
from typing import Any, Final

import rules.combatants
import rules.effects
import rules.rolls
import rules.turns  # noqa: F401
from rules.encounter import Encounter, frozen_map
from rules.errors import RulesError
from rules.history import History, Operation
from rules.text import _

SCHEMA_VERSION: Final[int] = 2
FORMAT: Final[str] = "bojovka-encounter"
MAX_INT: Final[int] = 10**9
MAX_TEXT: Final[int] = 100_000
MAX_ITEMS: Final[int] = 100_000
MAX_DEPTH: Final[int] = 24
MAX_OPERATIONS: Final[int] = 1_000_000



def _from_version_1(document: dict[str, Any]) -> dict[str, Any]:
    """Schema 2 adds derived data (log records, checkpoints); a schema 1 fight is replayed to rebuild it."""
    document.pop("log", None)
    document.pop("checkpoints", None)
    return document


#: Migrations: version n → n + 1, applied in order to documents older than SCHEMA_VERSION.
MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _from_version_1}


class SchemaError(RulesError):
    """A document does not match the schema; the message names the place and the problem."""


class _JsonMarker:
    """Stands for ``JsonValue`` when type hints are resolved (free-form data, validated by shape)."""


# --- encoding -----------------------------------------------------------------------------------


def to_data(value: Any) -> Any:
    """Encode a state object, an operation or a plain value as JSON-able data."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        data = {f.name: to_data(getattr(value, f.name)) for f in dataclasses.fields(value)}
        if isinstance(value, Operation):
            data = {"op": value.kind, **data}
        return data
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Mapping):
        return {str(key): to_data(item) for key, item in value.items()}
    if isinstance(value, frozenset):
        return sorted(to_data(item) for item in value)
    if isinstance(value, tuple | list):
        return [to_data(item) for item in value]
    return value


# --- decoding -----------------------------------------------------------------------------------


def _fail(path: str, problem: str) -> SchemaError:
    return SchemaError(_("{place}: {problem}").format(place=path or _("document"), problem=problem))


@cache
def type_hints(cls: type) -> dict[str, Any]:
    """A dataclass's resolved field types (``JsonValue`` stands for free-form data)."""
    # Each class's own module resolves its annotations; JsonValue is swapped for a marker because it
    # is a recursive alias written as a string, which typing cannot evaluate on Python 3.11.
    return typing.get_type_hints(cls, localns={"JsonValue": _JsonMarker})


def from_data(kind: Any, data: Any, path: str = "") -> Any:
    """Decode ``data`` as type ``kind``, validating every value; raise SchemaError naming the place."""
    origin = typing.get_origin(kind)
    if kind is _JsonMarker:
        return _json_value(data, path, 0)
    if kind is Any:
        return data
    if kind is Operation:
        return operation_from_data(data, path)
    if origin in (typing.Union, types.UnionType):
        return _union(typing.get_args(kind), data, path)
    if origin is typing.Literal:
        if data not in typing.get_args(kind):
            raise _fail(path, _("{value!r} is not allowed here").format(value=data))
        return data
    if origin is not None:
        return _container(origin, typing.get_args(kind), data, path)
    return _scalar_or_object(kind, data, path)


def _union(options: tuple[Any, ...], data: Any, path: str) -> Any:
    if data is None and type(None) in options:
        return None
    errors = []
    for option in options:
        if option is type(None):
            continue
        try:
            return from_data(option, data, path)
        except SchemaError as error:
            errors.append(str(error))
    raise _fail(path, _("unexpected value {value!r}").format(value=_short(data))) if errors else _fail(
        path, _("a value is missing"))


def _container(origin: Any, args: tuple[Any, ...], data: Any, path: str) -> Any:
    if origin in (Mapping, dict, typing.Mapping, type(frozen_map())) or origin is Mapping:
        if not isinstance(data, dict):
            raise _fail(path, _("expected an object"))
        _check_size(data, path)
        return frozen_map({_key(k, path): from_data(args[1], v, f"{path}.{k}") for k, v in data.items()})
    if not isinstance(data, list):
        raise _fail(path, _("expected a list"))
    _check_size(data, path)
    if origin is frozenset:
        return frozenset(from_data(args[0], item, f"{path}[{i}]") for i, item in enumerate(data))
    if len(args) == 2 and args[1] is Ellipsis:
        return tuple(from_data(args[0], item, f"{path}[{i}]") for i, item in enumerate(data))
    if len(args) != len(data):
        raise _fail(path, _("expected {count} values").format(count=len(args)))
    return tuple(from_data(arg, item, f"{path}[{i}]") for i, (arg, item) in enumerate(zip(args, data, strict=True)))


def _scalar_or_object(kind: Any, data: Any, path: str) -> Any:
    if isinstance(kind, type) and issubclass(kind, Enum):
        try:
            return kind(data)
        except ValueError:
            raise _fail(path, _("unknown value {value!r}").format(value=_short(data))) from None
    if kind is bool:
        if not isinstance(data, bool):
            raise _fail(path, _("expected true or false"))
        return data
    if kind is int:
        return _int(data, path)
    if kind is float:
        return _float(data, path)
    if kind is str:
        return _text(data, path)
    if kind is type(None):
        if data is not None:
            raise _fail(path, _("expected nothing (null)"))
        return None
    if dataclasses.is_dataclass(kind):
        return _object(kind, data, path)
    raise _fail(path, f"unsupported type {kind!r}")


def _int(data: Any, path: str) -> int:
    if isinstance(data, bool) or not isinstance(data, int):
        raise _fail(path, _("expected a whole number"))
    if abs(data) > MAX_INT:
        raise _fail(path, _("the number {value} is too large").format(value=_short(data)))
    return data


def _float(data: Any, path: str) -> float:
    if isinstance(data, bool) or not isinstance(data, int | float) or not math.isfinite(data):
        raise _fail(path, _("expected a number"))
    if abs(data) > MAX_INT:
        raise _fail(path, _("the number {value} is too large").format(value=_short(data)))
    return float(data)


def _text(data: Any, path: str) -> str:
    if not isinstance(data, str):
        raise _fail(path, _("expected text"))
    if len(data) > MAX_TEXT:
        raise _fail(path, _("the text is too long ({length} characters)").format(length=len(data)))
    return data


def _key(key: Any, path: str) -> str:
    return _text(key, path)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "…"


def _check_size(data: dict[str, Any] | list[Any], path: str) -> None:
    if len(data) > MAX_ITEMS:
        raise _fail(path, _("too many entries ({count})").format(count=len(data)))


def _object(cls: Any, data: Any, path: str) -> Any:
    if not isinstance(data, dict):
        raise _fail(path, _("expected an object"))
    hints = type_hints(cls)
    values: dict[str, Any] = {}
    for spec in dataclasses.fields(cls):
        if spec.name in data:
            values[spec.name] = from_data(hints[spec.name], data[spec.name], f"{path}.{spec.name}".lstrip("."))
        elif spec.default is dataclasses.MISSING and spec.default_factory is dataclasses.MISSING:
            raise _fail(f"{path}.{spec.name}".lstrip("."), _("a value is missing"))
    try:
        return cls(**values)
    except (TypeError, ValueError) as error:
        raise _fail(path, str(error)) from None


def _json_value(data: Any, path: str, depth: int) -> Any:
    if depth > MAX_DEPTH:
        raise _fail(path, _("nested too deeply"))
    if data is None or isinstance(data, bool | str):
        return _text(data, path) if isinstance(data, str) else data
    if isinstance(data, int | float):
        return _float(data, path) if isinstance(data, float) else _int(data, path)
    if isinstance(data, list):
        _check_size(data, path)
        return tuple(_json_value(item, f"{path}[{i}]", depth + 1) for i, item in enumerate(data))
    if isinstance(data, dict):
        _check_size(data, path)
        return frozen_map({_key(k, path): _json_value(v, f"{path}.{k}", depth + 1) for k, v in data.items()})
    raise _fail(path, _("unexpected value {value!r}").format(value=_short(data)))


# --- operations and whole documents -------------------------------------------------------------


def operation_from_data(data: Any, path: str = "operation") -> Operation:
    """Decode one operation by its ``op`` kind."""
    if not isinstance(data, dict):
        raise _fail(path, _("expected an object"))
    kind = data.get("op")
    cls = Operation.registry.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise _fail(path, _("unknown operation {kind!r}").format(kind=_short(data.get("op"))))
    fields = {key: value for key, value in data.items() if key != "op"}
    operation: Operation = _object(cls, fields, path)
    return operation


def encounter_from_data(data: Any, path: str = "encounter") -> Encounter:
    """Decode an encounter state."""
    encounter: Encounter = _object(Encounter, data, path)
    return encounter


def migrate(document: dict[str, Any]) -> dict[str, Any]:
    """Bring an older document up to SCHEMA_VERSION; refuse newer ones politely."""
    version = document.get("schema_version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise _fail("schema_version", _("this is not a Bojovka encounter file"))
    if version > SCHEMA_VERSION:
        raise SchemaError(_("This encounter was saved by a newer version of Bojovka (file format {found}; this "
                            "version reads up to {known}). Please update Bojovka to open it.").format(
            found=version, known=SCHEMA_VERSION))
    while version < SCHEMA_VERSION:
        document = MIGRATIONS[version](document)
        version += 1
        document["schema_version"] = version
    return document


def history_to_document(history: History) -> dict[str, Any]:
    """The whole fight as a document (see :mod:`rules.documents`)."""
    from rules.documents import encode_history  # documents builds on this codec

    return encode_history(history)


def history_from_document(document: Any, trusted: bool = False) -> History:
    """Rebuild the fight from a document; ``trusted`` documents open without replaying (rules.documents)."""
    from rules.documents import decode_history

    return decode_history(document, trusted)
