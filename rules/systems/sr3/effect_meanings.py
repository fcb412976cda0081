"""What an SR3 effect can mean to the attack dialog: a visibility row of the ranged-modifier table.

Smoke, fog, rain, darkness and glare are rows of the digest's visibility table ("Visibility (normal | low-light |
thermographic)"), so an effect meaning one presets the dialog's visibility. Wounds and stun are not effects here:
the condition monitor already gives the wound modifier the form fills in (SR3 core), and the digest gives no other
TN modifier an effect could carry.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from rules.encounter import Effect
from rules.systems.base import EffectMeaning
from rules.systems.sr3.tables import VISIBILITY_LABELS, Sr3Tables, Vision
from rules.text import N_

#: Visibility rows an effect may stand for, in the order the GM is offered them: a typed "Smoke" or "Fog" is
#: light smoke (the first row naming it), "Darkness" full darkness.
EFFECT_VISIBILITY_ROWS: Final[tuple[str, ...]] = (
    "light_smoke", "heavy_smoke", "thermal_smoke", "mist", "full_darkness", "minimal_light", "partial_light",
    "glare",
)

SETS_VISIBILITY: Final[str] = N_("Presets the visibility of the attack dialog.")

MEANINGS: Final[tuple[EffectMeaning, ...]] = tuple(
    EffectMeaning(row, VISIBILITY_LABELS[row], SETS_VISIBILITY) for row in EFFECT_VISIBILITY_ROWS)


def worst_visibility(effects: Iterable[Effect], tables: Sr3Tables, vision: Vision) -> tuple[Effect, str] | None:
    """The effect whose visibility row is worst for ``vision`` (the first of equals) and that row, if any.

    Rows the GM's tables no longer have are passed over: the dialog cannot offer them.
    """
    worst: tuple[Effect, str] | None = None
    for effect in effects:
        row = effect.meaning
        if row not in EFFECT_VISIBILITY_ROWS or row not in tables.visibility:
            continue
        if worst is None or tables.visibility[row][vision] > tables.visibility[worst[1]][vision]:
            worst = (effect, row)
    return worst
