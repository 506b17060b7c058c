"""`deal` with an explicit deck order: the same hand as the seed whose shuffle gives that order,
and a 422 naming `/deck` for anything that is not exactly the game's deck."""

from __future__ import annotations

from collections import Counter

import pytest

from service.cards import CARDS, SeedStream
from service.games.registry import GAMES


def canonical(client, game_id):
    """The game's unshuffled deck (its default options), as GET /v1/games/{game} lists it."""
    return client.get(f"/v1/games/{game_id}").json["deck_cards"]


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_given_deck_deals_what_the_seed_of_that_order_deals(client, game_id):
    deck = canonical(client, game_id)
    for seed in ("a", "b", "c"):
        order = [c.code for c in SeedStream(seed).order([CARDS[code] for code in deck])]
        seeded = client.post(f"/v1/games/{game_id}/deal", json={"seed": seed}).json
        given = client.post(f"/v1/games/{game_id}/deal", json={"deck": order})
        if given.status_code == 422:  # a misdeal: the seed's stream went on to a redeal
            assert "misdeal" in given.json["errors"][0]["message"]
            continue
        assert given.status_code == 200, given.json
        assert given.json["seed"] is None and given.json["shuffle"] == "given"
        assert given.json["state"] == seeded["state"]


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_deck_that_is_not_the_games_deck_is_refused_at_its_place(client, game_id):
    deck = canonical(client, game_id)
    path = f"/v1/games/{game_id}/deal"
    cases = {
        "a card missing": (deck[1:], "/deck"),
        "a card twice": ([deck[0], *deck[:-1]], f"/deck/{_excess_at([deck[0], *deck[:-1]], deck)}"),
        "a card twice, late": ([*deck[:-1], deck[0]], f"/deck/{len(deck) - 1}"),
        "one card too many": ([*deck, deck[0]], f"/deck/{len(deck)}"),
    }
    foreign = next((code for code in CARDS if code not in deck and code != "JK"), None)
    if foreign:
        cases["a card of another deck"] = ([foreign, *deck[1:]], "/deck/0")
    for name, (order, pointer) in cases.items():
        answer = client.post(path, json={"deck": order})
        assert answer.status_code == 422, name
        assert answer.json["errors"][0]["pointer"] == pointer, (name, answer.json)


def _excess_at(order, deck):
    """Where a card first appears more often than the deck holds it (a multi-pack deck holds
    each code several times)."""
    seen = Counter()
    for index, code in enumerate(order):
        seen[code] += 1
        if seen[code] > deck.count(code):
            return index
    raise AssertionError("no card is in excess")


def test_a_seed_and_a_deck_together_are_refused(client):
    deck = canonical(client, "sixty-six")
    answer = client.post("/v1/games/sixty-six/deal", json={"seed": "x", "deck": deck})
    assert answer.status_code == 422 and answer.json["errors"][0]["pointer"] == "/deck"


def test_a_deck_of_unknown_codes_is_a_schema_error(client):
    answer = client.post("/v1/games/sixty-six/deal", json={"deck": ["ZZ"]})
    assert answer.status_code == 422 and answer.json["errors"][0]["pointer"].startswith("/deck")


def test_kozel_bura_checks_the_deck_its_options_ask_for(client):
    deck32 = [code for code in canonical(client, "kozel-bura") if not code.startswith("6")]
    ok = client.post("/v1/games/kozel-bura/deal", json={"deck": deck32, "options": {"deck": 32}})
    assert ok.status_code == 200 and ok.json["state"]["options"]["deck"] == 32
    assert client.post("/v1/games/kozel-bura/deal", json={"deck": deck32}).status_code == 422
