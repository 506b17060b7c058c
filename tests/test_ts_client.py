"""A generated client, as a front-end developer would make one: openapi-typescript (its defaults)
turns the document the live server serves into types, a small openapi-fetch client plays a hand
of every registered game with them, ``tsc --noEmit`` type-checks it, and node runs it against the
server. Versions are pinned in clients/typescript/package-lock.json."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from service.games import GAMES
from tests.live import ROOT, gunicorn

pytestmark = pytest.mark.xdist_group("live")
CLIENT = ROOT / "clients" / "typescript"


def npm(*args: str, timeout: int = 600) -> subprocess.CompletedProcess[str]:
    found = shutil.which("npm")
    assert found, "Node.js and npm are needed: `make test` installs them from Debian when missing"
    run = subprocess.run([found, *args], cwd=CLIENT, capture_output=True, text=True, timeout=timeout)
    assert run.returncode == 0, f"npm {' '.join(args)}:\n{run.stdout[-4000:]}\n{run.stderr[-4000:]}"
    return run


def prefix(game_id: str) -> str:
    return "".join(word.title() for word in game_id.split("-"))


def render(generated) -> None:
    """One play function per registered game, from the template, and a main that runs them."""
    template = (CLIENT / "play.template.ts").read_text()
    names = []
    for game_id in sorted(GAMES):
        name = re.sub(r"\W", "_", game_id)
        (generated / f"play_{name}.ts").write_text(
            template.replace("__GAME__", game_id).replace("__PREFIX__", prefix(game_id)))
        names.append((name, prefix(game_id)))
    imports = "".join(f'import {{ play{p} }} from "./play_{n}.js";\n' for n, p in names)
    calls = "".join(f"  await play{p}(baseUrl);\n" for _, p in names)
    (generated / "main.ts").write_text(
        f"{imports}\nconst baseUrl = process.argv[2];\n{calls}console.log(\"all hands played\");\n")


def test_a_generated_typescript_client_type_checks_and_plays_every_game():
    npm("ci", "--no-audit", "--no-fund")
    generated = CLIENT / "generated"
    shutil.rmtree(generated, ignore_errors=True)
    generated.mkdir()
    render(generated)
    (generated / "process.d.ts").write_text("declare const process: { argv: string[] };\n")
    shutil.copy(CLIENT / "checks.ts", generated / "checks.ts")
    with gunicorn() as url:
        npm("exec", "--", "openapi-typescript", f"{url}/openapi.json", "-o", "generated/schema.d.ts")
        schema = (generated / "schema.d.ts").read_text()
        assert "& (unknown | unknown)" not in schema
        npm("exec", "--", "tsc", "--noEmit", "-p", "tsconfig.json")
        npm("exec", "--", "tsc", "-p", "tsconfig.json")
        run = subprocess.run(["node", "build/main.js", url], cwd=CLIENT, capture_output=True, text=True,
                             timeout=300)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-4000:]
    assert run.stdout.strip().endswith("all hands played")
    assert all(f"{game_id}: " in run.stdout for game_id in GAMES)


def test_the_generated_types_are_the_ones_a_client_wants():
    """Checked on the committed document: named moves, operation ids, a union on ``legal``,
    defaulted request fields optional."""
    document = (ROOT / "openapi.yaml").read_text()
    for game_id in GAMES:
        p = prefix(game_id)
        assert f"{p}Move:" in document and f"operationId: {p[0].lower() + p[1:]}Deal" in document
        assert f"{p}ValidateLegal" in document and f"{p}ValidateIllegal" in document
    assert "\n          default:" not in document and "\n        default:" not in document
