"""Sixty-six's playout policy (``advice.playout``) against the greedy player and the rules: on
positions of random play, with the table's options drawn at random, it makes ``greedy``'s move
over the listing when it does not explore (but where it spares its trumps), and a legal move
when it does."""

from __future__ import annotations

import random

from service.games.sixty_six import rules
from service.games.sixty_six.advice import TRUMPED, greedy, playout
from service.games.sixty_six.game import SixtySix
from service.games.sixty_six.rules import Claim, Close, ExchangeTrump, Play, State
from tests.games.test_sixty_six_endgame import random_options

GAME = SixtySix()


class Never(random.Random):
    """A generator whose draws never fall under ``EXPLORE``."""

    def random(self) -> float:
        return 1.0


def positions(count: int, seed: str) -> list[State]:
    """States of random play (no claims, a close one time in twenty), from hands of random
    options, the seat to move with a move to make."""
    rng, found = random.Random(seed), []
    while len(found) < count:
        deck = list(rules.DECK)
        rng.shuffle(deck)
        state = rules.deal_from(tuple(deck), rng.randrange(2), random_options(rng))
        while (seat := state.to_move) is not None:
            found.append(state)
            legal = [m for m in GAME.legal_moves(state, seat) if not isinstance(m, Claim)]
            plain = [m for m in legal if not isinstance(m, Close)]
            move = rng.choice(legal if rng.random() < 0.05 else plain)
            state, _ = GAME.apply(state, move)
    return found[:count]


def spares_trumps(state: State) -> bool:
    """A card led while the stock is open, worth less than ``TRUMPED``: the one place the
    playout parts from ``greedy``."""
    return bool(state.trick) and not state.strict and rules.POINTS[state.trick[0][1]] < TRUMPED


def test_the_playout_makes_the_greedy_move_when_it_does_not_explore() -> None:
    kinds = set()
    for state in positions(3000, "greedy"):
        seat = state.to_move
        assert seat is not None
        if spares_trumps(state):
            continue
        move = playout(state, seat, Never())
        assert move == greedy(state, seat, GAME.legal_moves(state, seat))
        kinds.add((type(move), isinstance(move, Play) and move.marriage, state.strict, bool(state.trick)))
    assert (ExchangeTrump, False, False, False) in kinds
    assert (Play, True, True, False) in kinds and (Play, True, False, False) in kinds
    assert (Play, False, True, True) in kinds and (Play, False, False, True) in kinds


def test_the_playout_heads_a_cheap_card_in_its_suit_or_throws_no_trump() -> None:
    """A card worth less than ``TRUMPED`` led while the stock is open: the cheapest higher card
    of its suit that is no trump, else the cheapest card that is no trump, else the cheapest."""
    headed = thrown = 0
    for state in filter(spares_trumps, positions(3000, "spared")):
        seat, lead, trump = state.to_move, state.trick[0][1], state.trump_suit
        assert seat is not None
        hand = state.hands[seat]
        higher = [c for c in hand if c.suit == lead.suit != trump
                  and rules.RANK_ORDER[c.rank] > rules.RANK_ORDER[lead.rank]]
        cheap = [c for c in hand if c.suit != trump] or list(hand)
        expected = min(higher or cheap, key=lambda c: (c.suit == trump, rules.POINTS[c],
                                                       rules.RANK_ORDER[c.rank]))
        assert playout(state, seat, Never()) == Play(seat, expected)
        headed, thrown = headed + bool(higher), thrown + (not higher)
    assert headed and thrown


def test_an_exploring_playout_plays_a_legal_move_of_every_kind() -> None:
    rng, seen = random.Random("explore"), set()
    for state in positions(3000, "explore"):
        seat = state.to_move
        assert seat is not None
        move = playout(state, seat, rng)
        legal = GAME.legal_moves(state, seat)
        assert move in legal
        seen.add(move != greedy(state, seat, legal))
    assert seen == {True, False}
