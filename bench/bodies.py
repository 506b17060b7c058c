"""Realistic request bodies for every endpoint of every game, from seeded random playouts:
states early, in the middle and late in a hand, at the default options and at the options that
deal the most cards, the largest states of each game among them."""

from __future__ import annotations

import base64
import json
import random
import re
from itertools import product
from typing import Any, NamedTuple

from marshmallow.validate import OneOf

from service.api.events import EVERY_SEAT, told
from service.api.sealed import SealedHand, Sealer
from service.cards import SeedStream
from service.errors import InvalidState
from service.games.base import DealSetup, Game
from service.games.registry import GAMES
from service.sealing import Keyring, StateKey

Body = dict[str, Any]
HANDS = 12
STATE_KEY = StateKey("bench", bytes(range(32)))
"""The sealed rows' server key: the bench seals their tokens, the service opens them."""
STATE_KEYS = "bench:" + base64.urlsafe_b64encode(STATE_KEY.secret).decode().rstrip("=")


def largest_options(game: Game) -> dict[str, Any]:
    """The options that deal the most cards (Bezique's ten packs with the wild cards), trying
    every combination of the options with a closed set of values; the defaults among equals."""
    choices = []
    for name, field in game.schemas.options._declared_fields.items():
        closed = [v.choices for v in field.validators if isinstance(v, OneOf)]
        if closed:
            choices.append([(name, value) for value in closed[0]])
    players = max(game.info.player_counts)
    best, most = {}, _cards_dealt(game, players, {})
    for combination in product(*choices):
        options = dict(combination)
        try:
            dealt = _cards_dealt(game, players, options)
        except InvalidState:  # options this table does not play (Canasta's variants at six)
            continue
        if dealt > most:
            best, most = options, dealt
    return best


def _cards_dealt(game: Game, players: int, options: dict[str, Any]) -> int:
    state = game.dump_state(game.deal(DealSetup(players, None, options, None), SeedStream("size")))
    return len(re.findall(r'"(?:10|[2-9JQKA])[CDHS]"|"JK"', json.dumps(state)))


class Position(NamedTuple):
    """A state met in a playout, and the hand's record up to it (what its token holds)."""

    state: Any
    start: Any
    moves: tuple[Any, ...]


def _playout(game: Game, seed: str, players: int, options: dict[str, Any]) -> list[Position]:
    rng = random.Random(seed)
    state = start = game.deal(DealSetup(players, None, options, None), SeedStream(seed))
    positions, moves = [Position(state, start, ())], ()
    while game.to_move(state) is not None:
        move = rng.choice(game.legal_moves(state, game.to_move(state)))
        state, _ = game.apply(state, move)
        moves = (*moves, move)
        positions.append(Position(state, start, moves))
    return positions


def _illegal(game: Game, state: Any) -> Body | None:
    """A move the rules refuse: the seat to move's legal move, sent by another seat."""
    seat = game.to_move(state)
    move = game.dump_move(game.legal_moves(state, seat)[0])
    seats = game.dump_state(state)["seats"]
    for other in range(seats):
        attempt = {**move, "seat": other}
        if other != seat:
            try:
                game.check(state, game.load_move(attempt))
            except Exception:
                return attempt
    return None


def bodies(game_id: str) -> dict[str, list[Body]]:
    """Per endpoint, bodies to rotate through; the largest state of the playouts comes first.
    The hands cycle through three tables: the most players at the default options, the most
    players at the options that deal the most cards, the default number of players. The
    ``legal-moves-largest`` endpoint is the state with the longest listing met in the playouts."""
    game = GAMES[game_id]
    most = max(game.info.player_counts)
    configurations = [(most, {}), (most, largest_options(game)), (game.info.default_players, {})]
    playing: list[Position] = []
    finished: list[Any] = []
    longest: tuple[int, Any] = (-1, None)
    for n in range(HANDS):
        players, options = configurations[n % len(configurations)]
        positions = _playout(game, f"bench-{game_id}-{n}", players, options)
        live = [p for p in positions if game.to_move(p.state) is not None]
        for position in live:
            listed = len(game.legal_moves(position.state, game.to_move(position.state)))
            longest = max(longest, (listed, position.state), key=lambda pair: pair[0])
        picks = {0, len(live) // 2, len(live) - 1} if live else set()
        playing += [live[i] for i in sorted(picks)]
        finished.append(positions[-1].state)
    playing.sort(key=lambda p: -len(str(game.dump_state(p.state))))
    out: dict[str, list[Body]] = {k: [] for k in
                                  ("deal", "validate-legal", "validate-illegal", "legal-moves", "view", "score")}
    for n, state in enumerate(p.state for p in playing):
        wire = game.dump_state(state)
        move = game.dump_move(game.legal_moves(state, game.to_move(state))[0])
        out["validate-legal"].append({"state": wire, "move": move})
        illegal = _illegal(game, state)
        if illegal is not None:
            out["validate-illegal"].append({"state": wire, "move": illegal})
        out["legal-moves"].append({"state": wire})
        out["view"].append({"state": wire, "seat": n % wire["seats"]})
        out["deal"].append({"seed": f"deal-{n}", "players": wire["seats"], "options": wire["options"]})
    out["score"] = [{"state": game.dump_state(s)} for s in finished]
    out["legal-moves-largest"] = [{"state": game.dump_state(longest[1])}]
    out.update(sealed_bodies(game_id, playing))
    return out


def sealed_bodies(game_id: str, playing: list[Position]) -> dict[str, list[Body]]:
    """The same states, sealed with the record that led to each, move by move as the service
    seals them (the record's latest lines with the head, the rest in parts): validate with the
    mover's key, view, legal-moves and events with a seat's."""
    game = GAMES[game_id]
    sealer = Sealer(game, Keyring((STATE_KEY,)))
    out: dict[str, list[Body]] = {"deal-sealed": [], "validate-sealed": [], "legal-moves-sealed": [],
                                  "view-sealed": [], "events-sealed": []}
    for n, (state, start, moves) in enumerate(playing):
        seats = game.seats(state)
        hand = SealedHand.dealt(game, (f"{n:032x}", "0" * 32, 1, STATE_KEY.id), ("0" * 64, None), None, start)
        for move in moves:
            hand = sealer.open(sealer.seal(hand), "/token")
            after, events = game.apply(hand.state, move)
            hand = hand.after(game.dump_move(move), told(game.info.event_types, events, EVERY_SEAT), after)
        token, keys, seat = sealer.seal(hand), sealer.keyring.seat_keys(hand), game.to_move(state)
        move = game.dump_move(game.legal_moves(state, seat)[0])
        out["validate-sealed"].append({"token": token, "seat_key": keys[seat], "move": move})
        out["legal-moves-sealed"].append({"token": token, "seat_key": keys[seat]})
        out["view-sealed"].append({"token": token, "seat_key": keys[n % seats]})
        out["events-sealed"].append({"token": token, "seat_key": keys[n % seats], "since": max(0, len(moves) - 4)})
        out["deal-sealed"].append({"players": seats, "options": game.dump_state(state)["options"]})
    return out
