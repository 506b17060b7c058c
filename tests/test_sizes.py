"""Small modules, small functions (STYLE.md, "Habits" 9): no module of service/ over 500 lines, no
function of 40 lines or more, so that each reads on a screen or two."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SERVICE = Path(__file__).resolve().parents[1] / "service"
MODULE_LINES = 500
FUNCTION_LINES = 40
"""A function is too long when its last line is this many lines after its first, or more."""
MODULES = sorted(SERVICE.rglob("*.py"))


def _name(path: Path) -> str:
    return path.relative_to(SERVICE).as_posix()


def _long_functions(source: str) -> list[str]:
    return [f"{node.name} ({node.end_lineno - node.lineno + 1} lines)" for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            and node.end_lineno is not None and node.end_lineno - node.lineno >= FUNCTION_LINES]


@pytest.mark.parametrize("path", MODULES, ids=_name)
def test_a_module_is_small_and_so_are_its_functions(path):
    source = path.read_text()
    assert len(source.splitlines()) <= MODULE_LINES
    assert _long_functions(source) == []


def test_a_long_function_is_found():
    body = "\n".join(f"    x = {i}" for i in range(FUNCTION_LINES))
    assert _long_functions(f"def f():\n{body}\n") == [f"f ({FUNCTION_LINES + 1} lines)"]
    assert _long_functions(f"def f():\n{body[:-len('    x = 39') - 1]}\n") == []
