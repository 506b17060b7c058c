"""The import graph has the HTTP package on top and no circle anywhere: the rules, the games and
their wire schemas import nothing of Flask or of ``service.api``, a game's rules load neither the
wire nor another game, and no module imports itself through others, with the imports inside
functions counted too (in service/ and in the web client's sources)."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

from service.games.registry import GAMES

ROOT = Path(__file__).resolve().parents[1]
SERVICE = ROOT / "service"
WEB = ROOT / "clients" / "web" / "src"
HTTP = ("flask", "flask_smorest", "werkzeug", "webargs", "apispec", "jsonschema_rs", "fastjsonschema",
        "gunicorn", "service.api")
BELOW_THE_GAMES = ("service.games",)
"""What ``service.wire`` (the games' schema vocabulary) may not import either."""
WIRE_LIBRARIES = ("marshmallow", "flask", "werkzeug")


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


def test_the_cards_are_a_leaf():
    """Cards stand below the errors and the messages, which name cards: ``service.cards`` imports
    nothing of the service (a deck order checked against a deck is ``service.games.decks``)."""
    assert not _offending(SERVICE / "cards.py", ("service",))


# --- circles ------------------------------------------------------------------------------------


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _python_graph(package: Path) -> dict[str, set[str]]:
    """Each module of ``package`` -> the modules of it that it imports, anywhere in its source (in
    a function, under ``TYPE_CHECKING``). ``from a import b`` imports the module ``a.b`` when there
    is one, else ``a`` (as import-linter's grimp counts it); a package's ``__init__`` run on the way
    to one of its modules is not counted, so a package may gather its children."""
    paths = {_module_name(path): path for path in package.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        named: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                named |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                module = _absolute(name, node, is_package=path.name == "__init__.py")
                named |= {f"{module}.{a.name}" if f"{module}.{a.name}" in paths else module for a in node.names}
        graph[name] = {module for module in named if module in paths and module != name}
    return graph


def _absolute(name: str, node: ast.ImportFrom, *, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    package = name.split(".") if is_package else name.split(".")[:-1]
    base = package[:len(package) - node.level + 1]
    return ".".join([*base, *([node.module] if node.module else [])])


_WEB_IMPORT = re.compile(r"""(?:\bimport|\bexport)\b[^;'"]*?\bfrom\s*["'](\.[^"']+)["']"""
                         r"""|\bimport\s*\(?\s*["'](\.[^"']+)["']""")


def _web_graph(source: Path) -> dict[str, set[str]]:
    """Each TypeScript module -> the modules of the client it imports (``import type`` too: a
    circle of types is a circle of meaning, even if the compiler erases it)."""
    graph: dict[str, set[str]] = {}
    for path in sorted(source.glob("*.ts")):
        found = (a or b for a, b in _WEB_IMPORT.findall(path.read_text()))
        graph[path.stem] = {Path(target).name.removesuffix(".ts") for target in found} - {path.stem}
    return graph


def _circles(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's), each sorted."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        order[node] = low[node] = len(order)
        stack.append(node)
        for after in graph.get(node, ()):
            if after not in order:
                visit(after)
                low[node] = min(low[node], low[after])
            elif after in stack:
                low[node] = min(low[node], order[after])
        if low[node] == order[node]:
            component = stack[stack.index(node):]
            del stack[stack.index(node):]
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in order:
            visit(node)
    return found


def test_no_module_of_the_service_imports_itself_through_others():
    assert _circles(_python_graph(SERVICE)) == []


def test_no_module_of_the_web_client_imports_itself_through_others():
    graph = _web_graph(WEB)
    assert len(graph) > 5, "the web client's sources were not found"
    assert _circles(graph) == []


def test_the_circle_check_finds_a_circle():
    """The check is not vacuous: a circle through a function-level import, and one of TypeScript
    types, are found."""
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    tree = ast.parse("def f():\n    from service.cards import card\n")
    function_level = next(n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom))
    assert _absolute("service.errors", function_level, is_package=False) == "service.cards"
    assert _WEB_IMPORT.findall('import type {\n  Json,\n} from "./api";') == [("./api", "")]


# --- a game's rules alone ------------------------------------------------------------------------


def _loaded_after_import(module: str) -> set[str]:
    code = f"import sys, {module}; print(' '.join(sorted(sys.modules)))"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    return set(run.stdout.split())


RULES_MODULES = sorted({f"{type(game).__module__.removesuffix('.game')}.rules" for game in GAMES.values()})
GAME_PACKAGES = {module.removesuffix(".rules") for module in RULES_MODULES}


@pytest.mark.parametrize("module", RULES_MODULES)
def test_a_rules_module_imports_alone_in_a_fresh_interpreter(module):
    """Neither the wire's marshmallow nor Flask nor another game: a game's rules stand on the
    cards, the messages and ``service.games.base`` only."""
    loaded = _loaded_after_import(module)
    own = module.removesuffix(".rules")
    wire = sorted(m for m in loaded if m.split(".")[0] in WIRE_LIBRARIES or m.startswith("service.api"))
    others = sorted(m for m in loaded for game in GAME_PACKAGES - {own} if m == game or m.startswith(game + "."))
    assert (wire, others) == ([], [])


def test_the_registry_imports_without_flask():
    loaded = _loaded_after_import("service.games.registry")
    assert "flask" not in loaded and "service.api" not in loaded


def test_the_check_sees_what_is_imported():
    """The fresh-interpreter check is not vacuous: the HTTP package does load Flask, and the
    registry every game and the wire."""
    assert "flask" in _loaded_after_import("service.api")
    assert {"marshmallow", *GAME_PACKAGES} <= _loaded_after_import("service.games.registry")
    assert len(GAME_PACKAGES) == len(GAMES)
