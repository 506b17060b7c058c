"""Every sentence a player may be shown, as play meets it: each event's ``text`` and each
refusal's ``message``, for random hands of every game at every table size, under each choice of
its options, in both languages, told to each seat, to a spectator and to open mode's onlooker.
None may hold a code: no Latin letter in Russian, no underscore, backtick, section sign or
brace in either language, and no seat counted from 0."""

from __future__ import annotations

import importlib
import random
import re
from collections.abc import Iterator
from dataclasses import fields
from itertools import islice
from typing import Any

import pytest

from service.api import events
from service.api.events import EVERY_SEAT, redacted, spoken, told
from service.cards import SeedStream
from service.errors import IllegalMove
from service.games.base import DealSetup, Game
from service.games.registry import GAMES
from service.i18n import LANGUAGES

LATIN = re.compile(r"[A-Za-z]+")
CODE_MARKS = re.compile(r"[_`§{}]")
SEAT_ZERO = re.compile(r"\b(?:место|места|месту|местом|месте|seat|команда|команды|team|side) 0\b", re.I)
TRIED = 40
"""Moves of every shape tried for a refusal at each position (the game's laws list them)."""


def faults(text: str, lang: str) -> list[str]:
    """What in ``text`` a player should not be shown."""
    found = [f"code mark {mark!r}" for mark in CODE_MARKS.findall(text)]
    found += [f"seat from 0: {match!r}" for match in SEAT_ZERO.findall(text)]
    if lang == "ru":
        found += [f"Latin {word!r}" for word in LATIN.findall(text)]
    if not text.strip():
        found.append("empty")
    return found


def tables(game: Game[Any, Any]) -> Iterator[tuple[int, dict[str, Any]]]:
    """Every table size with the default options, and the smallest with each choice of each option
    that has choices (and each yes/no option turned)."""
    info = game.info
    yield from ((players, {}) for players in info.player_counts)
    players = info.player_counts[0]
    for name, text in info.option_texts.items():
        default = info.options[name]
        if isinstance(default, bool):
            yield players, {name: not default}
        for choice in text.choices:  # a choice's key is its wire value as text: a number's is a number
            if choice != str(default):
                yield players, {name: int(choice) if isinstance(default, int) else choice}


def sentences(game_id: str, players: int, options: dict[str, Any], lang: str, seed: str) -> Iterator[tuple[str, str]]:
    """(where, sentence) for every event and a sample of the refusals of one random hand."""
    game = GAMES[game_id]
    info = game.info
    laws = importlib.import_module(f"tests.games.{game_id.replace('-', '_')}_laws")
    rng = random.Random(seed)
    state = game.deal(DealSetup(players, None, options, None), SeedStream(seed))
    while (seat := game.to_move(state)) is not None:
        for move in islice(laws.universe(state), TRIED):
            try:
                game.check(state, move)
            except IllegalMove as refusal:
                mover = getattr(move, "seat", seat)
                yield f"refusal {refusal.reason}", refusal.message.render(lang, mover, info.vocabulary)
        state, events = game.apply(state, rng.choice(game.legal_moves(state, seat)))
        every = told(info.event_types, events, EVERY_SEAT)
        for event in spoken(info.event_types, every, None, lang, info.vocabulary):
            yield f"open {event['type']}", event["text"]
        for reader in (None, *range(players)):
            for event in spoken(info.event_types, redacted(info.event_types, every, reader), reader, lang,
                                info.vocabulary):
                yield f"seat {reader} {event['type']}", event["text"]


def _configurations() -> list[Any]:
    return [pytest.param(game_id, players, options, id=f"{game_id}-{players}-{'-'.join(map(str, options.values()))}")
            for game_id, game in GAMES.items() for players, options in tables(game)]


@pytest.mark.parametrize(("game_id", "players", "options"), _configurations())
def test_every_sentence_met_in_play_is_for_a_person(game_id, players, options):
    bad: dict[str, str] = {}
    met = 0
    for lang in LANGUAGES:
        for where, text in sentences(game_id, players, options, lang, f"{game_id} {players} {options}"):
            met += 1
            if found := faults(text, lang):
                bad.setdefault(f"{lang} {where}", f"{text!r}: {', '.join(found)}")
    assert met > 0
    assert bad == {}


def test_the_check_finds_a_code_put_back_into_a_catalog(monkeypatch):
    """A mutation: one Russian event sentence given back its code fails the check."""
    from service.i18n import translations

    monkeypatch.setattr(events, "SAID", {})  # no sentence written before the mutation
    catalog = translations("ru")
    game = GAMES["sixty-six"]
    saying = game.info.event_types["card_played"].says
    real = catalog.gettext
    monkeypatch.setattr(catalog, "gettext",
                        lambda message: "{seat}: card_played {cards:acc}" if message == saying.other else real(message))
    found = [text for lang in ("ru",) for where, text in sentences("sixty-six", 2, {}, lang, "mutation")
             if faults(text, lang)]
    assert found


@pytest.mark.parametrize("text", ["Место 0 кладёт даму пик", "хода discard нет", "Seat 1 plays AS",
                                  "см. §4.3", "опция `moscow`", "{seat} берёт"])
def test_the_check_knows_a_code_when_it_sees_one(text):
    assert faults(text, "ru")


def test_a_dataclass_move_names_its_seat():
    """Refusals are said to the seat that tried the move: every game's moves name it."""
    for game_id in GAMES:
        laws = importlib.import_module(f"tests.games.{game_id.replace('-', '_')}_laws")
        game = GAMES[game_id]
        state = game.deal(DealSetup(game.info.player_counts[0], None, {}, None), SeedStream("seat"))
        move = next(iter(laws.universe(state)))
        assert "seat" in {f.name for f in fields(move)}
