"""Sealed mode over HTTP: the problems a caller gets for every token or key that is not right,
the deal's refusals, the match carried from hand to hand, and stale tokens."""

from __future__ import annotations

import binascii
import random
from typing import Any

import pytest

from service import create_app
from service.api.sealed import Sealer
from service.config import Settings
from service.games.registry import GAMES
from service.sealing import HAND, Keyring, StateKey
from tests.api.test_sealed_games import KEY

OTHER = StateKey("other", bytes(32))
PATH = "/v1/games/sixty-six/sealed"


@pytest.fixture(scope="module")
def client() -> Any:
    return create_app(Settings(state_keys=(KEY,))).test_client()


def deal(client: Any, game: str = "sixty-six", **body: Any) -> dict[str, Any]:
    answer = client.post(f"/v1/games/{game}/sealed/deal", json=body)
    assert answer.status_code == 200, answer.json
    return dict(answer.json)


def first_move(client: Any, dealt: dict[str, Any], game: str = "sixty-six") -> dict[str, Any]:
    seat = dealt["to_move"]
    listed = client.post(f"/v1/games/{game}/sealed/legal-moves",
                         json={"token": dealt["token"], "seat_key": dealt["seat_keys"][seat]}).json
    return dict(listed["moves"][0])


def problem(answer: Any, status: int, pointer: str) -> str:
    assert answer.status_code == status, answer.json
    assert answer.mimetype == "application/problem+json"
    assert answer.json["errors"][0]["pointer"] == pointer, answer.json
    return str(answer.json["errors"][0]["message"])


def flipped(token: str, rng: random.Random) -> str:
    raw = bytearray(binascii.a2b_base64(token))
    raw[rng.randrange(len(raw))] ^= 1 << rng.randrange(8)
    return binascii.b2a_base64(bytes(raw), newline=False).decode()


@pytest.mark.parametrize("path", ["spectator-view", "legal-moves", "events", "score"])
def test_random_bit_flips_and_truncations_are_422_at_token(client: Any, path: str) -> None:
    token, rng = deal(client)["token"], random.Random(path)
    for bad in [*(flipped(token, rng) for _ in range(40)), *(token[:n] for n in range(4, len(token), 37))]:
        answer = client.post(f"{PATH}/{path}", json={"token": bad})
        assert answer.status_code == 422, answer.json
        assert answer.json["errors"][0]["pointer"] == "/token"


def test_a_flipped_token_is_refused_on_validate_too(client: Any) -> None:
    dealt = deal(client)
    move = first_move(client, dealt)
    bad = flipped(dealt["token"], random.Random(3))
    answer = client.post(f"{PATH}/validate", json={"token": bad, "seat_key": dealt["seat_keys"][move["seat"]],
                                                   "move": move})
    problem(answer, 422, "/token")


def test_tokens_of_another_game_or_deployment_or_kind_are_named(client: Any) -> None:
    bura = deal(client, "bura")
    assert "is a bura token" in problem(client.post(f"{PATH}/spectator-view", json={"token": bura["token"]}), 422, "/token")
    foreign = Keyring((OTHER,)).seal(HAND, "sixty-six", Keyring((KEY,)).open(
        HAND, "sixty-six", deal(client)["token"], at="/token"))
    assert "does not hold" in problem(client.post(f"{PATH}/spectator-view", json={"token": foreign}), 422, "/token")
    finished = play_out(client, deal(client))
    match_token = client.post(f"{PATH}/score", json={"token": finished}).json["match_token"]
    message = problem(client.post(f"{PATH}/spectator-view", json={"token": match_token}), 422, "/token")
    assert "match token" in message
    hand_as_match = client.post(f"{PATH}/deal", json={"match_token": finished})
    assert "hand token" in problem(hand_as_match, 422, "/match_token")


def test_a_token_from_a_rotated_out_key_is_refused_and_a_listed_old_key_still_opens() -> None:
    old = create_app(Settings(state_keys=(OTHER,))).test_client()
    dealt = deal(old)
    rotated = create_app(Settings(state_keys=(KEY, OTHER))).test_client()
    seat = dealt["to_move"]
    assert rotated.post(f"{PATH}/view", json={"token": dealt["token"],
                                             "seat_key": dealt["seat_keys"][seat]}).status_code == 200
    move = first_move(rotated, dealt)
    moved = rotated.post(f"{PATH}/validate", json={"token": dealt["token"], "seat_key": dealt["seat_keys"][seat],
                                                  "move": move}).json
    assert moved["legal"]
    gone = create_app(Settings(state_keys=(KEY,))).test_client()
    for token in (dealt["token"], moved["token"]):  # the new token is sealed with KEY, its seat keys are OTHER's
        answer = gone.post(f"{PATH}/view", json={"token": token, "seat_key": dealt["seat_keys"][seat]})
        assert answer.status_code in (403, 422), answer.json
    problem(gone.post(f"{PATH}/spectator-view", json={"token": dealt["token"]}), 422, "/token")


def test_seat_keys(client: Any) -> None:
    dealt = deal(client)
    move = first_move(client, dealt)
    seat, other = move["seat"], 1 - move["seat"]
    token, keys = dealt["token"], dealt["seat_keys"]
    cases = [{"seat_key": keys[other]}, {"seat_key": deal(client)["seat_keys"][seat]},
             {"seat_key": keys[seat][:-2] + "AA"}]
    for case in cases:
        answer = client.post(f"{PATH}/validate", json={"token": token, "move": move, **case})
        problem(answer, 403, "/seat_key")
        assert "hand" in answer.json["errors"][0]["message"] or "seat" in answer.json["errors"][0]["message"]
    for path in ("view", "legal-moves"):
        problem(client.post(f"{PATH}/{path}", json={"token": token, "seat_key": keys[seat][::-1]}), 403,
                "/seat_key")
    for missing in ({}, {"seat_key": None}):  # a move, or a seat's view, needs the key
        problem(client.post(f"{PATH}/validate", json={"token": token, "move": move, **missing}), 422, "/seat_key")
        problem(client.post(f"{PATH}/view", json={"token": token, **missing}), 422, "/seat_key")
    spectator = client.post(f"{PATH}/legal-moves", json={"token": token}).json
    assert spectator["moves"] == [] and spectator["to_move"] == seat


def test_schema_refusals_name_the_field(client: Any) -> None:
    token = deal(client)["token"]
    problem(client.post(f"{PATH}/spectator-view", json={"token": "not base64!"}), 422, "/token")
    problem(client.post(f"{PATH}/view", json={"token": token, "seat_key": "has spaces"}), 422, "/seat_key")
    problem(client.post(f"{PATH}/spectator-view", json={"token": token, "seat": 0}), 422, "/seat")
    problem(client.post(f"{PATH}/view", json={"token": token}), 422, "/seat_key")
    problem(client.post(f"{PATH}/spectator-view", json={"token": 7}), 422, "/token")
    problem(client.post(f"{PATH}/spectator-view", json={"token": token, "state": {}}), 422, "/state")
    problem(client.post(f"{PATH}/events", json={"token": token, "since": -1}), 422, "/since")
    problem(client.post(f"{PATH}/events", json={"token": token, "since": 1}), 422, "/since")


def test_each_mode_takes_only_its_own_fields(client: Any) -> None:
    """A sealed deal takes no deck and no clear match; an open one no match token; the open
    paths no token."""
    deck = GAMES["sixty-six"].info.deck_cards
    problem(client.post(f"{PATH}/deal", json={"deck": list(deck)}), 422, "/deck")
    match = {"scores": [0, 0], "next_dealer": 1}
    problem(client.post(f"{PATH}/deal", json={"match": match}), 422, "/match")
    problem(client.post(f"{PATH}/deal", json={"seed": "x" * 129}), 422, "/seed")
    problem(client.post(f"{PATH}/deal", json={"sealed": True}), 422, "/sealed")
    open_path = PATH.removesuffix("/sealed")
    token = deal(client)["token"]
    problem(client.post(f"{open_path}/deal", json={"match_token": token}), 422, "/match_token")
    refused = client.post(f"{open_path}/view", json={"token": token})
    assert refused.status_code == 422 and "/token" in [e["pointer"] for e in refused.json["errors"]]


def test_the_deal_answers_no_seed_and_the_client_seed_does_not_steer_it(client: Any) -> None:
    one, two = deal(client, seed="same"), deal(client, seed="same")
    assert "seed" not in one and one["seed_commitment"] != two["seed_commitment"]
    views = [client.post(f"{PATH}/view", json={"token": d["token"], "seat_key": d["seat_keys"][0]}).json["view"]
             for d in (one, two)]
    assert views[0]["hand"] != views[1]["hand"]  # the server's seed decides: one in 15,000 to fail
    assert len(one["seed_commitment"]) == 64 and one["seed_commitment"] == one["seed_commitment"].lower()


def play_out(client: Any, dealt: dict[str, Any], game: str = "sixty-six") -> str:
    token, keys, to_move = dealt["token"], dealt["seat_keys"], dealt["to_move"]
    while to_move is not None:
        move = client.post(f"/v1/games/{game}/sealed/legal-moves",
                           json={"token": token, "seat_key": keys[to_move]}).json["moves"][0]
        answer = client.post(f"/v1/games/{game}/sealed/validate", json={"token": token, "seat_key": keys[move["seat"]],
                                                                 "move": move}).json
        token, to_move = answer["token"], answer["to_move"]
    return str(token)


def test_score_refuses_an_unfinished_hand_without_revealing_it(client: Any) -> None:
    answer = client.post(f"{PATH}/score", json={"token": deal(client)["token"]})
    problem(answer, 422, "/token")
    assert "server_seed" not in answer.get_data(as_text=True)


def test_the_match_travels_sealed_from_hand_to_hand(client: Any) -> None:
    dealt = deal(client)
    scored = client.post(f"{PATH}/score", json={"token": play_out(client, dealt)}).json
    assert scored["match_id"] == dealt["match_id"]
    following = deal(client, match_token=scored["match_token"])
    assert following["match_id"] == dealt["match_id"]
    assert following["hand_id"] != dealt["hand_id"]
    finished = play_out(client, following)
    second = client.post(f"{PATH}/score", json={"token": finished}).json
    final = Sealer(GAMES["sixty-six"], Keyring((KEY,))).open(finished, "/token").state
    assert second["match"] == GAMES["sixty-six"].score(final, scored["match"])["match"]


def test_a_stale_token_still_opens_and_says_its_move_number(client: Any) -> None:
    """The service keeps nothing: an older token of the hand is still a valid token (README)."""
    dealt = deal(client)
    move = first_move(client, dealt)
    moved = client.post(f"{PATH}/validate", json={"token": dealt["token"], "move": move,
                                                  "seat_key": dealt["seat_keys"][move["seat"]]}).json
    assert (moved["hand_id"], moved["move_number"]) == (dealt["hand_id"], 1)
    stale = client.post(f"{PATH}/spectator-view", json={"token": dealt["token"]}).json
    assert (stale["hand_id"], stale["move_number"]) == (dealt["hand_id"], 0)


def test_an_illegal_sealed_move_keeps_the_token(client: Any) -> None:
    dealt = deal(client)
    move = first_move(client, dealt)
    seat = move["seat"]
    hand = Sealer(GAMES["sixty-six"], Keyring((KEY,))).open(dealt["token"], "/token").state
    other_card = next(c.code for c in hand.hands[1 - seat])
    answer = client.post(f"{PATH}/validate", json={"token": dealt["token"], "seat_key": dealt["seat_keys"][seat],
                                                   "move": {**move, "cards": [other_card]}}).json
    assert answer["legal"] is False and "token" not in answer and answer["move_number"] == 0
    assert f"seat {1 - seat}" not in answer["reason"]["message"]  # says nothing of where the card is


def test_another_seats_draw_is_told_as_a_count_and_the_movers_own_as_its_card(client: Any) -> None:
    dealt = deal(client)
    token, keys, to_move = dealt["token"], dealt["seat_keys"], dealt["to_move"]
    draws: list[tuple[int, dict[str, Any]]] = []
    while not draws:
        move = client.post(f"{PATH}/legal-moves", json={"token": token, "seat_key": keys[to_move]}).json["moves"][0]
        answer = client.post(f"{PATH}/validate", json={"token": token, "seat_key": keys[move["seat"]],
                                                       "move": move}).json
        draws = [(move["seat"], e) for e in answer["events"] if e["type"] == "card_drawn"]
        public = [e for e in answer["public_events"] if e["type"] == "card_drawn"]
        token, to_move = answer["token"], answer["to_move"]
    assert len(draws) == 2 and len(public) == 2
    for mover, event in draws:
        assert event["count"] == 1
        assert ("cards" in event) == (event["seat"] == mover)
    assert all("cards" not in event for event in public)
    for seat in (0, 1):  # each seat, asking afterwards, hears its own draw's card and the other's count
        told = client.post(f"{PATH}/events", json={"token": token, "seat_key": keys[seat]}).json["moves"]
        drawn = [e for m in told for e in m["events"] if e["type"] == "card_drawn"]
        assert [("cards" in e) for e in drawn] == [e["seat"] == seat for e in drawn]


def test_a_sealed_match_keeps_its_table_and_options(client: Any) -> None:
    """The standing is sealed with the table it is played at: a match to 5000 stays one."""
    path = "/v1/games/canasta/sealed"
    dealt = deal(client, "canasta", players=4)
    scored = client.post(f"{path}/score", json={"token": play_out(client, dealt, "canasta")}).json
    token = scored["match_token"]
    again = deal(client, "canasta", match_token=token)
    assert (again["hand_number"], len(again["seat_keys"])) == (2, 4)
    problem(client.post(f"{path}/deal", json={"match_token": token, "players": 2}), 422,
            "/players")
    problem(client.post(f"{path}/deal", json={"match_token": token,
                                              "options": {"target_score": 1}}), 422, "/options/target_score")
    agreed = deal(client, "canasta", match_token=token, players=4, options={"variant": "classic"})
    assert agreed["hand_number"] == 2


def test_a_replayed_older_token_answers_a_move_number_already_seen() -> None:
    """What the README asks a host to check when the server runs no replay guard
    (``REPLAY_STORE=off``): an answer's number is one more than the highest."""
    client = create_app(Settings(state_keys=(KEY,), replay_store="off")).test_client()
    dealt = deal(client)
    moves = client.post(f"{PATH}/legal-moves", json={"token": dealt["token"],
                                                     "seat_key": dealt["seat_keys"][dealt["to_move"]]}).json["moves"]
    key = dealt["seat_keys"][dealt["to_move"]]
    first = client.post(f"{PATH}/validate", json={"token": dealt["token"], "seat_key": key, "move": moves[0]}).json
    replayed = client.post(f"{PATH}/validate", json={"token": dealt["token"], "seat_key": key,
                                                     "move": moves[-1]}).json
    assert first["move_number"] == replayed["move_number"] == 1  # not highest + 1 once the first is seen
