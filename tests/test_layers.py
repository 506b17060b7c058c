"""The import graph has the HTTP package on top: the rules, the games and their wire schemas
import nothing of Flask or of ``service.api``, so a rules module loads without the web stack."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from service.games import GAMES

SERVICE = Path(__file__).resolve().parents[1] / "service"
HTTP = ("flask", "flask_smorest", "werkzeug", "webargs", "apispec", "jsonschema_rs", "fastjsonschema",
        "gunicorn", "service.api")
BELOW_THE_GAMES = ("service.games",)
"""What ``service.wire`` (the games' schema vocabulary) may not import either."""


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names |= {node.module, *(f"{node.module}.{alias.name}" for alias in node.names)}
    return names


def _modules(package: str) -> list[Path]:
    return sorted((SERVICE / package).rglob("*.py"))


def _offending(path: Path, forbidden: tuple[str, ...]) -> list[str]:
    return sorted(n for n in _imports(path) if any(n == f or n.startswith(f + ".") for f in forbidden))


@pytest.mark.parametrize("path", [*_modules("games"), *_modules("wire"), *_modules("i18n"), *_modules("replay"),
                                  *(SERVICE / name for name in ("cards.py", "errors.py", "config.py", "sealing.py",
                                                                   "slots.py", "metrics.py"))],
                         ids=lambda p: str(p.relative_to(SERVICE)))
def test_nothing_below_the_http_layer_imports_it(path):
    assert not _offending(path, HTTP)


@pytest.mark.parametrize("path", _modules("wire"), ids=lambda p: str(p.relative_to(SERVICE)))
def test_the_schema_vocabulary_stands_below_the_games(path):
    assert not _offending(path, BELOW_THE_GAMES)


def _loaded_after_import(module: str) -> set[str]:
    code = f"import sys, {module}; print(' '.join(sorted(sys.modules)))"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=SERVICE.parent)
    return set(run.stdout.split())


RULES_MODULES = sorted({f"{type(game).__module__}.rules" for game in GAMES.values()})


@pytest.mark.parametrize("module", [*RULES_MODULES, "service.games"])
def test_a_rules_module_imports_in_a_fresh_interpreter_without_flask(module):
    loaded = _loaded_after_import(module)
    assert "flask" not in loaded and "service.api" not in loaded, sorted(
        m for m in loaded if m.split(".")[0] in ("flask", "werkzeug") or m.startswith("service.api"))


def test_the_check_sees_flask_when_it_is_imported():
    """The fresh-interpreter check is not vacuous: the HTTP package does load Flask."""
    assert "flask" in _loaded_after_import("service.api")
