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
import rules.turns
import rules.weapons  # noqa: F401
from rules.encounter import OMIT_DEFAULT, Encounter, frozen_map
from rules.errors import RulesError
from rules.history import History, Operation
from rules.text import _

SCHEMA_VERSION: Final[int] = 3
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


# Schema 2 kept a game's own state in fields of every encounter: Walka's seating order (``seats``) and its
# GM's answer to a tie (the option ``gm_tie_decision``), SR3's surprise test in force (``surprise``). Schema 3
# keeps them as items of ``game`` under those names (the games read them so; their modules say the names stay),
# empty ones left out and the items in key order, as the games keep them.
_TIE: Final[str] = "gm_tie_decision"
_V2_GAME_ITEMS: Final[tuple[str, ...]] = (_TIE, "seats", "surprise")  # in key order


def _v2_game(parts: Mapping[str, Any]) -> dict[str, Any]:
    """Schema 3's ``game`` for the parts of a schema-2 state."""
    return {key: parts[key] for key in _V2_GAME_ITEMS if parts.get(key) not in (None, [], {})}


def _v2_parts(state: Any) -> dict[str, Any]:
    """The game's parts of a schema-2 state: seats, surprise, and the tie decision if there is one."""
    if not isinstance(state, dict):
        return {}
    parts = {"seats": state.get("seats"), "surprise": state.get("surprise")}
    options = state.get("options")
    if isinstance(options, dict) and _TIE in options:
        parts[_TIE] = options[_TIE]
    return parts


def _v2_state(state: Any) -> Any:
    """A schema-2 state with its game's parts moved into ``game``."""
    if not isinstance(state, dict):
        return state
    moved = {key: value for key, value in state.items() if key not in ("seats", "surprise")}
    if isinstance(state.get("options"), dict):
        moved["options"] = {key: value for key, value in state["options"].items() if key != _TIE}
    moved["game"] = _v2_game(_v2_parts(state))
    return moved


def _v2_patched(base: Any, changed: Any, order: Any) -> dict[str, Any]:
    """A mapping as a schema-2 patch rebuilds it from the state after it (as rules.documents does)."""
    base = base if isinstance(base, dict) else {}
    changed = changed if isinstance(changed, dict) else {}
    keys = order if isinstance(order, list) else list(base)
    return {key: changed[key] if key in changed else base[key] for key in keys
            if isinstance(key, str) and (key in changed or key in base)}


def _patch_parts(patch: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]] | None:
    """A patch's whole fields, mapping items and key orders (None: not shaped as a patch at all)."""
    parts = tuple(patch.get(name, {}) for name in ("fields", "items", "keys"))
    if not all(isinstance(part, dict) for part in parts):
        return None
    return parts[0], parts[1], parts[2]


def _v2_checkpoint_parts(patch: Any, after: Mapping[str, Any]) -> dict[str, Any]:
    """The game's parts of a schema-2 checkpoint, from its patch and the parts of the state after it."""
    split = _patch_parts(patch) if isinstance(patch, dict) else None
    whole, items, keys = split or ({}, {}, {})
    surprise = after.get("surprise")
    if "surprise" in items or "surprise" in keys:
        surprise = _v2_patched(surprise, items.get("surprise"), keys.get("surprise"))
    parts = {"seats": whole.get("seats", after.get("seats")), "surprise": surprise}
    tie = _v2_patched({_TIE: after[_TIE]} if _TIE in after else {}, items.get("options"), keys.get("options"))
    if _TIE in tie:
        parts[_TIE] = tie[_TIE]
    return parts


def _v2_patch(patch: Any, parts: Mapping[str, Any], after: Mapping[str, Any]) -> Any:
    """A schema-2 checkpoint's patch, its game's parts given as what differs in ``game`` instead."""
    split = _patch_parts(patch) if isinstance(patch, dict) else None
    if split is None:
        return patch  # damaged: rules.documents says where when undo reaches it
    whole, items, keys = ({key: value for key, value in part.items() if key not in ("seats", "surprise")}
                          for part in split)
    if isinstance(items.get("options"), dict):
        items["options"] = {key: value for key, value in items["options"].items() if key != _TIE}
    if isinstance(keys.get("options"), list):
        keys["options"] = [key for key in keys["options"] if key != _TIE]
    game, following = _v2_game(parts), _v2_game(after)
    changed = {key: value for key, value in game.items() if key not in following or following[key] != value}
    if changed:
        items["game"] = changed
    if list(game) != list(following):
        keys["game"] = list(game)
    return {**patch, "fields": whole, "items": items, "keys": keys}


def _from_version_2(document: dict[str, Any]) -> dict[str, Any]:
    """Schema 3 keeps a game's own state in ``game``: the states move their game's parts there, and each
    checkpoint's patch (what differs from the checkpoint after it, the last one from ``state``) says what
    differs in ``game`` instead, so an old fight still opens from its state and undo replays its segments."""
    checkpoints = document.get("checkpoints")
    if isinstance(checkpoints, list):
        after = _v2_parts(document.get("state"))
        rewritten = []
        for checkpoint in reversed(checkpoints):
            if not isinstance(checkpoint, dict):
                rewritten.append(checkpoint)
                continue
            parts = _v2_checkpoint_parts(checkpoint.get("patch"), after)
            rewritten.append({**checkpoint, "patch": _v2_patch(checkpoint.get("patch"), parts, after)})
            after = parts
        document["checkpoints"] = rewritten[::-1]
    for name in ("initial", "state"):
        if name in document:
            document[name] = _v2_state(document[name])
    return document


#: Migrations: version n → n + 1, applied in order to documents older than SCHEMA_VERSION.
MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _from_version_1, 2: _from_version_2}


class SchemaError(RulesError):
    """A document does not match the schema; the message names the place and the problem."""


class _JsonMarker:
    """Stands for ``JsonValue`` when type hints are resolved (free-form data, validated by shape)."""


# --- encoding -----------------------------------------------------------------------------------


def to_data(value: Any) -> Any:
    """Encode a state object, an operation or a plain value as JSON-able data."""
    shape = _SHAPES.get(type(value))
    if shape is None:
        shape = _SHAPES[type(value)] = _shape(type(value))
    if isinstance(shape, tuple):
        data = {name: to_data(getattr(value, name)) for name, spec in shape
                if spec is None or not _is_default(spec, getattr(value, name))}
        return {"op": value.kind, **data} if isinstance(value, Operation) else data
    if shape is _Shape.ENUM:
        return value.value
    if shape is _Shape.MAPPING:
        return {str(key): to_data(item) for key, item in value.items()}
    if shape is _Shape.SET:
        return sorted(to_data(item) for item in value)
    if shape is _Shape.SEQUENCE:
        return [to_data(item) for item in value]
    return value


class _Shape(Enum):
    """How :func:`to_data` encodes a value of one type (a dataclass: by its fields)."""

    ENUM = "enum"
    MAPPING = "mapping"
    SET = "set"
    SEQUENCE = "sequence"
    PLAIN = "plain"


#: Each type's shape, worked out once: a save or a journal header encodes ~10⁵ values, and asking each one
#: whether it is a dataclass and for its fields was most of the time.
_SHAPES: dict[type, _Shape | tuple[tuple[str, dataclasses.Field[Any] | None], ...]] = {}


def _shape(kind: type) -> _Shape | tuple[tuple[str, dataclasses.Field[Any] | None], ...]:
    """A dataclass's fields (with the field spec where a default value is left out), or the kind of value."""
    if dataclasses.is_dataclass(kind):
        return tuple((spec.name, spec if spec.metadata.get(OMIT_DEFAULT) else None)
                     for spec in dataclasses.fields(kind))
    if issubclass(kind, Enum):
        return _Shape.ENUM
    if issubclass(kind, Mapping):
        return _Shape.MAPPING
    if issubclass(kind, frozenset):
        return _Shape.SET
    if issubclass(kind, tuple | list):
        return _Shape.SEQUENCE
    return _Shape.PLAIN


def _is_default(spec: dataclasses.Field[Any], value: Any) -> bool:
    """Whether ``value`` is the field's default (a field marked ``ADDED_LATER`` is then left out)."""
    if spec.default is not dataclasses.MISSING:
        return bool(value == spec.default)
    return spec.default_factory is not dataclasses.MISSING and bool(value == spec.default_factory())


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
    return _decoder(kind)(data, path)


Decoder = Callable[[Any, str], Any]

#: Each type's decoder, built once from its type hints: a long fight decodes ~10⁵ values, and reading each one's
#: type again (its origin, its arguments, a dataclass's fields and hints) was most of the time.
_DECODERS: dict[Any, Decoder] = {}


def _decoder(kind: Any) -> Decoder:
    known = _DECODERS.get(kind)
    if known is None:
        known = _DECODERS[kind] = _built_decoder(kind)
    return known


def _built_decoder(kind: Any) -> Decoder:
    origin = typing.get_origin(kind)
    if kind is _JsonMarker:
        return lambda data, path: _json_value(data, path, 0)
    if kind is Any:
        return lambda data, path: data
    if kind is Operation:
        return operation_from_data
    if origin in (typing.Union, types.UnionType):
        return _union_decoder(typing.get_args(kind))
    if origin is typing.Literal:
        return _literal_decoder(typing.get_args(kind))
    if origin is not None:
        return _container_decoder(origin, typing.get_args(kind))
    return _scalar_or_object_decoder(kind)


def _union_decoder(options: tuple[Any, ...]) -> Decoder:
    optional = type(None) in options
    decoders = [_decoder(option) for option in options if option is not type(None)]

    def union(data: Any, path: str) -> Any:
        if data is None and optional:
            return None
        errors = []
        for decode in decoders:
            try:
                return decode(data, path)
            except SchemaError as error:
                errors.append(str(error))
        raise _fail(path, _("unexpected value {value!r}").format(value=_short(data))) if errors else _fail(
            path, _("a value is missing"))
    return union


def _literal_decoder(allowed: tuple[Any, ...]) -> Decoder:
    def literal(data: Any, path: str) -> Any:
        if data not in allowed:
            raise _fail(path, _("{value!r} is not allowed here").format(value=data))
        return data
    return literal


def _container_decoder(origin: Any, args: tuple[Any, ...]) -> Decoder:
    if origin in (Mapping, dict, typing.Mapping, type(frozen_map())) or origin is Mapping:
        return _mapping_decoder(_decoder(args[1]))
    if origin is frozenset:
        return _list_decoder(_decoder(args[0]), frozenset)
    if len(args) == 2 and args[1] is Ellipsis:
        return _list_decoder(_decoder(args[0]), tuple)
    return _fixed_tuple_decoder(tuple(_decoder(arg) for arg in args))


def _mapping_decoder(decode: Decoder) -> Decoder:
    def mapping(data: Any, path: str) -> Any:
        if not isinstance(data, dict):
            raise _fail(path, _("expected an object"))
        _check_size(data, path)
        return frozen_map({_key(k, path): decode(v, f"{path}.{k}") for k, v in data.items()})
    return mapping


def _listed(data: Any, path: str) -> list[Any]:
    if not isinstance(data, list):
        raise _fail(path, _("expected a list"))
    _check_size(data, path)
    return data


def _list_decoder(decode: Decoder, collect: Callable[[Any], Any]) -> Decoder:
    def listed(data: Any, path: str) -> Any:
        return collect(decode(item, f"{path}[{i}]") for i, item in enumerate(_listed(data, path)))
    return listed


def _fixed_tuple_decoder(decoders: tuple[Decoder, ...]) -> Decoder:
    def fixed(data: Any, path: str) -> Any:
        items = _listed(data, path)
        if len(decoders) != len(items):
            raise _fail(path, _("expected {count} values").format(count=len(decoders)))
        return tuple(decode(item, f"{path}[{i}]")
                     for i, (decode, item) in enumerate(zip(decoders, items, strict=True)))
    return fixed


def _scalar_or_object_decoder(kind: Any) -> Decoder:
    if isinstance(kind, type) and issubclass(kind, Enum):
        return _enum_decoder(kind)
    scalar = {bool: _bool, int: _int, float: _float, str: _text, type(None): _none}.get(kind)
    if scalar is not None:
        return scalar
    if dataclasses.is_dataclass(kind):
        return lambda data, path: _object(kind, data, path)
    return lambda data, path: _unsupported(kind, path)


def _enum_decoder(kind: type[Enum]) -> Decoder:
    def enum(data: Any, path: str) -> Any:
        try:
            return kind(data)
        except ValueError:
            raise _fail(path, _("unknown value {value!r}").format(value=_short(data))) from None
    return enum


def _unsupported(kind: Any, path: str) -> Any:
    raise _fail(path, f"unsupported type {kind!r}")


def _bool(data: Any, path: str) -> bool:
    if not isinstance(data, bool):
        raise _fail(path, _("expected true or false"))
    return data


def _none(data: Any, path: str) -> None:
    if data is not None:
        raise _fail(path, _("expected nothing (null)"))


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
    values: dict[str, Any] = {}
    for name, decode, required in _fields_plan(cls):
        if name in data:
            values[name] = decode(data[name], f"{path}.{name}".lstrip("."))
        elif required:
            raise _fail(f"{path}.{name}".lstrip("."), _("a value is missing"))
    try:
        return cls(**values)
    except (TypeError, ValueError) as error:
        raise _fail(path, str(error)) from None


@cache
def _fields_plan(cls: Any) -> tuple[tuple[str, Decoder, bool], ...]:
    """A dataclass's fields: name, decoder, and whether a document must give it (no default)."""
    hints = type_hints(cls)
    return tuple((spec.name, _decoder(hints[spec.name]),
                  spec.default is dataclasses.MISSING and spec.default_factory is dataclasses.MISSING)
                 for spec in dataclasses.fields(cls))


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
