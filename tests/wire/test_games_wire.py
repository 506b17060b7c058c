"""Every registered game's wire form says what its schemas say: a dumped state, a view and a
move name exactly the fields of their schemas (every field, required or not, and no other), and
what is dumped loads back to the same. A field declared once cannot drift; this holds the games
still written by hand to the same."""

from __future__ import annotations

import linecache
import random

import pytest

from service.cards import SeedStream
from service.games.base import DealSetup
from service.games.registry import GAMES
from service.wire.codegen import WIDTH


def _names(schema) -> set[str]:
    return {f.data_key or n for n, f in schema._declared_fields.items()}


def _required(schema) -> set[str]:
    return {f.data_key or n for n, f in schema._declared_fields.items() if f.required}


def _positions(game, count=6):
    rng = random.Random(game.info.id)
    state = game.deal(DealSetup(game.info.default_players, None, {}, None), SeedStream(game.info.id))
    positions = [state]
    while len(positions) < count and game.to_move(state) is not None:
        state, _ = game.apply(state, rng.choice(game.legal_moves(state, game.to_move(state))))
        positions.append(state)
    return positions


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_dumps_name_exactly_the_schema_fields(game_id):
    game = GAMES[game_id]
    for state in _positions(game):
        wire = game.dump_state(state)
        assert set(wire) == _names(game.schemas.state)
        assert game.dump_state(game.load_state(wire)) == wire
        for seat in (None, *range(wire["seats"])):
            assert set(game.view(state, seat)) == _names(game.schemas.view)
        seat = game.to_move(state)
        for move in game.legal_moves(state, seat) if seat is not None else ():
            dumped = game.dump_move(move)
            schema = game.schemas.moves[dumped["type"]]
            assert _required(schema) <= set(dumped) <= _names(schema)
            assert game.load_move(dumped) == move


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_move_types_are_the_move_schemas(game_id):
    game = GAMES[game_id]
    assert game.info.move_types == tuple(game.schemas.moves)


def test_every_game_generated_code_reads_like_code():
    """Lines no longer than the service's own, in a file named by its record, once (a traceback
    says ``File "<wire SixtySixState>", line 7, in load``)."""
    generated = {name: lines for name, (_, _, lines, _) in linecache.cache.items() if name.startswith("<wire ")}
    assert {f"<wire {type(game).__name__}State>" for game in GAMES.values()} <= set(generated)
    too_long = [(name, line) for name, lines in generated.items() for line in lines if len(line.rstrip()) > WIDTH]
    assert too_long == []
