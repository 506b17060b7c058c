"""`make messages`: the Russian catalogs, with Babel. Each part of the service has its own
catalog beside its code: the service's (``service/i18n/locale/ru/LC_MESSAGES/messages.po``) and one
per game (``service/games/<game>/messages.ru.po``), so that adding a game touches its package.

- extract: every message id of a part: its sources' ``N_("...")``, ``Text("...")``,
  ``refuse(reason, "...")`` and error calls (``InvalidState("/to_move", "...")``), and, for a
  game, every sentence its ``GET /v1/games/{game}`` shows (``_described``);
- update: each catalog takes the new ids (untranslated) and drops the ones gone, keeping every
  translation it has;
- compile: all catalogs into the one ``messages.mo`` the service reads.

``python -m tools.messages update <game>`` updates one game's catalog only (``update service``, the
service's own), and compiles nothing.
``python -m tools.messages check`` exits non-zero when a message id lacks its Russian form or the
compiled catalog is not the catalogs' (``tests/test_i18n.py`` runs the same check).
"""

from __future__ import annotations

import io
import sys
from collections.abc import Iterable, Iterator
from contextlib import redirect_stderr
from datetime import UTC, datetime
from pathlib import Path
from string import Formatter
from typing import NamedTuple

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
SERVICE = ROOT / "service"
CORE_PO = SERVICE / "i18n" / "locale" / "ru" / "LC_MESSAGES" / "messages.po"
HOST = ROOT / "host"
HOST_PO = HOST / "messages.ru.po"
MO = CORE_PO.with_suffix(".mo")

MessageId = str | tuple[str, str]
"""A sentence, or a count's sentence: its singular and plural."""


class Found(NamedTuple):
    """A message id, where it was found, and its context (the case of a counted noun)."""

    id: MessageId
    where: str
    context: str | None = None


def keywords() -> dict[str, tuple[int, ...] | None]:
    """The calls whose literal sentence is a message id: ``N_``, ``Text``, ``refuse``, and every
    error of ``service.errors`` (its detail first, or its pointer then its sentence, as a
    ``FieldError``'s)."""
    from host import errors as host_errors
    from service import errors

    found: dict[str, tuple[int, ...] | None] = {
        "N_": None, "Text": (1,), "refuse": (2,), "refuse_counted": (2, 3), "FieldError": (2,),
        "_violation": (2,)}
    for name, cls in {**vars(errors), **vars(host_errors)}.items():
        if isinstance(cls, type) and issubclass(cls, errors.ServiceError):
            found[name] = (2,) if issubclass(cls, (errors.Located, errors.OverBudget)) else (1,)
    return found


def _extracted(paths: Iterable[Path]) -> Iterator[Found]:
    spec = keywords()
    for path in paths:
        with redirect_stderr(io.StringIO()):  # Babel's notes on f-strings: at an error's call, its pointer
            found = list(extract_from_file("python", path, keywords=spec))
        for _line, message, _comments, _context in found:
            if isinstance(message, tuple) and len(message) == 2 and all(isinstance(m, str) for m in message):
                yield Found((message[0], message[1]), str(path.relative_to(ROOT)))
            elif isinstance(message, str) and message:
                yield Found(message, str(path.relative_to(ROOT)))


def _counted() -> Iterator[Found]:
    """Every counted noun's phrase in every case (``service.i18n.text.NOUNS``)."""
    from service.i18n.cards import CASES
    from service.i18n.text import NOUNS

    for noun, phrases in NOUNS.items():
        yield from (Found(phrases, f"nouns.{noun}.{case}", case) for case in CASES)


def _described(game_id: str) -> Iterator[tuple[str, str]]:
    """Every sentence ``GET /v1/games/{game}`` shows of the game: its deck, its reasons' rule
    citations, its options (and their choices), moves, events and the values of ``kind``."""
    from service.games.registry import GAMES

    info = GAMES[game_id].info
    yield info.about_deck, f"{game_id}.deck"
    for reason in info.reasons:
        yield reason.rule, f"{game_id}.reasons.{reason.value}"
    for name, option in info.option_texts.items():
        yield option.description, f"{game_id}.options.{name}"
        yield from ((label, f"{game_id}.options.{name}.{value}") for value, label in option.choices.items())
    yield from ((doc, f"{game_id}.moves.{kind}") for kind, doc in info.move_texts.items())
    yield from ((event.doc, f"{game_id}.events.{kind}") for kind, event in info.event_types.items())
    for kind, event in info.event_types.items():
        yield from ((text, f"{game_id}.events.{kind}.says") for text in event.says.texts())
    yield from ((text, f"{game_id}.kinds.{value}") for value, text in info.kind_texts.items())


def _packages() -> dict[str, Path]:
    """Each package under service/games (a game's, or one the games share, as ``tricks``), by
    its game id or its name."""
    from service.games.registry import GAMES

    games = {Path(sys.modules[type(game).__module__].__file__ or "").parent: game_id
             for game_id, game in GAMES.items()}
    folders = sorted(p for p in (SERVICE / "games").iterdir() if (p / "__init__.py").exists())
    return {games.get(folder, folder.name): folder for folder in folders}


def parts() -> dict[Path, list[Found]]:
    """Each catalog's path and the message ids its part of the service has: each package under
    service/games (with a game's reasons), the rest of the service, and the table host."""
    from service.games.registry import GAMES

    packages = _packages()
    core = (p for p in sorted(SERVICE.rglob("*.py")) if not any(d in p.parents for d in packages.values()))
    found = {CORE_PO: [*_extracted(core), *_counted()], HOST_PO: list(_extracted(sorted(HOST.rglob("*.py"))))}
    for name, package in packages.items():
        reasons = [Found(*t) for t in _described(name) if t[0]] if name in GAMES else []
        found[package / "messages.ru.po"] = [*_extracted(sorted(package.rglob("*.py"))), *reasons]
    return found


def _read(path: Path) -> Catalog:
    if not path.exists():
        return Catalog(locale="ru", domain="messages", project="card-rules-service")
    with path.open("rb") as handle:
        return read_po(handle, locale="ru")


def update(only: str | None = None) -> None:
    """Every catalog (or only the game ``only``'s) takes its part's message ids."""
    for path, messages in parts().items():
        name = {CORE_PO: "service", HOST_PO: "host"}.get(path, path.parent.name)
        if only is not None and name != only.replace("-", "_"):
            continue
        template = Catalog(locale="ru", domain="messages")
        for message, where, context in messages:
            template.add(message, locations=[(where, 0)], context=context)
        catalog = _read(path)
        catalog.update(template, no_fuzzy_matching=True)
        catalog.obsolete.clear()
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as handle:
            write_po(handle, catalog, width=110, omit_header=False, sort_output=True, include_lineno=False)


def merged() -> Catalog:
    """Every catalog's translations in one; its header fixed, so that the same catalogs always
    compile to the same bytes."""
    fixed = datetime(2026, 1, 1, tzinfo=UTC)
    catalog = Catalog(locale="ru", domain="messages", project="card-rules-service", version="1",
                      creation_date=fixed, revision_date=fixed, fuzzy=False)
    for path in parts():
        for message in _read(path):
            if message.id and _translated(message.string):
                catalog.add(message.id, message.string, context=message.context)
    return catalog


def compile_all() -> None:
    with MO.open("wb") as handle:
        write_mo(handle, merged())


def _forms(string: str | tuple[str, ...] | list[str] | None) -> tuple[str, ...]:
    """A catalog's string as its forms: one, or a count's plural forms."""
    if string is None:
        return ()
    return (string,) if isinstance(string, str) else tuple(string)


def _translated(string: str | tuple[str, ...] | list[str] | None) -> bool:
    """Whether a catalog's string is there, every plural form of it."""
    forms = _forms(string)
    return bool(forms) and all(forms)


def _names(template: str | tuple[str, ...] | list[str] | None) -> set[str]:
    """The values a template names: ``{card:gen}`` names ``card``."""
    return {name for form in _forms(template) for _, name, _, _ in Formatter().parse(form) if name}


def missing() -> list[str]:
    """Every message id without its Russian form, a translation that names a value its id does
    not give, one id translated two ways, and a stale compiled catalog."""
    gaps = []
    for path, messages in parts().items():
        translated = {(m.id, m.context): m.string for m in _read(path) if m.id}
        gaps += [f"{path.relative_to(ROOT)}: {message!r} ({where})" for message, where, context in messages
                 if not _translated(translated.get((message, context), ""))]
    for path in parts():  # a name the English does not give would fail the answer (a KeyError)
        for message in _read(path):
            named = _names(message.string) <= _names(message.id)
            if message.id and _translated(message.string) and not named:
                gaps.append(f"{path.relative_to(ROOT)}: {message.string!r} names a value "
                            f"{message.id!r} does not give")
    said: dict[tuple[object, str | None], tuple[tuple[str, ...], Path]] = {}
    for path in parts():
        for message in _read(path):
            if message.id and _translated(message.string):
                first = said.setdefault((message.id, message.context), (_forms(message.string), path))
                if first[0] != _forms(message.string):
                    gaps.append(f"{message.id!r} is {first[0]!r} in {first[1].relative_to(ROOT)} but "
                                f"{message.string!r} in {path.relative_to(ROOT)}: one id, one translation")
    compiled = io.BytesIO()
    write_mo(compiled, merged())
    if not MO.exists() or MO.read_bytes() != compiled.getvalue():
        gaps.append(f"{MO.relative_to(ROOT)} is not the catalogs compiled: run `make messages`")
    return gaps


if __name__ == "__main__":
    command = sys.argv[1:] or ["update"]
    if command == ["check"]:
        gaps = missing()
        print("\n".join(gaps) or "every message has its Russian form")
        sys.exit(1 if gaps else 0)
    if command[0] == "update":  # `update <game>`: that game's catalog only, not compiled
        update(command[1] if len(command) > 1 else None)
        if len(command) == 1:
            compile_all()
