"""A toy game kept under tests/: the smallest complete rules package a new game needs.

A game's package defines ``SYSTEM`` (its :class:`~rules.systems.base.RuleSystem`) and its operations; here it
is registered with :func:`rules.systems.register_system` (see tests/toy_game/__init__.py), a shipped game
lives in ``rules/systems/<id>/`` and is found without registering.
"""

from tests.toy_game.rules.ops import ToyAttack
from tests.toy_game.rules.system import TOY_ID, ToySystem

SYSTEM = ToySystem()
#: The game's own operations (registered on import; the test fixture takes them out again afterwards).
OPERATIONS = (ToyAttack,)

__all__ = ["OPERATIONS", "SYSTEM", "TOY_ID", "ToyAttack", "ToySystem"]
