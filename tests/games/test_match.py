"""The match standing's shared checks (service.games.match): each refusal and where it points,
in the order every game keeps them; and how a game's description and wire methods are declared
(service.games.base.describe, service.games.wired.Wired)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from service.cards import CARDS, deck
from service.errors import InvalidMatch, InvalidState
from service.games import base, compose, wired
from service.games.match import Match, MatchRules

PARTY = MatchRules(totals="party_score", word="party", reached="a seat has {target} game points")
KOZEL_LIKE = MatchRules(totals="pairs_opened", over_with=("winner", "loser"), reached="a team opened {target}")
BURA_LIKE = MatchRules(totals="match_scores", reached="a seat has {target} games", seats=("next_dealer", "next_leader"))


@dataclass(frozen=True, slots=True)
class Goat:
    totals: tuple[int, ...]
    over: bool
    winner: tuple[int, ...] | None
    loser: tuple[int, ...] | None
    next_dealer: int


@dataclass(frozen=True, slots=True)
class Led:
    totals: tuple[int, ...]
    over: bool
    winner: tuple[int, ...] | None
    next_dealer: int
    next_leader: int


def _refused(rules, match, **kwargs):
    with pytest.raises(InvalidMatch) as error:
        rules.check(match, **{"dealer": 1, "at": "/dealer", **kwargs})
    return error.value.errors[0].pointer, str(error.value.errors[0].message)


OPEN = Match((3, 4), False, None, 1)


@pytest.mark.parametrize(("rules", "match", "kwargs", "pointer", "message"), [
    (PARTY, Match((3, 4, 0), False, None, 1), {"count": 2}, "/match/party_score", "one total per seat: 2"),
    (PARTY, Match((3, 4), True, 0, 1), {}, "/match/over", "the party is over: deal a new one without a match"),
    (PARTY, Match((8, 4), False, None, 1), {"target": 8}, "/match/party_score", "a seat has 8 game points"),
    (PARTY, Match((8, 4), False, 0, 1), {"target": 8}, "/match/party_score", "a seat has 8 game points"),
    (PARTY, Match((3, 4), False, 0, 1), {"target": 8}, "/match/winner", "a party that is not over has no winner"),
    (PARTY, Match((3, 4), False, None, 0), {}, "/dealer", "the match says seat 0 deals this hand"),
    (PARTY, Match((3, 4), False, None, 0), {"at": "/match/next_dealer"}, "/match/next_dealer",
     "the match says seat 0 deals this hand"),
    (KOZEL_LIKE, Goat((9, 4), False, None, (0, 2), 1), {"target": 8}, "/match/over",
     "the match is over: deal a new one without a match"),
    (KOZEL_LIKE, Goat((9, 4), False, None, None, 1), {"target": 8}, "/match/pairs_opened", "a team opened 8"),
    (BURA_LIKE, Led((1, 2, 0), False, None, 1, 5), {"seats": 3}, "/match/next_leader", "seats are 0..2"),
    (BURA_LIKE, Led((1, 2, 0), False, None, 4, 0), {"seats": 3, "dealer": 4}, "/match/next_dealer", "seats are 0..2"),
])
def test_each_refusal_and_its_pointer(rules, match, kwargs, pointer, message):
    assert _refused(rules, match, **kwargs) == (pointer, message)


def test_a_standing_that_goes_on_passes():
    PARTY.check(OPEN, dealer=1, at="/dealer", count=2, target=8)
    BURA_LIKE.check(Led((1, 2, 0), False, None, 1, 2), dealer=1, at="/dealer", count=3, seats=3, target=5)


def test_a_game_check_runs_before_the_dealer_is_compared():
    def target_differs():
        raise InvalidMatch("/match/target", "the options play this match to 5")

    with pytest.raises(InvalidMatch) as error:
        PARTY.check(Match((3, 4), False, None, 0), dealer=1, at="/dealer", also=target_differs)
    assert error.value.errors[0].pointer == "/match/target"


def test_no_standing_sent_is_a_new_match():
    new = Match((0, 0), False, None, 1)
    assert PARTY.standing(None, lambda w: pytest.fail("nothing to load"), new=lambda: new, dealer=1, at="/dealer") is new
    loaded = PARTY.standing({"x": 1}, lambda w: OPEN, new=lambda: new, dealer=1, at="/dealer", target=8)
    assert loaded is OPEN


def test_a_sized_standing_is_counted_against_the_table_before_it_is_read():
    sized = MatchRules(totals="match_scores", sized=True)
    with pytest.raises(InvalidState) as error:
        sized.standing({"match_scores": [0, 0]}, lambda w: pytest.fail("not read"), new=lambda: OPEN, dealer=1,
                       at="/dealer", seats=3)
    assert error.value.errors[0].pointer == "/match/match_scores"


# --- describe ---------------------------------------------------------------------------------


class _Reason(base.Reason):
    NO = "no", "§1 no"


@dataclass(frozen=True, slots=True)
class _Options:
    big: bool = base.option(False, "Big.")


def test_describe_builds_the_info_from_the_declarations():
    small = deck(("A", "K"), suits=("S", "H"))
    info = base.describe(id="t", name_en="T", name_ru="Т", players=(3, 4), deck=small,
                         about_deck="4 cards: {cards}", points={CARDS["AS"]: 11}, moves={"go": "Go.", "stop": "Stop."},
                         reasons=_Reason, events={"went": base.EventType("Went.", says=base.Saying("{seat} went"))},
                         options=_Options, largest_deck=(*small, CARDS["QS"]))
    assert info.about_deck == "4 cards: {cards}" and info.deck_cards == ("AS", "KS", "AH", "KH")
    assert info.card_values == {"AS": 11, "KS": 0, "AH": 0, "KH": 0, "QS": 0}
    assert (info.default_players, info.move_types, info.options) == (3, ("go", "stop"), {"big": False})
    assert info.move_texts == {"go": "Go.", "stop": "Stop."}
    assert info.option_texts["big"] == base.OptionText("Big.", {})
    by_rank = base.describe(id="t", name_en="T", name_ru="Т", players=(2, 4), default_players=4, deck=small,
                            about_deck="no list", points=lambda c: len(c.rank), moves={}, reasons=_Reason,
                            events={}, options=_Options)
    assert by_rank.about_deck == "no list" and by_rank.card_values["AS"] == 1 and by_rank.default_players == 4


# --- the wire methods, declared once ----------------------------------------------------------


def _load(wire):
    return ("state", wire)


FORM = wired.WireForm(_load, lambda s: {"s": s}, lambda s: {"s": s}, lambda w: ("move", w), lambda m: {"m": m},
                      lambda s, seat: {"v": seat}, _load, None, None, None, None)  # the wire methods alone


class _Declared(compose.TrickGame):
    rule_set = compose.RuleSet(lambda s, m: None, lambda s, m: (s, []), lambda s, seat: ())
    wire_form = FORM


class _ByHand(compose.TrickGame):
    rule_set = _Declared.rule_set
    wire_form = FORM

    def view(self, state, seat):
        return {"by hand": seat}


def test_a_declared_wire_form_gives_the_methods_themselves():
    game = _Declared()
    assert game.load_state is _load, "the wire function itself: no delegating frame"
    assert game.load_state(1) == ("state", 1) and game.dump_move(2) == {"m": 2} and game.view(0, 1) == {"v": 1}


def test_a_method_written_by_hand_is_kept():
    assert _ByHand().view(None, 1) == {"by hand": 1} and _ByHand().load_move(3) == ("move", 3)
