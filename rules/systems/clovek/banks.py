"""Člověk's three dice banks, their attributes, the per-type condition tracks and the GM's data tables.

clovek.md, "Dice banks" and "Burning". A bank's size is twice its *dexterity attribute* (physical = Agility,
social = Charm, mental = Intelligence); its *capacity attribute* sets the power of actions of that type
(physical = Constitution; the social and mental ones are named per character). Each type has a stun track and a
wound track whose sizes the GM sets (**Decision**, default 10 each, in ``rules/systems/clovek/data.json``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from functools import cache
from importlib import resources
from typing import Final

from rules.encounter import Combatant, Encounter, JsonValue, Pool, frozen_map, with_item
from rules.errors import RulesError
from rules.text import N_, NP_, _

PHYSICAL: Final[str] = "physical"
SOCIAL: Final[str] = "social"
MENTAL: Final[str] = "mental"
BANKS: Final[tuple[str, ...]] = (PHYSICAL, SOCIAL, MENTAL)
#: Lower-case bank names for sentences ("3 physical dice").
BANK_WORDS: Final[dict[str, str]] = {PHYSICAL: N_("physical"), SOCIAL: N_("social"), MENTAL: N_("mental")}
BANK_TITLES: Final[dict[str, str]] = {PHYSICAL: N_("Physical"), SOCIAL: N_("Social"), MENTAL: N_("Mental")}
#: Short bank names for the condition column ("Phys: stun 2/10"), in this translation context.
BANK_CONTEXT: Final[str] = "clovek bank"
BANK_SHORT: Final[dict[str, str]] = {PHYSICAL: NP_("clovek bank", "Phys"), SOCIAL: NP_("clovek bank", "Soc"),
                                     MENTAL: NP_("clovek bank", "Ment")}

#: Dexterity attribute per bank: the bank holds twice as many dice, and at most this many stun burn per round.
DEXTERITY: Final[dict[str, str]] = {PHYSICAL: "agility", SOCIAL: "charm", MENTAL: "intelligence"}
#: Capacity attribute per bank: the base power of actions of that type.
CAPACITY: Final[dict[str, str]] = {PHYSICAL: "constitution", SOCIAL: "social_capacity", MENTAL: "mental_capacity"}
CAPACITY_LABELS: Final[dict[str, str]] = {PHYSICAL: N_("Constitution"), SOCIAL: N_("Social capacity"),
                                          MENTAL: N_("Mental capacity")}
COMPOSURE: Final[str] = "composure"
#: A power penalty on the attacks it takes (clovek.md: "light armor −2"); the Roll dialog fills it in.
ARMOR: Final[str] = "armor"

STUN: Final[str] = "stun"
WOUNDS: Final[str] = "wounds"
TRACK_KINDS: Final[tuple[str, ...]] = (STUN, WOUNDS)
TRACK_LABELS: Final[dict[tuple[str, str], str]] = {
    (PHYSICAL, STUN): N_("Physical stun"), (PHYSICAL, WOUNDS): N_("Physical wounds"),
    (SOCIAL, STUN): N_("Social stun"), (SOCIAL, WOUNDS): N_("Social wounds"),
    (MENTAL, STUN): N_("Mental stun"), (MENTAL, WOUNDS): N_("Mental wounds"),
}
MAX_TRACK: Final[int] = 100

# Keys in Combatant.extra.
INITIATIVE_DICE: Final[str] = "initiative_dice"
BURNT: Final[str] = "burnt"
CAPACITY_NAMES: Final[str] = "capacity_names"


def track_key(bank: str, kind: str) -> str:
    """The key of a condition track: ``physical_stun``, ``mental_wounds``…"""
    return f"{bank}_{kind}"


def split_track(key: str) -> tuple[str, str] | None:
    """(bank, kind) of a track key, or None if it is not one."""
    bank, _sep, kind = key.partition("_")
    return (bank, kind) if bank in BANKS and kind in TRACK_KINDS else None


def check_bank(bank: str) -> str:
    """``bank`` if it names a bank, else a RulesError naming the three."""
    if bank not in BANKS:
        raise RulesError(_("Unknown dice bank {bank!r}: physical, social or mental.").format(bank=bank))
    return bank


def bank_word(bank: str) -> str:
    """The bank's name in the GM's language, for sentences."""
    return _(BANK_WORDS[bank])


def bank_size(combatant: Combatant, bank: str) -> int:
    """Twice the bank's dexterity attribute (Agility, Charm, Intelligence)."""
    return 2 * max(0, combatant.attribute(DEXTERITY[bank]))


def bank(combatant: Combatant, name: str) -> Pool:
    """The combatant's bank ``name`` (empty if it has none)."""
    return combatant.pools.get(name, Pool(0))


def with_spent(combatant: Combatant, name: str, spent: int) -> Combatant:
    """A copy with the bank's spent dice set (kept between 0 and the bank's size)."""
    pool = bank(combatant, name)
    return combatant.with_pool(name, replace(pool, spent=min(max(0, spent), pool.size)))


def refilled(combatant: Combatant) -> Combatant:
    """Every bank full again (end of the round)."""
    if not any(bank(combatant, name).spent for name in BANKS):
        return combatant
    pools = frozen_map({key: Pool(pool.size) if key in BANKS else pool for key, pool in combatant.pools.items()})
    return replace(combatant, pools=pools)


# --- values kept in Combatant.extra -----------------------------------------------------------------------


def extra_int(combatant: Combatant, key: str, default: int = 0) -> int:
    """A whole number kept in ``extra`` (``default`` when missing or not a number)."""
    value = combatant.extra.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def extra_map(combatant: Combatant, key: str) -> Mapping[str, JsonValue]:
    """A mapping kept in ``extra`` (empty when missing)."""
    value = combatant.extra.get(key)
    return value if isinstance(value, Mapping) else frozen_map()


def with_extra(combatant: Combatant, key: str, value: JsonValue) -> Combatant:
    """A copy with one ``extra`` entry set."""
    return replace(combatant, extra=with_item(combatant.extra, key, value))


def burnt_this_round(combatant: Combatant, name: str) -> int:
    """Stun wounds of the bank's type burnt in the current round."""
    value = extra_map(combatant, BURNT).get(name, 0)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def initiative_dice_chosen(combatant: Combatant) -> int:
    """How many mental dice the character risks on initiative (0 until chosen)."""
    return max(0, extra_int(combatant, INITIATIVE_DICE))


# --- the GM's tables --------------------------------------------------------------------------------------


@cache
def _bundled_text() -> str:
    return resources.files("rules.systems.clovek").joinpath("data.json").read_text(encoding="utf-8")


def bundled_track_sizes() -> dict[str, dict[str, int]]:
    """The shipped track sizes (a fresh copy): {bank: {"stun": n, "wounds": n}}."""
    sizes: dict[str, dict[str, int]] = json.loads(_bundled_text())["track_sizes"]
    return sizes


def read_track_sizes(overrides: object) -> dict[tuple[str, str], int]:
    """The shipped sizes with the GM's overrides merged in; RulesError names a bad entry."""
    sizes = {(name, kind): size for name, kinds in bundled_track_sizes().items() for kind, size in kinds.items()}
    if overrides is None:
        return sizes
    if not isinstance(overrides, Mapping):
        raise RulesError(_("Track sizes must be a table of banks."))
    for name, kinds in overrides.items():
        if name not in BANKS or not isinstance(kinds, Mapping):
            raise RulesError(_("Track sizes: {key!r} is not physical, social or mental.").format(key=name))
        for kind, size in kinds.items():
            sizes[name, kind] = _track_size(f"{name}.{kind}", kind, size)
    return sizes


def _track_size(path: str, kind: object, size: object) -> int:
    if kind not in TRACK_KINDS:
        raise RulesError(_("Track sizes: {key!r} is not stun or wounds.").format(key=path))
    if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= MAX_TRACK:
        raise RulesError(_("Track sizes: {key} must be a whole number from 1 to {limit}.").format(
            key=path, limit=MAX_TRACK))
    return size


def track_sizes(encounter: Encounter) -> dict[tuple[str, str], int]:
    """This encounter's track sizes; a bad override (already refused when set) falls back to the shipped ones."""
    try:
        return read_track_sizes(encounter.options.get("track_sizes"))
    except RulesError:
        return read_track_sizes(None)


def capacity_name(combatant: Combatant, name: str, encounter: Encounter) -> str:
    """What this character's capacity attribute of the bank is called (its own name, the GM's, or the default)."""
    own = extra_map(combatant, CAPACITY_NAMES).get(name)
    if isinstance(own, str) and own.strip():
        return own
    table = encounter.options.get("capacity_names")
    if isinstance(table, Mapping):
        named = table.get(name)
        if isinstance(named, str) and named.strip():
            return named
    return _(CAPACITY_LABELS[name])


def check_capacity_names(value: object) -> None:
    """RulesError unless ``value`` maps social/mental to names."""
    if not isinstance(value, Mapping):
        raise RulesError(_("Capacity names must be a table, e.g. {example}.").format(example='{"social": "Will"}'))
    for key, name in value.items():
        if key not in (SOCIAL, MENTAL) or not isinstance(name, str) or len(name) > 60:
            raise RulesError(_("Capacity names: give “social” and “mental” a name of at most 60 characters."))
