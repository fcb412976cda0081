"""Sample encounters shipped in ``resources/samples`` (one per game), and the code that writes them.

Each game builds its own sample (:meth:`~rules.systems.base.RuleSystem.sample`); this module only writes and
reads the files.

``python -m app.samples`` regenerates the files; a test checks the shipped files equal what this builds,
so a sample can never drift out of step with the rules.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from app.paths import resource
from rules.history import History
from rules.serialize import history_to_document
from rules.systems import all_systems
from rules.systems.base import RuleSystem

SAMPLES_DIR = "samples"

def _builders() -> dict[str, Callable[[], History]]:
    """Every game that ships a sample fight: game id → the function that builds it."""
    return {system_id: system.sample for system_id, system in all_systems().items()
            if type(system).sample is not RuleSystem.sample}


def __getattr__(name: str) -> Any:
    """``SAMPLES`` (game id → builder) is built on first use: start-up needs only :func:`sample_path`."""
    if name == "SAMPLES":
        return samples()
    raise AttributeError(name)


@cache
def samples() -> dict[str, Callable[[], History]]:
    """Game id → the function that builds its sample fight (imports every game)."""
    return _builders()


def sample_path(system_id: str) -> Path:
    """Where the sample for a game ships."""
    return resource(SAMPLES_DIR, f"{system_id}.bojovka")


def sample_title(system_id: str) -> str:
    """The sample fight's own name, read from the shipped file (falls back to the game id)."""
    try:
        document = json.loads(sample_path(system_id).read_text(encoding="utf-8"))
        return str(document["state"]["name"]) or system_id
    except (OSError, ValueError, KeyError, TypeError):
        return system_id


def sample_text(system_id: str) -> str:
    """The sample file's exact content."""
    return json.dumps(history_to_document(samples()[system_id]()), ensure_ascii=False, indent=1) + "\n"


def main() -> int:
    """Write every sample into resources/samples."""
    for system_id in samples():
        path = sample_path(system_id)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(sample_text(system_id), encoding="utf-8")
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
