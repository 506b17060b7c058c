"""The all-games suite: every registered game, played at random through the Game interface.

Each hand checks, after every move: the state survives its wire form (so the consistency check,
card conservation included, passes), the seat to move has a legal move until the hand ends, the
legal-moves list and ``check`` agree, views hide what they must. Finished hands are scored and
checked against the game's score invariants.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator
from itertools import combinations, permutations
from typing import Any

import pytest
from marshmallow.validate import OneOf

from service.cards import CARDS, SeedStream
from service.games import GAMES
from service.games.base import DealSetup, Game, is_legal, legal_moves
from service.games.bura import rules as bura
from service.games.kozel import rules as kozel
from service.games.multi_trick import engine as multi_trick
from service.games.sixty_six import rules as sixty_six

HANDS_PER_GAME = 1000
GAME_IDS = sorted(GAMES)


def _sixty_six_hidden(state: dict[str, Any], seat: int | None) -> Counter[str]:
    hidden = Counter(state["stock"][:-1])  # the face-up trump card is public while under the stock
    for other in (0, 1):
        if other != seat:
            hidden.update(state["hands"][other])
    return hidden


def _sixty_six_score(state: dict[str, Any], answer: dict[str, Any]) -> None:
    hand = answer["hand"]
    unplayed = sum(sixty_six.CARD_VALUES[CARDS[c].rank]
                   for c in state["stock"] + state["hands"][0] + state["hands"][1])
    assert sum(hand["card_points"]) + unplayed == 120
    assert all(0 <= g <= 3 for g in hand["game_points"])
    assert hand["draw"] == (hand["winner"] is None) == (hand["game_points"] == [0, 0])
    if hand["winner"] is not None:
        assert hand["game_points"][1 - hand["winner"]] == 0 < hand["game_points"][hand["winner"]]


def _bura_hidden(state: dict[str, Any], seat: int | None) -> Counter[str]:
    return _hidden_in_family(state, seat, face_down=not state["options"]["open_play"])


def _kozel_bura_hidden(state: dict[str, Any], seat: int | None) -> Counter[str]:
    return _hidden_in_family(state, seat, face_down=False)  # every card is played face up


def _hidden_in_family(state: dict[str, Any], seat: int | None, *, face_down: bool) -> Counter[str]:
    hidden = Counter(state["stock"][:-1])
    for other, hand in enumerate(state["hands"]):
        if other != seat:
            hidden.update(hand)
            if face_down:
                hidden.update(state["won"][other])
    for play in (state["trick"] or {"plays": []})["plays"]:
        if play["face_down"] and play["seat"] != seat:
            hidden.update(play["cards"])
    return hidden


def _bura_score(state: dict[str, Any], answer: dict[str, Any]) -> None:
    hand, points = answer["hand"], state["points"]
    assert not set(hand["winners"]) & set(hand["losers"])
    assert sum(points) + sum(multi_trick.CARD_VALUES[CARDS[c].rank] for c in _all_unplayed(state)) == 120
    if hand["reason"] == "claim_correct":
        assert points[hand["seat"]] >= state["options"]["winning_points"] and hand["winners"] == [hand["seat"]]
    if hand["reason"] == "claim_false":
        assert points[hand["seat"]] < state["options"]["winning_points"] and hand["losers"] == [hand["seat"]]
    if hand["reason"] == "void":
        assert hand["winners"] == hand["losers"] == [] and answer["match"]["void_streak"] >= 1
    assert sum(answer["match"]["match_scores"]) == hand["value"] * len(hand["winners"])


def _all_unplayed(state: dict[str, Any]) -> list[str]:
    trick = [c for p in (state["trick"] or {"plays": []})["plays"] for c in p["cards"]]
    return state["stock"] + [c for h in state["hands"] for c in h] + trick


def _kozel_bura_score(state: dict[str, Any], answer: dict[str, Any]) -> None:
    hand, points = answer["hand"], state["points"]
    assert sum(points) + sum(multi_trick.CARD_VALUES[CARDS[c].rank] for c in _all_unplayed(state)) == 120
    if hand["reason"] == "played_out":
        assert sum(points) == 120 and points[hand["winner"]] == max(points)
        assert points.count(max(points)) == 1
    if hand["reason"] == "eggs":
        assert hand["penalties"] == [0] * len(points) and answer["match"]["multiplier"] == 2
    else:
        assert hand["penalties"][hand["winner"]] == 0
        assert all(p in (2, 4, 6) for s, p in enumerate(hand["penalties"]) if s != hand["winner"])
    assert answer["match"]["penalties"] == hand["penalties"]


def _kozel_hidden(state: dict[str, Any], seat: int | None) -> Counter[str]:
    hidden = Counter(state["undealt"])
    for other, hand in enumerate(state["hands"]):
        if other != seat:
            hidden.update(hand)
    hidden -= Counter(state["turned"])  # shown to everyone when trump was fixed
    received = state["received_trump"]
    if received and seat is not None and seat % 2 == state["to_move"] % 2:
        hidden -= Counter([received])  # the giver knows the card it passed
    return hidden


def _kozel_score(state: dict[str, Any], answer: dict[str, Any]) -> None:
    hand = answer["hand"]
    assert sum(hand["points"]) == 120
    if hand["qc_captured_team"] is None:
        assert hand["eggs"] == (hand["points"] == [60, 60])
        if not hand["eggs"]:
            loser = hand["points"].index(min(hand["points"]))
            assert hand["pairs_opened_this_hand"][loser] in (1, 2, 3)
            assert hand["pairs_opened_this_hand"][1 - loser] == 0
    assert answer["match"]["pairs_opened"] == hand["pairs_opened_this_hand"]


# What each game hides from a seat, and what its score must satisfy.
HIDDEN: dict[str, Callable[[dict[str, Any], int | None], Counter[str]]] = {
    "sixty-six": _sixty_six_hidden,
    "bura": _bura_hidden,
    "kozel-bura": _kozel_bura_hidden,
    "kozel": _kozel_hidden,
}
SCORE_INVARIANTS: dict[str, Callable[[dict[str, Any], dict[str, Any]], None]] = {
    "sixty-six": _sixty_six_score,
    "bura": _bura_score,
    "kozel-bura": _kozel_bura_score,
    "kozel": _kozel_score,
}


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


def _codes_in(value: Any) -> Counter[str]:
    if isinstance(value, str):
        return Counter([value]) if value in CARDS else Counter()
    if isinstance(value, list):
        return sum((_codes_in(v) for v in value), Counter())
    if isinstance(value, dict):
        return sum((_codes_in(v) for k, v in value.items() if k != "options"), Counter())
    return Counter()


def check_view(game: Game, state: Any) -> None:
    wire = game.dump_state(state)
    visible_everywhere = _codes_in(wire)
    for seat in [None, *range(wire["seats"])]:
        hidden = HIDDEN[game.info.id](wire, seat)
        shown = _codes_in(game.view(state, seat))
        allowed = visible_everywhere - hidden
        assert not shown - allowed, f"seat {seat} sees {shown - allowed}"


def play_hand(game: Game, seed: str, *, check_views: bool = False) -> tuple[Any, int]:
    rng = random.Random(seed)
    players = rng.choice(game.info.player_counts)
    state = deal(game, seed, players, random_options(game, rng))
    moves = 0
    while game.to_move(state) is not None:
        assert game.load_state(game.dump_state(state)) == state, "the wire form round-trips"
        if check_views:
            check_view(game, state)
        seat = game.to_move(state)
        legal = legal_moves(game, state, seat)
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


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_random_hands_play_to_the_end_and_score(game_id):
    game = GAMES[game_id]
    for n in range(HANDS_PER_GAME):
        state, _ = play_hand(game, f"hand-{n}")
        answer = game.score(state, None)
        SCORE_INVARIANTS[game_id](game.dump_state(state), answer)


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
    for n in range(30):
        play_hand(game, f"view-{n}", check_views=True)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_legal_moves_agree_with_check(game_id):
    """Every listed move passes ``check``; moves by other seats and unlisted cards are refused."""
    game = GAMES[game_id]
    rng = random.Random(game_id)
    for n in range(40):
        state = deal(game, f"agree-{n}", game.info.default_players, random_options(game, rng))
        while game.to_move(state) is not None:
            seat = game.to_move(state)
            listed = legal_moves(game, state, seat)
            for other in range(game.dump_state(state)["seats"]):
                if other != seat:  # out of turn, only what the rules allow out of turn
                    kinds = {game.dump_move(m)["type"] for m in legal_moves(game, state, other)}
                    assert kinds <= set(game.info.out_of_turn_moves), kinds
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
    assert not is_legal(game, state, parsed), move


def _trick_family_universe(state: Any) -> Iterator[Any]:
    for seat, hand in enumerate(state.hands):
        for size in (1, 2, 3):
            for cards in dict.fromkeys(combinations(hand, size)):
                yield multi_trick.Lead(seat, cards)
                yield multi_trick.Molodka(seat, cards)
                yield multi_trick.Respond(seat, cards, "beat")
                yield multi_trick.Respond(seat, cards, "discard")


def _bura_universe(state: Any) -> Iterator[Any]:
    yield from _trick_family_universe(state)
    for seat in range(state.seats):
        yield from (bura.Claim(seat), bura.Pass(seat), bura.Declare(seat, "bura"), bura.Declare(seat, "moscow"))


def _kozel_universe(state: Any) -> Iterator[Any]:
    orders = [None, *permutations(range(kozel.SEATS))]
    for seat, hand in enumerate(state.hands):
        yield kozel.Pass(seat)
        for card in hand:
            yield from (kozel.Play(seat, card), kozel.GiveTrump(seat, card), kozel.GiveBack(seat, card))
        for suit in (None, *"CDHS"):
            for by_last in (False, True):
                yield from (kozel.NameTrump(seat, suit, by_last, order) for order in orders)


def _sixty_six_universe(state: Any) -> Iterator[Any]:
    for seat in (0, 1):
        yield from (sixty_six.Close(seat), sixty_six.ExchangeTrump(seat))
        yield from (sixty_six.Claim(seat, suit) for suit in (None, *"CDHS"))
        for card in state.hands[seat]:
            yield from (sixty_six.Play(seat, card), sixty_six.Play(seat, card, marriage=True))


# Moves built without the games' own candidate lists: every card combination of every hand in
# every move shape, for every seat.
UNIVERSES: dict[str, Callable[[Any], Iterator[Any]]] = {
    "sixty-six": _sixty_six_universe,
    "bura": _bura_universe,
    "kozel-bura": _trick_family_universe,
    "kozel": _kozel_universe,
}


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_move_check_accepts_is_listed(game_id):
    """Legal moves are listed from each game's candidates; a move ``check`` accepts that the
    candidates missed would be a legal move no front end is offered."""
    game = GAMES[game_id]
    rng = random.Random(f"universe-{game_id}")
    for n in range(15):
        players = rng.choice(game.info.player_counts)
        state = deal(game, f"universe-{n}", players, random_options(game, rng))
        while game.to_move(state) is not None:
            listed = {seat: legal_moves(game, state, seat) for seat in range(len(state.hands))}
            for move in UNIVERSES[game_id](state):
                if is_legal(game, state, move):
                    assert move in listed[move.seat], move
            state, _ = game.apply(state, rng.choice(listed[game.to_move(state)]))
