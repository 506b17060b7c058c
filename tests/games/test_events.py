"""Every game's events as a seat (or a spectator) is told them (``service.api.events.told``): each
carries exactly the fields its type declares, never another seat's private cards, and they are
enough to follow one's own hand, and the size of every other hand, from the deal's view alone.
Random legal hands at every table, under a few sets of options each."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

import pytest

from service.api.events import told
from service.cards import SeedStream
from service.errors import InvalidState
from service.games.base import DealSetup, Event, EventType, Wire
from service.games.registry import GAMES

TABLES = [(game, players) for game in sorted(GAMES) for players in GAMES[game].info.player_counts]
HANDS = {"bezique": 4, "canasta": 6}
"""Hands per table: 20, but in the long games."""
SELDOM = ("claim", "close")
"""Moves that end a hand early, or change it for good, played seldom so that most hands are
played out."""
OPTIONS: dict[str, list[Wire]] = {
    "sixty-six": [{}, {"allow_trump_nine_exchange": True, "allow_claim": True}],
    "bura": [{}, {"open_play": True}],
    "kozel-bura": [{}, {"triple_lead": True, "deck": 32}],
    "kozel": [{}, {"trump_method": "three_cards"}, {"trump_method": "first_card"},
              {"jack_of_clubs_first_deal": True}],
    "bezique": [{}, {"wild_cards": 0, "exchange_points": 10, "deal_packet_size": 1}],
    "canasta": [{}, {"variant": "seed_108", "ask_permission": True},
                {"variant": "seed_108", "first_take_mode": "meld_no_minimum"}, {"variant": "seed_13"}],
}
"""The sets of options the hands of each game cycle through, so that the optional moves (and
their events) are played too; a table a set does not fit (Canasta's variants at six) plays the
defaults instead."""

Lose = Callable[[list[Event]], list[Event]]


class Follower:
    """What one seat (None: a spectator) knows of the hands: its view of the deal, then what it is
    told of each move."""

    def __init__(self, types: Mapping[str, EventType], view: Wire) -> None:
        self.types, self.seat = types, view["seat"]
        self.hand = Counter(view["hand"] or ())
        self.sizes = list(view["hand_sizes"])

    def told(self, events: list[Event]) -> None:
        self.heard(told(self.types, events, self.seat))

    def heard(self, events: list[Wire]) -> None:
        """Follows events as they came on the wire, each checked against its type."""
        for wire in events:
            declared = self.types[wire["type"]]
            check_fields(declared, wire, self.seat)
            self.follow(declared, wire)

    def follow(self, declared: EventType, wire: Wire) -> None:
        cards = Counter(wire["cards"]) if "cards" in wire else None
        count = wire["count"] if declared.private else len(wire.get("cards", ()))
        if declared.to:
            self.move(wire["seat"], -count, cards)
            self.move(wire["to"], count, cards)
        elif declared.hand:
            self.move(wire["seat"], declared.hand * count, cards)

    def move(self, seat: int, change: int, cards: Counter[str] | None) -> None:
        self.sizes[seat] += change
        if seat != self.seat:
            return
        assert cards is not None, "a seat is told the cards its own hand gains or loses"
        if change > 0:
            self.hand += cards
        else:
            assert not cards - self.hand, f"seat {seat} is told it gave up cards it does not hold"
            self.hand -= cards

    def agrees(self, view: Wire) -> None:
        assert self.hand == Counter(view["hand"] or ()), f"seat {self.seat}'s hand"
        assert self.sizes == list(view["hand_sizes"]), f"the hand sizes, as seat {self.seat} follows them"


def check_fields(declared: EventType, wire: Wire, viewer: int | None) -> None:
    """The wire event has exactly its type's fields, each filled, and a private type's cards only
    for the seats they belong to."""
    seat, to = wire["seat"], wire.get("to")
    shown = declared.cards and (not declared.private or (viewer is not None and viewer in (seat, to)))
    expected = {"type", "seat"} | {
        name for name, present in (("cards", shown), ("count", declared.private), ("points", declared.points),
                                   ("suit", declared.suit), ("kind", bool(declared.kinds)), ("to", declared.to))
        if present}
    if "text" in wire:  # on the wire, its sentence (``service.api.events.spoken``)
        assert isinstance(wire["text"], str) and wire["text"], wire
        expected.add("text")
    assert set(wire) == expected, wire
    assert isinstance(seat, int) or (declared.winner and seat is None), wire
    assert not declared.points or isinstance(wire["points"], int), wire
    assert not declared.suit or wire["suit"] in ("C", "D", "H", "S"), wire
    assert not declared.kinds or wire["kind"] in declared.kinds, wire
    assert not declared.to or (isinstance(to, int) and to != seat), wire
    assert not shown or not declared.private or wire["count"] == len(wire["cards"]), wire


def play_hand(game_id: str, players: int, index: int, *, lose: Lose = lambda events: events) -> int:
    """Deal and play one random legal hand, every seat and a spectator following it by what they
    are told; ``lose`` may take events away before they are told. Answers the moves played."""
    game = GAMES[game_id]
    options = OPTIONS[game_id][index % len(OPTIONS[game_id])]
    state = deal(game, players, options, f"{game_id}-{players}-{index}")
    followers = [Follower(game.info.event_types, game.view(state, seat)) for seat in (*range(players), None)]
    rng, moves = random.Random(index), 0
    while game.to_move(state) is not None:
        anyone = [move for seat in range(players) for move in game.legal_moves(state, seat)]
        state, events = game.apply(state, pick(rng, anyone))
        moves += 1
        for follower in followers:
            follower.told(lose(events))
            follower.agrees(game.view(state, follower.seat))
    return moves


def pick(rng: random.Random, moves: list[Any]) -> Any:
    """A random move of any seat's (a molodka is played out of turn), one of ``SELDOM`` seldom."""
    usual = [move for move in moves if move.kind not in SELDOM]
    return rng.choice(usual if usual and rng.random() > 0.05 else moves)


def deal(game: Any, players: int, options: Wire, seed: str) -> Any:
    try:
        return game.deal(DealSetup(players, None, options, None), SeedStream(seed))
    except InvalidState:  # these options are not played at this table
        return game.deal(DealSetup(players, None, {}, None), SeedStream(seed))


@pytest.mark.parametrize(("game_id", "players"), TABLES)
def test_each_seat_follows_the_hands_from_its_events(game_id: str, players: int) -> None:
    assert sum(play_hand(game_id, players, index) for index in range(HANDS.get(game_id, 20))) > 0


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_event_type_declares_what_it_does_to_hands(game_id: str) -> None:
    for name, declared in GAMES[game_id].info.event_types.items():
        assert declared.doc and declared.hand in (-1, 0, 1), name
        assert not (declared.hand or declared.to or declared.private) or declared.cards, name
        assert not declared.to or declared.hand == 0, name


def first_dropped(kind: str) -> Lose:
    """Loses the first event of type ``kind``, for every seat."""
    lost: list[Event] = []

    def lose(events: list[Event]) -> list[Event]:
        if not lost:
            lost.extend(e for e in events if e.type == kind)
        return [e for e in events if not lost or e is not lost[0]]

    return lose


@pytest.mark.parametrize(("game_id", "players", "kind"), [
    ("sixty-six", 2, "card_drawn"), ("bura", 3, "card_drawn"), ("canasta", 4, "drew"),
    ("kozel", 4, "card_played"),
])
def test_the_check_fails_when_an_event_is_lost(game_id: str, players: int, kind: str) -> None:
    lose = first_dropped(kind)
    with pytest.raises(AssertionError, match=r"hand|hold"):
        for index in range(HANDS.get(game_id, 20)):  # until a hand has such an event
            play_hand(game_id, players, index, lose=lose)
