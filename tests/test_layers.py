"""Layer rules import-linter cannot express: app/ uses no QtWidgets outside its composition root."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_app_uses_widgets_only_in_main() -> None:
    offenders = [
        str(path.relative_to(ROOT))
        for path in (ROOT / "app").rglob("*.py")
        if path.name != "main.py" and any(name.startswith("PySide6.QtWidgets") for name in _imported_modules(path))
    ]
    assert offenders == []


def test_the_check_would_notice_a_widget_import(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("from PySide6.QtWidgets import QWidget\n", encoding="utf-8")
    assert "PySide6.QtWidgets" in _imported_modules(sample)


def test_every_game_is_kept_apart_from_the_others_by_a_contract() -> None:
    """The independence contracts name the game packages by wildcard, so a new game is covered unedited."""
    import tomllib

    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    independent = [c["modules"] for c in contracts["contracts"] if c["type"] == "independence"]
    assert ["rules.systems.*"] in independent and ["ui.games.*"] in independent


def test_no_generic_module_imports_a_game() -> None:
    """Only a game's own packages, the registries and the self-test import a game's modules."""
    from rules.systems import system_ids

    games = set(system_ids())
    allowed = {"rules/systems/__init__.py", "ui/games/__init__.py", "ui/selftest.py", "app/bundle_check.py"}
    offenders = []
    for layer in ("rules", "app", "ui"):
        for path in (ROOT / layer).rglob("*.py"):
            relative = path.relative_to(ROOT).as_posix()
            if relative in allowed or any(f"/{game}/" in f"/{relative}" for game in games):
                continue
            offenders += [f"{relative}: {name}" for name in _imported_modules(path)
                          if any(name.startswith((f"rules.systems.{game}", f"ui.games.{game}")) for game in games)]
    assert offenders == []
