"""``evolve`` builds the same state as ``dataclasses.replace``, only faster."""

from __future__ import annotations

import dataclasses

import pytest

from rules.encounter import Clock, Combatant, Encounter, Initiative, Side, Slot, SlotKind, frozen_map
from rules.frozen import evolve


@dataclasses.dataclass(frozen=True)
class _Checked:
    value: int

    def __post_init__(self) -> None:
        if self.value < 0:
            raise ValueError("negative")


def _fighter() -> Combatant:
    return Combatant("c1", "Twitch", Side.PLAYER, frozen_map({"reaction": 5}))


@pytest.mark.parametrize(("instance", "changes"), [
    (Clock(), {"round": 3, "acted": frozenset({"c1"})}),
    (Clock(round=2, pass_no=1), {"current": Slot(SlotKind.ACTORS, ("c1",), 12)}),
    (_fighter(), {"name": "Wedge", "initiative": Initiative(5, (3,), (2,))}),
    (Encounter("sr3", "Ambush"), {"serial": 4, "notes": "rain"}),
])
def test_evolve_equals_replace(instance: object, changes: dict[str, object]) -> None:
    evolved, replaced = evolve(instance, **changes), dataclasses.replace(instance, **changes)  # type: ignore[type-var]
    assert evolved == replaced and type(evolved) is type(replaced)
    if isinstance(instance, Clock):  # the only one of them without mappings inside, so hashable
        assert hash(evolved) == hash(replaced)
    assert evolved != instance  # a copy: the original is untouched
    for name, value in changes.items():
        assert getattr(evolved, name) is value


def test_an_unknown_field_is_refused_as_replace_refuses_it() -> None:
    with pytest.raises(TypeError, match="no field 'rounds'"):
        evolve(Clock(), rounds=3)


def test_a_class_that_checks_itself_is_still_checked() -> None:
    with pytest.raises(ValueError, match="negative"):
        evolve(_Checked(1), value=-1)
