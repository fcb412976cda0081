"""Ready-made Souboj encounters for the other Souboj tests (and a check that they build as described)."""

from __future__ import annotations

from collections.abc import Mapping

from rules.combatants import AddCombatant
from rules.encounter import Encounter, JsonValue, Side, frozen_map
from rules.history import History
from rules.systems import get_system
from rules.systems.base import RuleSystem
from rules.turns import NextTurn, RollInitiative

SOUBOJ: RuleSystem = get_system("souboj")

#: A small party and two bandits: (name, side, attributes).
PARTY: tuple[tuple[str, Side, dict[str, int]], ...] = (
    ("Aleš", Side.PLAYER, {"strength": 8, "dexterity": 6, "level": 4, "hit_points": 30, "armor": 2,
                           "weapon_strength": 6, "weapon_defence": 3}),
    ("Bora", Side.PLAYER, {"strength": 3, "dexterity": 5, "intelligence": 9, "level": 3, "hit_points": 18}),
    ("Cyril", Side.PLAYER, {"strength": 5, "dexterity": 9, "level": 2, "hit_points": 22, "weapon_strength": 5}),
    ("Bandit", Side.OPPONENT, {"strength": 6, "dexterity": 5, "level": 2, "hit_points": 20, "armor": 1,
                               "weapon_strength": 4, "weapon_defence": 2}),
    ("Chief", Side.OPPONENT, {"strength": 7, "dexterity": 6, "level": 5, "hit_points": 28, "armor": 3,
                              "weapon_strength": 5, "weapon_defence": 3}),
)


def fight(options: Mapping[str, JsonValue] | None = None) -> tuple[History, dict[str, str]]:
    """The five combatants, initiative not rolled yet; ``options`` are set on the empty encounter."""
    history = History(Encounter("souboj", "Ambush at the ford", options=frozen_map(dict(options or {}))))
    ids: dict[str, str] = {}
    for number, (name, side, attributes) in enumerate(PARTY, start=1):
        ids[name] = f"c{number}"
        history.do(AddCombatant(ids[name], name, side, frozen_map(attributes)))
    return history, ids


def roll(history: History, ids: Mapping[str, str], **scores: int) -> None:
    """Roll initiative with the given d6 face per name (everyone named must be able to act)."""
    rolls = {ids[name]: (face,) for name, face in scores.items()}
    history.do(RollInitiative(frozen_map(rolls), frozen_map()))


def names(history: History, combatant_ids: tuple[str, ...]) -> list[str]:
    """Combatant names for ids."""
    return [history.state.combatant(i).name for i in combatant_ids]


def current(history: History) -> list[str]:
    """Names of the group acting now ([] between rounds)."""
    slot = history.state.clock.current
    return names(history, slot.ids) if slot is not None else []


def order(history: History) -> list[tuple[int | None, list[str]]]:
    """(score, names) of every slot still to play, the current one first."""
    return [(slot.phase, names(history, slot.ids)) for slot in SOUBOJ.remaining_slots(history.state)]


def finish_round(history: History) -> None:
    """Press Next until the round is over."""
    while history.state.clock.current is not None:
        history.do(NextTurn())


def test_the_scene_builds_with_the_games_defaults_filled_in() -> None:
    history, ids = fight()
    bora = history.state.combatant(ids["Bora"])
    assert bora.attribute("endurance") == 5  # a default the scene did not give
    assert dict(bora.damage) == {"wounds": 0, "shadow": 0}
    roll(history, ids, Aleš=6, Bora=4, Cyril=4, Bandit=4, Chief=1)
    assert current(history) == ["Aleš"]
    assert order(history) == [(6, ["Aleš"]), (4, ["Bora", "Cyril", "Bandit"]), (1, ["Chief"])]
