"""A scripted SR3 fight run through EncounterDocument + Journal, to be killed with SIGKILL by the crash test.

``python -m tests.app.crash_worker --seed S --steps N --file PATH`` prints ``ready`` once the document and its
journal exist, then ``done <entries> <step>`` (flushed) after each completed step: ``entries`` is the number of
history entries after the change, ``step`` the script index. Steps are operations, undos, redos (through
the document's undo stack, as Edit → Undo does) and saves (save_encounter + mark_saved, which restarts the journal with
the bytes saved). With ``--open`` the fight starts as a file opened (its journal's header: the file's bytes).
The script is deterministic: :func:`build_script` gives the test the very same steps, and
:func:`expected_operations` the operations in effect after each one. A complete run closes the journal
normally and prints ``finished``.

``python -m tests.app.crash_worker --restore`` is the next start instead: the workspace restores the one fight
offered (the GM answered Yes), prints ``restored <entries> <writes>`` and waits to be killed without doing
anything more. With ``--die-at-write N`` it kills itself (SIGKILL) just before the N-th write of that restore to
the disk (a write, fsync, truncation, rename, link or deletion): a crash inside the restore.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from rules.combatants import ApplyHarm
from rules.dice import Roller
from rules.errors import RulesError
from rules.history import History, Operation
from rules.systems import get_system
from rules.systems.sr3 import Sr3Attack
from rules.turns import DelayAction, NextTurn, roll_initiative
from tests.rules.sr3_scenes import eight_characters

SR3 = get_system("sr3")


@dataclass(frozen=True)
class Step:
    """One thing the GM does: ``do`` an operation, ``undo``, ``redo`` or ``save``."""

    kind: str
    operation: Operation | None = None


def _faces(rng: random.Random, count: int) -> tuple[tuple[int, ...], ...]:
    """SR3 dice: a six is rolled again and added to its chain."""
    chains = []
    for _index in range(count):
        chain = [rng.randint(1, 6)]
        while chain[-1] == 6 and len(chain) < 4:
            chain.append(rng.randint(1, 6))
        chains.append(tuple(chain))
    return tuple(chains)


def _candidate(history: History, ids: Sequence[str], rng: random.Random) -> Step:
    state = history.state
    if history.can_redo and rng.random() < 0.35:  # GMs redo right after an undo, if at all
        return Step("redo")
    slot = state.clock.current
    if slot is None:
        return Step("do", roll_initiative(state, SR3, Roller(rng)))
    actor = slot.ids[0]
    roll = rng.random()
    if roll < 0.40:
        return Step("do", NextTurn())
    if roll < 0.55:
        target, track = rng.choice(ids), rng.choice(("stun", "physical"))
        # The badly hurt get first aid, so a long fight keeps most characters standing.
        amount = -2 if state.combatant(target).boxes(track) >= 5 else rng.randint(1, 3)
        return Step("do", ApplyHarm(target, track, amount, "script"))
    if roll < 0.65:
        target = rng.choice([i for i in ids if i != actor] or list(ids))
        return Step("do", Sr3Attack(actor, target, "Uzi III", 6, "M", 4, _faces(rng, rng.randint(2, 6)), 6,
                                    _faces(rng, rng.randint(1, 5))))
    if roll < 0.68:
        return Step("do", DelayAction(actor, into_next_pass=rng.random() < 0.5))
    if roll < 0.80:
        return Step("undo")
    if roll < 0.92:
        return Step("redo")
    if roll < 0.95:
        return Step("do", ApplyHarm(rng.choice(ids), "stun", -rng.randint(1, 2), "first aid"))
    return Step("save")


def _simulate(history: History, step: Step, floor: int) -> bool:
    """Apply ``step`` to ``history`` if the GM could do it now; False if it does not fit."""
    if step.kind == "do":
        assert step.operation is not None
        try:
            history.do(step.operation)
        except RulesError:
            return False
        return True
    if step.kind == "undo":
        return len(history.entries) > floor and history.undo() is not None  # never undo the roster itself
    if step.kind == "redo":
        return history.redo() is not None
    return True


def build_script(seed: int, steps: int, only_operations: bool = False) -> list[Step]:
    """``steps`` valid steps of a fight among the seed's eight characters, the same for every ``seed``.

    ``only_operations``: no undo, redo or save steps (a long fight for the storage tests).
    """
    history, named = eight_characters()
    ids = list(named.values())
    floor = len(history.entries)
    rng = random.Random(seed)
    script: list[Step] = []
    while len(script) < steps:
        step = _candidate(history, ids, rng)
        if only_operations and step.kind != "do":
            continue
        if _simulate(history, step, floor):
            script.append(step)
    return script


def expected_operations(script: Sequence[Step]) -> list[tuple[Operation, ...]]:
    """The operations in effect before the script (index 0) and after each step (index k + 1)."""
    history, _ids = eight_characters()
    result = [tuple(entry.operation for entry in history.entries)]
    for step in script:
        assert _simulate(history, step, 0)
        result.append(tuple(entry.operation for entry in history.entries))
    return result


def run(seed: int, steps: int, file: Path, opened: bool = False) -> None:
    """Play the script through the app layer, reporting each completed step on stdout.

    ``opened``: the fight is first saved to ``file`` and opened from it, as Workspace.open does (the journal's
    header is then the file's own bytes); else it is a new fight, never saved.
    """
    from app.document import EncounterDocument
    from app.recovery import Journal
    from app.storage import open_encounter, save_encounter

    script = build_script(seed, steps)
    history, _ids = eight_characters()
    journal = Journal.start(history, None)
    document = EncounterDocument(history, None, journal)
    if opened:
        save_encounter(history, file)
        loaded, sealed = open_encounter(file)
        assert sealed is not None
        document.replace_history(loaded, file, sealed=sealed)
    print("ready", flush=True)
    for index, step in enumerate(script):
        if step.kind == "do":
            assert step.operation is not None
            document.apply(step.operation)
        elif step.kind == "undo":
            document.undo_stack.undo()
        elif step.kind == "redo":
            document.undo_stack.redo()
        else:
            document.mark_saved(file, save_encounter(document.history, file))
        print(f"done {len(document.history.entries)} {index}", flush=True)
    journal.close()
    print("finished", flush=True)


#: The os functions through which a restore changes the disk.
WRITES = ("write", "fsync", "ftruncate", "replace", "rename", "link", "unlink")


def die_at_write(number: int | None) -> Callable[[], int]:
    """From now on, count the writes to the disk and die just before the ``number``-th; returns the count so far."""
    count = 0

    def counted(real: Callable[..., object]) -> Callable[..., object]:
        def write(*args: object, **kwargs: object) -> object:
            nonlocal count
            count += 1
            if count == number:
                os.kill(os.getpid(), signal.SIGKILL)
            return real(*args, **kwargs)

        return write

    for name in WRITES:
        setattr(os, name, counted(getattr(os, name)))
    return lambda: count


def restore(number: int | None) -> None:
    """The start after a crash, the GM answering Yes: restore the one fight offered, then do nothing."""
    from app.workspace import Workspace

    workspace = Workspace()
    (candidate,) = workspace.recoverable()
    writes = die_at_write(number)
    workspace.recover(candidate)
    print(f"restored {len(workspace.document.history.entries)} {writes()}", flush=True)
    time.sleep(3600)  # the test kills it here: "kill right after restore"


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: --seed, --steps, --file."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--file", type=Path)
    parser.add_argument("--open", action="store_true", help="open the fight from --file first")
    parser.add_argument("--restore", action="store_true", help="restore the fight a crash left, then wait")
    parser.add_argument("--die-at-write", type=int, help="with --restore: die at this write of the restore")
    args = parser.parse_args(argv)
    if args.restore:
        restore(args.die_at_write)
    elif args.file is None:
        parser.error("--file is required to run the script")
    else:
        run(args.seed, args.steps, args.file, args.open)
    return 0


if __name__ == "__main__":
    sys.exit(main())
