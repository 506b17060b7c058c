"""A generated client, as a front-end developer would make one: openapi-typescript (its defaults)
turns the document the live server serves into types, a small openapi-fetch client plays with them
an open hand of every registered game and a sealed hand at each of its table sizes (every seat its
own client, following its events), ``tsc --noEmit`` type-checks it under ``strict``, and node runs
it against the server. The client has no ``in`` guard, no non-null assertion and no cast: the
types alone must carry it. Versions are pinned in clients/typescript/package-lock.json."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys

import pytest

from service.games.registry import GAMES
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


def substitutions(game_id: str) -> dict[str, str]:
    """What the template leaves to each game: its table sizes, its draw from the hidden stock (the
    private event that puts cards in a hand), one event whose cards everyone sees as they leave a
    hand, and what every event type does to hands (``EventType.hand``, or "to" for a type that
    passes cards to another seat)."""
    info = GAMES[game_id].info
    draws = [name for name, kind in info.event_types.items() if kind.private and kind.hand == 1]
    shown = [name for name, kind in info.event_types.items() if kind.cards and not kind.private and kind.hand == -1]
    assert len(draws) == 1 and shown, (game_id, draws, shown)
    effects = {name: "to" if kind.to else kind.hand for name, kind in info.event_types.items()}
    return {"__GAME__": game_id, "__PREFIX__": prefix(game_id),
            "__PLAYERS__": ", ".join(str(n) for n in info.player_counts),
            "__DRAW__": draws[0], "__SHOWN__": shown[0], "__EFFECTS__": json.dumps(effects)}


def render(generated) -> None:
    """One play function per registered game, from the template, and a main that runs them."""
    template = (CLIENT / "play.template.ts").read_text()
    names = []
    for game_id in sorted(GAMES):
        name = re.sub(r"\W", "_", game_id)
        text = template
        for placeholder, value in substitutions(game_id).items():
            text = text.replace(placeholder, value)
        assert not re.search(r"__[A-Z]+__", text), f"{game_id}: a placeholder left in the template"
        (generated / f"play_{name}.ts").write_text(text)
        names.append((name, prefix(game_id)))
    imports = "".join(f'import {{ play{p} }} from "./play_{n}.js";\n' for n, p in names)
    calls = "".join(f"  await play{p}(baseUrl);\n" for _, p in names)
    (generated / "main.ts").write_text(
        f"{imports}\nconst baseUrl = process.argv[2];\n{calls}console.log(\"all hands played\");\n")


def code_of(source: str) -> str:
    """TypeScript without its comments and the text of its strings (a template literal keeps its
    ``${...}`` expressions), so that prose cannot pass for code or hide it."""
    source = re.sub(r"/\*.*?\*/", " ", source, flags=re.S)
    source = re.sub(r"//[^\n]*", " ", source)
    source = re.sub(r"`[^`]*`", lambda m: " ".join(re.findall(r"\$\{([^}]*)\}", m.group())) or '""', source)
    return re.sub(r"\"[^\"\n]*\"|'[^'\n]*'", '""', source)


FORBIDDEN = {
    # "x" in obj, key in obj (and a for-in loop): narrowing by a property's presence.
    "an `in` guard": re.compile(r"(?:\"\"|[\w$\])])\s+in\s+[\w$(\[]"),
    # obj!.x, f()!, a[0]!; a postfix `!` that is not the start of `!=` / `!==`.
    "a non-null assertion": re.compile(r"[\w$\])]!(?!=)"),
    # x as T, x as const, x as unknown as T.
    "a cast": re.compile(r"[\w$\])\"]\s+as\s+[\w${\[(\"]"),
    # <T>x, the other way to write a cast.
    "an angle-bracket cast": re.compile(r"(?:[=(,:?]|\breturn)\s*<[\w$.\[\]\"| ]+>\s*[\w$(\[]"),
    "an `any`": re.compile(r"\bany\b"),
}
SILENCED = re.compile(r"@ts-(?:ignore|expect-error|nocheck)")  # in a comment: looked for in the source


def forbidden(source: str) -> list[str]:
    """What the source has of the forbidden, each with a little of its context."""
    code = code_of(source)
    found = [f"{name}: {code[max(0, m.start() - 40):m.end() + 20]!r}"
             for name, pattern in FORBIDDEN.items() for m in pattern.finditer(code)]
    return found + [f"a silenced error: {m.group()}" for m in SILENCED.finditer(source)]


def test_the_forbidden_patterns_catch_what_they_forbid_and_nothing_else():
    caught = {
        "an `in` guard": ['if ("state" in data) {}', "if (!('token' in answer)) {}", "const k = key in obj;",
                          "for (const key in state) {}"],
        "a non-null assertion": ["data!.state", "f()!;", "seats[0]!.play()", "g(x!)", "const y = x!\n",
                                 "const n = data! == null;", "a.b!['c']"],
        "a cast": ["const s = x as string;", "const t = [1] as const;", "const u = f() as unknown as T;",
                   'g(x as "a" | "b")', "h(y as Seat[])"],
        "an angle-bracket cast": ["const v = <T>w;", "g(<Seat>seat)", "return <number[]>[];"],
        "an `any`": ["let w: any;", "function f(x: any[]) {}"],
    }
    for name, lines in caught.items():
        for line in lines:
            assert FORBIDDEN[name].search(code_of(line)), (name, line)
    assert forbidden("// @ts-ignore") and forbidden("/* @ts-expect-error */")
    passed = ["if (!answer.data) fail();", "if (a !== b && !c) {}", "if (a != b) {}", "x = !y;", "f(!g(x));",
              "const client = createClient<paths>({ baseUrl });", "for (const seat of seats) {}",
              "fail(`seat ${seat} as in a string`, 'in it!');", '// "state" in data, as a comment',
              'fail("the state in it", "played!");', "/* a cast as T, x!.y */",
              "const t: Record<string, number> = {};", 'type P = NonNullable<S["players"]>;',
              "if (at < 0 || x > y) {}", 'import { play } from "./play.js";', "const many = 1;"]
    for line in passed:
        assert not forbidden(line), (line, forbidden(line))


def test_the_client_narrows_by_its_types_alone():
    for name in ("play.template.ts", "checks.ts"):
        assert not forbidden((CLIENT / name).read_text()), (name, forbidden((CLIENT / name).read_text()))


def test_a_generated_typescript_client_type_checks_and_plays_every_game():
    npm("ci", "--no-audit", "--no-fund")
    generated = CLIENT / "generated"
    shutil.rmtree(generated, ignore_errors=True)
    shutil.rmtree(CLIENT / "build", ignore_errors=True)
    generated.mkdir()
    render(generated)
    (generated / "process.d.ts").write_text("declare const process: { argv: string[] };\n")
    shutil.copy(CLIENT / "checks.ts", generated / "checks.ts")
    with gunicorn() as url:
        npm("exec", "--", "openapi-typescript", f"{url}/openapi.json", "-o", "generated/schema.d.ts")
        schema = (generated / "schema.d.ts").read_text()
        assert "& (unknown | unknown)" not in schema
        npm("exec", "--", "tsc", "-p", "tsconfig.json")  # strict; nothing is emitted on an error
        run = subprocess.run(["node", "build/main.js", url], cwd=CLIENT, capture_output=True, text=True,
                             timeout=600)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-4000:]
    assert run.stdout.strip().endswith("all hands played")
    for game_id, game in GAMES.items():
        assert f"\n{game_id}: " in f"\n{run.stdout}", game_id
        for players in game.info.player_counts:
            assert f"\n{game_id} sealed, {players} players: " in run.stdout, (game_id, players)


def test_the_generated_types_are_the_ones_a_client_wants():
    """Checked on the document the code makes now (the committed openapi.yaml may lag): named
    moves and events, an event union with a discriminator, operation ids, unions on ``legal``,
    no defaults in the document."""
    made = subprocess.run([sys.executable, "-m", "service.spec"], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, check=True)
    document = made.stdout
    for game_id in GAMES:
        p = prefix(game_id)
        operation = p[0].lower() + p[1:]
        assert f"\n    {p}Move:" in document and f"\n    {p}Event:" in document, game_id
        event = re.search(rf"\n    {p}Event:\n((?:      .*\n)+)", document)
        assert event and "\n      discriminator:\n" in f"\n{event.group(1)}", game_id
        assert "\n        propertyName: type\n" in event.group(1), game_id
        assert f"operationId: {operation}Deal\n" in document, game_id
        assert f"operationId: {operation}SealedDeal\n" in document, game_id
        assert f"{p}ValidateLegal:" in document and f"{p}ValidateIllegal:" in document, game_id
        assert f"{p}SealedValidateLegal:" in document and f"{p}SealedValidateIllegal:" in document, game_id
    assert "\n          default:" not in document and "\n        default:" not in document
