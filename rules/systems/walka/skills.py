"""Walka's skills and which defence answers which attack: the bundled ``data.json`` here, and GM overrides.

The attacker rolls a combat skill (Firearms, Melee weapons, Brawling, Interface); the defender rolls Dodge,
Parry (against melee weapons) or Concentration (against cyber-attacks). Which defences answer which attack
is a data table the GM may override per attack skill (option ``defences``); the names stay in code so that
they are translated.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Final

from rules.errors import RulesError
from rules.text import N_, _

FIREARMS, MELEE, BRAWLING, INTERFACE = "firearms", "melee", "brawling", "interface"
DODGE, PARRY, CONCENTRATION = "dodge", "parry", "concentration"

ATTACK_SKILLS: Final[Mapping[str, str]] = MappingProxyType({
    FIREARMS: N_("Firearms"),
    MELEE: N_("Melee weapons"),
    BRAWLING: N_("Brawling"),
    INTERFACE: N_("Interface"),
})
DEFENCE_SKILLS: Final[Mapping[str, str]] = MappingProxyType({
    DODGE: N_("Dodge"),
    PARRY: N_("Parry"),
    CONCENTRATION: N_("Concentration"),
})

Defences = Mapping[str, tuple[str, ...]]


def _bundled_text() -> str:
    return resources.files("rules.systems.walka").joinpath("data.json").read_text(encoding="utf-8")


def bundled_defences() -> dict[str, list[str]]:
    """A fresh copy of the bundled table (attack skill → defence skills), e.g. for a settings editor."""
    data = json.loads(_bundled_text())
    return {key: list(value) for key, value in data["defences"].items()}


@cache
def _default_defences() -> Defences:
    return _checked(bundled_defences())


def _checked(table: Mapping[str, object]) -> Defences:
    checked: dict[str, tuple[str, ...]] = {}
    for skill, defences in table.items():
        if skill not in ATTACK_SKILLS:
            raise RulesError(_("defences.{skill}: there is no attack skill {skill!r}.").format(skill=skill))
        if not isinstance(defences, list | tuple) or not all(isinstance(item, str) for item in defences):
            raise RulesError(_("defences.{skill}: expected a list of defence skills.").format(skill=skill))
        unknown = [item for item in defences if item not in DEFENCE_SKILLS]
        if unknown:
            raise RulesError(_("defences.{skill}: there is no defence skill {name!r}.").format(
                skill=skill, name=unknown[0]))
        checked[skill] = tuple(dict.fromkeys(defences))
    return MappingProxyType(checked)


def load_defences(overrides: Mapping[str, object] | None = None) -> Defences:
    """Attack skill → the defence skills that answer it, with the GM's overrides (skill by skill)."""
    if not overrides:
        return _default_defences()
    return _checked({**bundled_defences(), **overrides})


def attack_skill_label(skill: str) -> str:
    """The translated name of an attack skill (the key itself if unknown)."""
    return _(ATTACK_SKILLS[skill]) if skill in ATTACK_SKILLS else skill


def defence_skill_label(skill: str) -> str:
    """The translated name of a defence skill (the key itself if unknown)."""
    return _(DEFENCE_SKILLS[skill]) if skill in DEFENCE_SKILLS else skill
