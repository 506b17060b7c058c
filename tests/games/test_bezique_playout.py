"""Bezique's playout policy (``playout`` in service/games/bezique/advice.py): every move it makes
is legal, it builds ``greedy``'s declarations and cards without the listing, and one move in
``EXPLORE`` it draws another."""

from __future__ import annotations

import random
from typing import Any

import pytest

from service.cards import CARDS, JOKER, SeedStream
from service.games.advice import EXPLORE
from service.games.base import DealSetup, accepts
from service.games.bezique import listing
from service.games.bezique.advice import ADVICE, greedy, playout
from service.games.bezique.rules import Declare, ExchangeTrump, Move, Pass, Play, State, check
from tests.games.bezique_positions import GAME, position, shown

TABLES: list[tuple[int, dict[str, Any]]] = [
    (2, {}), (3, {}), (4, {}), (3, {"dealer_plays_at_three": True}),
    (2, {"packs": 10, "wild_cards": 0, "ten_rank": "low"}),
    (2, {"declaration_spacing": "not_consecutive", "deal_packet_size": 1}),
]


class Calm(random.Random):
    """A generator whose every draw is 0.5: the policy never explores."""

    def random(self) -> float:
        return 0.5


def hands_played(players: int, options: dict[str, Any], hands: int) -> list[tuple[State, Move]]:
    """Every (state, move) of ``hands`` hands played by the playout policy alone."""
    played = []
    for hand in range(hands):
        rng = random.Random(f"playout/{players}/{options}/{hand}")
        state = GAME.deal(DealSetup(players, hand % players, options, None), SeedStream(f"playout-{hand}"))
        while (seat := GAME.to_move(state)) is not None:
            move = playout(state, seat, rng)
            played.append((state, move))
            state, _ = GAME.apply(state, move)
    return played


@pytest.mark.parametrize(("players", "options"), TABLES)
def test_every_playout_move_is_legal(players: int, options: dict[str, Any]) -> None:
    played = hands_played(players, options, hands=2)
    for state, move in played:
        assert accepts(check, state, move), (move, state)
    assert {type(move) for _, move in played} >= {Play, Declare, Pass}


def test_the_playout_never_lists_the_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    """The listing and its declarations (the cost the policy is there to save) are never asked."""
    def refused(*args: Any) -> Any:
        raise AssertionError("the playout listed the moves")

    monkeypatch.setattr(listing, "listing", refused)
    monkeypatch.setattr(listing, "declarations", refused)
    assert len(hands_played(2, {}, hands=1)) > 100


def test_the_playout_explores_about_one_move_in_ten() -> None:
    """Cards drawn at random: hearts trumps, the trump nine is the one spare card that covers."""
    state = position(hands={0: "KH AH JH 9H" + " 10D" * 7 + " 10S" * 7}, trick=["AC"], phase="follow",
                     trump_suit="H")
    rng = random.Random(5)
    drawn = [playout(state, 0, rng) for _ in range(2000)]
    assert all(accepts(check, state, move) for move in drawn)
    others = sum(1 for move in drawn if move != Play(0, CARDS["9H"]))
    assert 0.5 * EXPLORE < others / len(drawn) < 1.5 * EXPLORE


def test_the_playout_takes_the_trick_with_the_cheapest_card_it_can_spare() -> None:
    state = position(hands={0: "KH AH JH 9H" + " 10D" * 7 + " 10S" * 7}, trick=["AC"], phase="follow",
                     trump_suit="H")
    assert playout(state, 0, Calm()) == Play(0, CARDS["9H"]) == greedy(state, 0, GAME.legal_moves(state, 0))


def test_the_playout_keeps_its_trump_queens_when_only_they_cover() -> None:
    state = position(hands={0: "QH QH QH JD" + " 10D" * 7 + " 10S" * 7}, trick=["AC"], phase="follow",
                     trump_suit="H")
    move = playout(state, 0, Calm())
    assert isinstance(move, Play) and move.card is not None and move.card.code in ("10D", "10S")


def test_the_playout_leads_its_weakest_plain_card() -> None:
    state = position(hands={0: "QH JD AH" + " 10D" * 7 + " KS" * 3 + " 9C"}, trump_suit="H")
    assert playout(state, 0, Calm()) == Play(0, CARDS["9C"])


def test_the_playout_declares_what_scores_most() -> None:
    """Four trump queens (176) rather than a bezique (25) or four queens (6)."""
    state = position(hands={1: "QH QH QH QH JD"}, phase="declare", trump_suit="H")
    move = playout(state, 1, Calm())
    assert isinstance(move, Declare) and (move.declaration, move.multiplicity) == ("four_trump_queens", 1)
    assert move == greedy(state, 1, GAME.legal_moves(state, 1))


def test_the_playout_declares_the_ladder_one_at_a_time() -> None:
    state = position(hands={1: "QH QH JD JD"}, phase="declare", trump_suit="H")
    move = playout(state, 1, Calm())
    assert isinstance(move, Declare) and (move.declaration, move.multiplicity) == ("bezique", 1)


def test_the_playout_shows_a_table_card_again_in_another_family() -> None:
    """The trump queen shown in four trump queens makes a bezique with the bezique jack (§4.3.7)."""
    queens = [shown("QH", "four_trump_queens") for _ in range(4)]
    state = position(hands={1: "JD"}, exposed={1: queens}, phase="declare", trump_suit="H",
                     tricks_played=12, leader=1)
    move = playout(state, 1, Calm())
    assert isinstance(move, Declare) and move.declaration == "bezique"
    assert [c.code for c, _ in move.from_hand] == ["JD"] and len(move.from_table) == 1


def test_the_playout_spares_the_trump_honours_a_plain_four_would_take() -> None:
    """Four queens for 6 would take the trump queen (§4.3.7: its four is then closed): a pass."""
    state = position(hands={1: "QH QC QD QS"}, phase="declare", trump_suit="H")
    assert playout(state, 1, Calm()) == Pass(1)


def test_the_playout_shows_a_wild_card_only_for_more_than_it_is_worth_kept() -> None:
    four = playout(position(hands={1: "QH QH QH JK"}, phase="declare", trump_suit="H"), 1, Calm())
    assert isinstance(four, Declare) and four.declaration == "four_trump_queens"
    assert (JOKER, CARDS["QH"]) in four.from_hand
    marriage = position(hands={1: "KH JK"}, phase="declare", trump_suit="H")
    assert playout(marriage, 1, Calm()) == Pass(1)  # 4 points for a wild card worth 20 kept


def test_the_playout_exchanges_the_trump_nine() -> None:
    state = position(hands={1: "9H QH"}, phase="declare", trump_suit="H", trump_card="AH", tricks_played=12,
                     leader=1)
    assert playout(state, 1, Calm()) == ExchangeTrump(1)


def test_the_playout_is_the_advice_s() -> None:
    assert ADVICE.playout is playout
