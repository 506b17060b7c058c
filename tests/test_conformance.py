"""The all-games suite: every registered game, played at random through the Game interface.

Each hand checks, after every move: the state survives its wire form (so the consistency check,
card conservation included, passes), the seat to move has a legal move until the hand ends, the
legal-moves list and ``check`` agree, views hide what they must. Finished hands are scored and
checked against the game's score invariants.

What is particular to a game (what it hides from a seat, what its score must satisfy, every move
of every shape) is its laws module, ``tests/games/<pkg>_laws.py`` next to its rule table, found
from the registry alone: ``<pkg>`` is the last part of the game's package name. Nothing here
names a game.
"""

from __future__ import annotations

import importlib
import inspect
import random
from collections import Counter
from functools import cache
from types import ModuleType
from typing import Any

import pytest
from marshmallow.validate import OneOf

from service.cards import CARDS, SeedStream
from service.errors import InvalidState
from service.games.base import DealSetup, Game, accepts
from service.games.registry import GAMES

HANDS_PER_GAME = 1000
PARTS = 4
ROUND_TRIPS = 4
GAME_IDS = sorted(GAMES)

LAWS: dict[str, tuple[str, ...]] = {
    "hidden": ("state", "seat"),
    "check_score": ("state", "answer"),
    "universe": ("state",),
}
"""What every laws module defines, with its parameters: ``hidden(state, seat)`` the card codes a
seat must not see in a view (from the dumped state), ``check_score(state, answer)`` asserts a
finished hand's score invariants, ``universe(state)`` every move of every shape for every seat,
built without the game's own candidate lists."""


def laws(game: Game) -> ModuleType:
    """The game's laws module, ``tests/games/<pkg>_laws.py``; fails (never skips) the calling
    test when the game has none."""
    return _laws_of(_package(game))


def laws_file(game: Game) -> str:
    return _laws_file(_package(game))


def _package(game: Game) -> str:
    return type(game).__module__.removesuffix(".game").rsplit(".", 1)[-1]


def _laws_file(package: str) -> str:
    return f"tests/games/{package}_laws.py"


@cache
def _laws_of(package: str) -> ModuleType:
    name = f"tests.games.{package}_laws"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name != name:
            raise
    wanted = ", ".join(f"{law}({', '.join(params)})" for law, params in LAWS.items())
    pytest.fail(f"game package {package!r} has no laws: add {_laws_file(package)} defining {wanted}",
                pytrace=False)


def random_options(game: Game, rng: random.Random) -> dict[str, Any]:
    """Every boolean option at random, every option with a closed set of values at random."""
    options = dict(game.info.options)
    for name, field in game.schemas.options._declared_fields.items():
        choices = [v.choices for v in field.validators if isinstance(v, OneOf)]
        if isinstance(options[name], bool):
            options[name] = rng.random() < 0.5
        elif choices and name != "players":
            options[name] = rng.choice(list(choices[0]))
    return options


def deal(game: Game, seed: str, players: int, options: dict[str, Any]) -> Any:
    return game.deal(DealSetup(players, None, options, None), SeedStream(seed))


def deal_at_random(game: Game, seed: str, players: int, rng: random.Random) -> Any:
    """A deal with random options, drawn again while the game refuses them at this table (Canasta's
    six players are only for its classic variant)."""
    while True:
        try:
            return deal(game, seed, players, random_options(game, rng))
        except InvalidState as refused:
            if not refused.errors or refused.errors[0].pointer != "/players":
                raise


def _codes_in(value: Any) -> Counter[str]:
    """Every card code in a wire value, as often as it occurs (options left out)."""
    found: Counter[str] = Counter()
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str) and item in CARDS:
            found[item] += 1
        elif isinstance(item, list):
            pending.extend(item)
        elif isinstance(item, dict):
            pending.extend(v for k, v in item.items() if k != "options")
    return found


def check_view(game: Game, state: Any) -> None:
    wire = game.dump_state(state)
    visible_everywhere = _codes_in(wire)
    for seat in [None, *range(wire["seats"])]:
        hidden = laws(game).hidden(wire, seat)
        shown = _codes_in(game.view(state, seat))
        allowed = visible_everywhere - hidden
        assert not shown - allowed, f"seat {seat} sees {shown - allowed}"


def play_hand(game: Game, seed: str, *, check_views: bool = False, round_trips: bool = True) -> tuple[Any, int]:
    """A random hand played out; every position's wire form round-trips (``round_trips``), and the
    final one's always."""
    rng = random.Random(seed)
    players = rng.choice(game.info.player_counts)
    state = deal_at_random(game, seed, players, rng)
    moves = 0
    while game.to_move(state) is not None:
        if round_trips:
            assert game.load_state(game.dump_state(state)) == state, "the wire form round-trips"
        if check_views:
            check_view(game, state)
        seat = game.to_move(state)
        legal = game.legal_moves(state, seat)
        assert legal, "the seat to move always has a legal move"
        state, events = game.apply(state, rng.choice(legal))
        assert events
        moves += 1
        assert moves < 1000
    assert game.load_state(game.dump_state(state)) == state
    return state, moves


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_deal_is_reproducible_from_the_seed(game_id):
    game = GAMES[game_id]
    for players in game.info.player_counts:
        first = game.dump_state(deal(game, "seed-1", players, {}))
        assert first == game.dump_state(deal(game, "seed-1", players, {}))
        assert first != game.dump_state(deal(game, "seed-2", players, {}))


@pytest.mark.parametrize("part", range(PARTS))
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_random_hands_play_to_the_end_and_score(game_id, part):
    """HANDS_PER_GAME hands in PARTS parts, so that the test workers share out the long games;
    every position of one hand in ROUND_TRIPS round-trips through the wire form (the round trip
    doubled the time of the whole test)."""
    game = GAMES[game_id]
    check_score = laws(game).check_score
    for n in range(part, HANDS_PER_GAME, PARTS):
        state, _ = play_hand(game, f"hand-{n}", round_trips=(n // PARTS) % ROUND_TRIPS == 0)
        answer = game.score(state, None)
        check_score(game.dump_state(state), answer)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_replay_from_the_same_seed_is_identical(game_id):
    game = GAMES[game_id]
    for n in range(20):
        first, moves = play_hand(game, f"replay-{n}")
        again, moves_again = play_hand(game, f"replay-{n}")
        assert game.dump_state(first) == game.dump_state(again) and moves == moves_again


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_views_never_show_hidden_cards(game_id):
    game = GAMES[game_id]
    laws(game)  # fail at once, not after the first hand, when the game has no laws
    for n in range(30):
        play_hand(game, f"view-{n}", check_views=True)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_legal_moves_agree_with_check(game_id):
    """Every listed move passes ``check``; moves by other seats and unlisted cards are refused."""
    game = GAMES[game_id]
    rng = random.Random(game_id)
    for n in range(40):
        state = deal_at_random(game, f"agree-{n}", game.info.default_players, rng)
        while game.to_move(state) is not None:
            seat = game.to_move(state)
            listed = game.legal_moves(state, seat)
            for other in range(game.dump_state(state)["seats"]):
                if other != seat:  # out of turn, only what the rules allow out of turn
                    kinds = {game.dump_move(m)["type"] for m in game.legal_moves(state, other)}
                    assert kinds <= set(getattr(laws(game), "OUT_OF_TURN", ())), kinds
            wire_moves = [game.dump_move(m) for m in listed]
            for move in wire_moves:
                if "cards" in move:
                    stranger = {**move, "cards": [rng.choice([c for c in CARDS if c != "JK"])]}
                    if stranger not in wire_moves:
                        _refused_or_not_a_move(game, state, stranger)
            state, _ = game.apply(state, rng.choice(listed))


def _refused_or_not_a_move(game: Game, state: Any, move: dict[str, Any]) -> None:
    try:
        parsed = game.load_move(move)
    except KeyError:  # a code outside this game's deck: the schema refuses it before any rule
        return
    assert not accepts(game.check, state, parsed), move


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_move_check_accepts_is_listed(game_id):
    """Legal moves are listed from each game's candidates; a move ``check`` accepts that the
    candidates missed would be a legal move no front end is offered."""
    game = GAMES[game_id]
    universe = laws(game).universe
    rng = random.Random(f"universe-{game_id}")
    for n in range(15):
        players = rng.choice(game.info.player_counts)
        state = deal_at_random(game, f"universe-{n}", players, rng)
        while game.to_move(state) is not None:
            listed = {seat: game.legal_moves(state, seat) for seat in range(len(state.hands))}
            for move in universe(state):
                if accepts(game.check, state, move):
                    assert move in listed[move.seat], move
            state, _ = game.apply(state, rng.choice(listed[game.to_move(state)]))


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_game_has_its_laws(game_id):
    """Each registered game has ``tests/games/<pkg>_laws.py`` with its three laws."""
    game = GAMES[game_id]
    module = laws(game)
    for law, params in LAWS.items():
        function = getattr(module, law, None)
        assert inspect.isfunction(function), f"{laws_file(game)} must define {law}()"
        assert tuple(inspect.signature(function).parameters) == params, (
            f"{laws_file(game)}: {law} takes ({', '.join(params)})")
        assert inspect.getdoc(function), f"{laws_file(game)}: {law} needs a docstring"
