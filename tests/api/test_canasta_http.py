"""Canasta over HTTP: a whole hand of every variant and player count with nothing but deal,
legal-moves, validate and score; a match to its target; what the schema and the consistency check
refuse."""

from __future__ import annotations

import random
from collections import Counter

import pytest

P = "/v1/games/canasta"
CONFIGURATIONS = [("classic", n) for n in (2, 3, 4, 6)] + [(v, n) for v in ("seed_108", "seed_13")
                                                              for n in (2, 3, 4)]


def post(client, path, body):
    answer = client.post(f"{P}/{path}", json=body)
    assert answer.status_code == 200, (path, answer.json)
    return answer.json


def cards_in(state):
    piles = [state["stock"], state["pile"], *state["hands"], *state["red_threes"]]
    piles += [cards for side in state["melds"] for cards in side.values()]
    return Counter(c for pile in piles for c in pile)


def play_hand(client, rng, state):
    deck = cards_in(state)
    while state["status"] == "in_progress":
        moves = post(client, "legal-moves", {"state": state})["moves"]
        melding = [m for m in moves if m["type"] in ("meld", "take_pile")]
        move = rng.choice(melding if melding and rng.random() < 0.6 else moves)
        answer = post(client, "validate", {"state": state, "move": move})
        assert answer["legal"], answer
        state = answer["state"]
        assert cards_in(state) == deck
    return state


@pytest.mark.parametrize(("variant", "players"), CONFIGURATIONS)
def test_a_whole_hand_of_every_configuration_plays_to_the_end_and_scores(client, variant, players):
    rng = random.Random(f"{variant}-{players}")
    dealt = post(client, "deal", {"seed": f"conf-{variant}-{players}", "players": players,
                                  "options": {"variant": variant}})["state"]
    assert sum(cards_in(dealt).values()) == (162 if players == 6 else 108)
    assert len(dealt["teams"]) == (2 if players in (4, 6) else players)
    final = play_hand(client, rng, dealt)
    scored = post(client, "score", {"state": final})
    assert scored["hand"]["reason"] == final["result"]["reason"]
    assert scored["match"]["totals"] == [s["total"] for s in scored["hand"]["sides"]]


def test_a_match_is_played_to_its_target(client):
    rng, match, options, hands = random.Random(5), None, {"target_score": 1500}, 0
    while match is None or not match["over"]:
        body = {"seed": f"match-{hands}", "players": 4, "options": options}
        state = post(client, "deal", {**body, **({"match": match} if match else {})})["state"]
        assert state["side_scores"] == (match["totals"] if match else [0, 0])
        final = play_hand(client, rng, state)
        match = post(client, "score", {"state": final, "match": match})["match"]
        assert match["next_dealer"] == (state["dealer"] + 1) % 4
        hands += 1
        assert hands < 40
    winner = match["totals"].index(max(match["totals"]))
    assert max(match["totals"]) >= 1500 and match["winner"] == [[0, 2], [1, 3]][winner]


def test_six_players_only_in_the_classic_game(client):
    answer = client.post(f"{P}/deal", json={"players": 6, "options": {"variant": "seed_13"}})
    assert answer.status_code == 422 and answer.json["errors"][0]["pointer"] == "/players"


@pytest.mark.parametrize(("move", "pointer"), [
    ({"type": "meld", "seat": 1, "melds": [{"rank": "Z", "cards": ["AS"]}]}, "/move/melds/0/rank"),
    ({"type": "discard", "seat": 1, "cards": []}, "/move/cards"),
    ({"type": "exchange_joker", "seat": 1, "from_side": 0, "rank": "W", "cards": ["AS"]}, "/move/rank"),
])
def test_a_move_of_no_shape_the_game_takes_is_a_422_at_its_field(client, move, pointer):
    state = post(client, "deal", {"seed": "shape"})["state"]
    answer = client.post(f"{P}/validate", json={"state": state, "move": move})
    assert answer.status_code == 422 and answer.json["errors"][0]["pointer"] == pointer, answer.json


def test_an_inconsistent_state_names_the_field(client):
    state = post(client, "deal", {"seed": "broken"})["state"]
    hand = state["hands"][1]
    cases = {
        "/hands": {**state, "hands": state["hands"][:3]},
        "/turn": {**state, "turn_index": 1},
        "/melds/0/K": {**state, "melds": [{"K": hand[:1]}, {}], "hands": [state["hands"][0], hand[1:],
                                                                          *state["hands"][2:]]},
    }
    for pointer, broken in cases.items():
        answer = client.post(f"{P}/validate", json={"state": broken, "move": {"type": "draw", "seat": 1}})
        assert answer.status_code == 422, pointer
        assert answer.json["errors"][0]["pointer"].startswith(f"/state{pointer}"), (pointer, answer.json)
