"""Tables the /play page keeps in its tab (``sessionStorage``, read again on a reload), made for
positions no dealt hand reaches soon: hands sealed with a key the test gives the server, so that
the page resumes them. Used by tests/test_play_families.py and `make screenshots`."""

from __future__ import annotations

import base64
import random
from typing import Any

from service.api.sealed import SealedHand, Sealer
from service.games.registry import GAMES
from service.sealing import Keyring, StateKey, new_id, new_server_seed
from tests.games import test_bezique_families as bezique
from tests.games import test_canasta_families as canasta

STATE_KEY = StateKey("kept-table-test", bytes(range(32)))
STATE_KEYS = f"{STATE_KEY.id}:{base64.urlsafe_b64encode(STATE_KEY.secret).decode().rstrip('=')}"
"""The server's ``STATE_KEYS`` for these tables."""


def kept(game_id: str, state: Any, seat: int) -> dict[str, Any]:
    """The table the page keeps in the tab, for a hand at ``state`` sealed by the server's key."""
    game, keyring = GAMES[game_id], Keyring([STATE_KEY])
    hand = SealedHand(new_id(), new_id(), 1, STATE_KEY.id, new_server_seed(), None, None, game.seats(state),
                      state, 0, b"")
    others = [other for other in range(hand.seats) if other != seat]
    return {"game": game_id, "token": Sealer(game, keyring).seal(hand), "seatKey": keyring.seat_keys(hand)[seat],
            "computerKey": keyring.computer_key(hand, others), "seat": seat, "seats": hand.seats, "seen": 0,
            "toMove": game.to_move(state), "commitment": "", "dealt": [], "matchToken": None}


def canasta_choice(state: Any, family: dict[str, Any]) -> dict[tuple[int, str], int]:
    """A legal move of the family (the service's own witness), as the counts of its groups."""
    from service.games.canasta import families, wire

    found = next(f for f in families_of(state) if wire.FAMILY.dump(f) == family)
    move = GAMES["canasta"].dump_move(families.witness(state, found))
    ranks = [g["rank"] for g in family["groups"]]
    choice = {}
    for meld in move["melds"]:
        group = ranks.index(meld["rank"])
        twos = sum(1 for c in meld["cards"] if c.startswith("2"))
        jokers = meld["cards"].count("JK")
        choice |= {(group, "naturals"): len(meld["cards"]) - twos - jokers, (group, "twos"): twos,
                   (group, "jokers"): jokers}
    return choice


def families_of(state: Any) -> list[Any]:
    from service.games.canasta import listing

    return listing.listing(state, state.to_move)[1]


def bezique_choice(family: dict[str, Any]) -> list[int]:
    """A declaration of the family, its sources filled in order, as the count of each source."""
    counts, jokers = [], family["jokers"]
    for slot in family["slots"]:
        need = slot["count"]
        for source in slot["from"]:
            wild = source.get("card") == "JK"
            taken = min(source["most"], need, jokers if wild else need)
            counts.append(taken)
            need -= taken
            jokers -= taken if wild else 0
    return counts


def family_positions() -> list[tuple[str, str, Any, dict[str, Any], Any]]:
    big = canasta.random_position(random.Random(7), seats=6, variant="classic", cards=40, phase="play")
    meld = GAMES["canasta"].listing(big, 1).families[0]
    hand, exposed, trump = bezique.WORST["eight_jacks_both_JK_eight_exposed"]
    jacks = bezique.window(hand, exposed, trump=trump)
    fours = GAMES["bezique"].listing(jacks, 1).families[0]
    return [("canasta", "en", big, meld, canasta_choice(big, meld)),
            ("bezique", "ru", jacks, fours, bezique_choice(fours))]
