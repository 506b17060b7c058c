"""History in, inference out: the constrained deal every redeal uses (``unseen_dealt_again`` with
``held`` and ``lacking``), and Sixty-six's ``infer`` (the exchanged trump card, the strict phase's
voids), which the exact endgame then keeps to."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from service.cards import SeedStream, card
from service.games.advice import Known, unseen_dealt_again
from service.games.base import DealSetup
from service.games.sixty_six.advice import infer, redeal, worlds
from service.games.sixty_six.game import SixtySix
from service.games.sixty_six.rules import Close, ExchangeTrump, Move, Play, State
from service.player import Effort, history_of, suggest

GAME = SixtySix()
CARDS = [card(code) for code in ("AH", "KH", "QH", "JH", "AS", "KS", "QS", "JS", "AC", "KC")]


def test_a_plain_deal_keeps_the_sizes_and_the_cards() -> None:
    piles = [CARDS[:3], CARDS[3:7], CARDS[7:]]
    dealt = unseen_dealt_again(random.Random(1), piles)
    assert [len(p) for p in dealt] == [3, 4, 3]
    assert Counter(c for p in dealt for c in p) == Counter(CARDS)


@pytest.mark.parametrize("seed", range(40))
def test_held_cards_stay_and_lacking_cards_never_come(seed: int) -> None:
    piles = [CARDS[:3], CARDS[3:7], CARDS[7:]]
    hearts = frozenset(c for c in CARDS if c.suit == "H")
    dealt = unseen_dealt_again(random.Random(seed), piles, held=[(card("AS"),), ()],
                               lacking=[hearts, frozenset()])
    assert card("AS") in dealt[0]
    assert not hearts.intersection(dealt[0])
    assert Counter(c for p in dealt for c in p) == Counter(CARDS)
    assert [len(p) for p in dealt] == [3, 4, 3]


def test_every_deal_the_knowledge_allows_comes_up() -> None:
    """Not one fixed answer: the first pile, no heart and holding the ace of spades, gets each of
    the other seven cards that fit it in some deal."""
    piles = [CARDS[:3], CARDS[3:7], CARDS[7:]]
    hearts = frozenset(c for c in CARDS if c.suit == "H")
    seen = Counter(c for seed in range(300) for c in unseen_dealt_again(
        random.Random(seed), piles, held=[(card("AS"),)], lacking=[hearts])[0])
    assert set(seen) == set(CARDS) - hearts
    assert seen[card("AS")] == 300


def test_knowledge_the_cards_cannot_meet_is_let_go() -> None:
    """Five cards lacking from a pile of five places that only they can fill: the deal is the
    plain one, in bounded time, not a search."""
    piles = [CARDS[:5], CARDS[5:]]
    everything = frozenset(CARDS)
    dealt = unseen_dealt_again(random.Random(3), piles, lacking=[everything, everything])
    assert Counter(c for p in dealt for c in p) == Counter(CARDS)


def test_where_each_card_lay_is_never_read() -> None:
    known = dict(held=[(card("KS"),)], lacking=[frozenset({card("AH")})])
    one = unseen_dealt_again(random.Random(5), [CARDS[:4], CARDS[4:]], **known)
    other = unseen_dealt_again(random.Random(5), [CARDS[6:], CARDS[:6]], **known)
    assert one == other


def played_to(seed: int) -> tuple[list[tuple[State, Move]], State] | None:
    """A hand of random moves, its stock closed as soon as it holds five cards or fewer, played
    until the second seat has shown a void in the strict phase and the first seat is to move:
    the history and the state, or None when the hand never gets there."""
    rng = random.Random(seed)
    state = _start(seed)
    moves: list[Move] = []
    while (seat := GAME.to_move(state)) is not None:
        if seat == 0 and infer(history_of(GAME, _start(seed), moves), 0).lacking[1] and \
                len(GAME.legal_moves(state, 0)) > 1:
            return history_of(GAME, _start(seed), moves), state
        legal = GAME.legal_moves(state, seat)
        closing = [m for m in legal if isinstance(m, Close)]
        plays = [m for m in legal if isinstance(m, Play)]
        move = closing[0] if closing and len(state.stock) <= 5 else rng.choice(plays or legal)
        moves.append(move)
        state, _ = GAME.apply(state, move)
    return None


def _start(seed: int) -> State:
    options = {"allow_trump_nine_exchange": True}
    return GAME.deal(DealSetup(2, 0, options, None), SeedStream(f"inference-{seed}"))


def found_positions(count: int) -> list[tuple[list[tuple[State, Move]], State]]:
    found = []
    for seed in range(400):
        position = played_to(seed)
        if position is not None:
            found.append(position)
        if len(found) == count:
            break
    return found


def test_a_failure_to_follow_in_the_strict_phase_shows_a_void() -> None:
    positions = found_positions(20)
    assert len(positions) == 20
    for history, _ in positions:
        known = infer(history, 0)
        for state, move in history:
            if move.seat == 1 and isinstance(move, Play) and state.trick and state.strict:
                lead = state.trick[0][1]
                if move.card.suit != lead.suit:
                    assert {c for c in known.lacking[1] if c.suit == lead.suit} == \
                        {card(r + lead.suit) for r in ("A", "10", "K", "Q", "J", "9")}
        # what it lacks it truly lacks: the inference is certain
        final = history[-1][0]
        assert not known.lacking[1].intersection(final.hands[1])


def test_nothing_is_inferred_before_the_strict_phase() -> None:
    rng = random.Random(2)
    state, moves = _start(7), []
    for _ in range(6):
        seat = GAME.to_move(state)
        assert seat is not None and not state.strict
        move = rng.choice([m for m in GAME.legal_moves(state, seat) if isinstance(m, Play)])
        moves.append(move)
        state, _ = GAME.apply(state, move)
    assert infer(history_of(GAME, _start(7), moves), 0) == Known(held={1: ()}, lacking={1: frozenset()})


def test_the_exchanged_trump_card_is_known_to_be_in_the_exchangers_hand() -> None:
    for seed in range(300):
        state, moves, rng = _start(seed), [], random.Random(seed)
        while (seat := GAME.to_move(state)) is not None and not state.strict:
            legal = GAME.legal_moves(state, seat)
            exchange = [m for m in legal if isinstance(m, ExchangeTrump)]
            if exchange and seat == 1:
                face_up = state.stock[-1]
                moves.append(exchange[0])
                state, _ = GAME.apply(state, exchange[0])
                known = infer(history_of(GAME, _start(seed), moves), 0)
                assert known.held[1] == (face_up,)
                for r in range(20):
                    assert face_up in redeal(state, 0, random.Random(r), known).hands[1]
                return
            move = rng.choice([m for m in legal if isinstance(m, Play)])
            moves.append(move)
            state, _ = GAME.apply(state, move)
    pytest.fail("no hand of 300 had the second seat exchange the trump nine")


def test_the_worlds_keep_to_what_the_play_showed() -> None:
    """Fewer worlds with the history than without, each of them one the history allows, and the
    true deal among them; the player then solves exactly those."""
    positions = [(h, s) for h, s in found_positions(20) if worlds(s, 0, 200) is not None]
    assert len(positions) >= 5
    fewer = 0
    for history, state in positions:
        known = infer(history, 0)
        plain, kept = worlds(state, 0, 200), worlds(state, 0, 200, known)
        assert plain is not None and kept is not None
        assert all(not known.lacking[1].intersection(w.hands[1]) for w in kept)
        assert set(state.hands[1]) in [set(w.hands[1]) for w in kept]  # the true deal, in its order
        fewer += len(kept) < len(plain)
        found = suggest(GAME, state, 0, seed="x", effort=Effort(1, float("inf")), history=history)
        assert found.samples == len(kept)
    assert fewer >= 5
