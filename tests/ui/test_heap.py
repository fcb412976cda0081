"""Opening a fight freezes the heap (app.storage.settle_heap): nothing may be left frozen that is garbage."""

from __future__ import annotations

import gc

from app.samples import sample_path
from app.storage import load_encounter
from tests.ui.conftest import WindowFactory


def test_opening_fights_again_and_again_leaves_no_frozen_garbage(open_window: WindowFactory) -> None:
    """Each open freezes what is alive then; the fight it replaces is freed by its reference counts alone (no
    cycle among its objects waits in the frozen heap), so a GM opening fight after fight keeps no old one."""
    window = open_window(sample="sr3")
    gc.unfreeze()
    gc.collect()  # what earlier tests and the first window left
    for game in ("walka", "souboj", "institut", "clovek", "sr3"):
        window.document.replace_history(load_encounter(sample_path(game)), None)
        window.show_fight()
        assert gc.get_freeze_count() > 0  # the open froze the heap
    gc.unfreeze()
    assert gc.collect() == 0
