"""Realistic request bodies for every endpoint of every game, from seeded random playouts:
states early, in the middle and late in a hand, the largest states of each game among them."""

from __future__ import annotations

import random
from typing import Any

from service.cards import SeedStream
from service.games import GAMES
from service.games.base import DealSetup, Game

Body = dict[str, Any]
HANDS = 12


def _playout(game: Game, seed: str, players: int) -> list[Any]:
    rng = random.Random(seed)
    state = game.deal(DealSetup(players, None, {}, None), SeedStream(seed))
    states = [state]
    while game.to_move(state) is not None:
        state, _ = game.apply(state, rng.choice(game.legal_moves(state, game.to_move(state))))
        states.append(state)
    return states


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
    """Per endpoint, bodies to rotate through; the largest state of the playouts comes first."""
    game = GAMES[game_id]
    players = max(game.info.player_counts)
    playing: list[Any] = []
    finished: list[Any] = []
    for n in range(HANDS):
        states = _playout(game, f"bench-{game_id}-{n}", players)
        live = [s for s in states if game.to_move(s) is not None]
        picks = {0, len(live) // 2, len(live) - 1} if live else set()
        playing += [live[i] for i in sorted(picks)]
        finished.append(states[-1])
    playing.sort(key=lambda s: -len(str(game.dump_state(s))))
    out: dict[str, list[Body]] = {k: [] for k in
                                  ("deal", "validate-legal", "validate-illegal", "legal-moves", "view", "score")}
    for n, state in enumerate(playing):
        wire = game.dump_state(state)
        move = game.dump_move(game.legal_moves(state, game.to_move(state))[0])
        out["validate-legal"].append({"state": wire, "move": move})
        illegal = _illegal(game, state)
        if illegal is not None:
            out["validate-illegal"].append({"state": wire, "move": illegal})
        out["legal-moves"].append({"state": wire})
        out["view"].append({"state": wire, "seat": n % wire["seats"]})
        out["deal"].append({"seed": f"deal-{n}", "players": players})
    out["score"] = [{"state": game.dump_state(s)} for s in finished]
    return out
