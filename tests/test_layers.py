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
