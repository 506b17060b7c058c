"""Kozel («Козёл»), docs/rules/kozel.md: the game object of the registry."""

from __future__ import annotations

from service.cards import CARDS, DeckSource, codes
from service.errors import HandNotFinished, InvalidMatch
from service.games.base import DealSetup, GameInfo, RuleSet, TrickGame, Wire, card_values, options_wire
from service.games.kozel import rules, wire
from service.games.kozel.rules import (
    TEAMS,
    GiveBack,
    GiveTrump,
    Match,
    Move,
    NameTrump,
    Pass,
    Phase,
    Play,
    State,
)
from service.games.kozel.schemas import SCHEMAS

INFO = GameInfo(
    id="kozel", name_en="Kozel", name_ru="Козёл", player_counts=(4,), default_players=4,
    deck="32 cards, A K Q J 10 9 8 7 of each suit: " + " ".join(codes(rules.DECK)),
    card_values=card_values(rules.DECK, rules.POINTS), deck_cards=tuple(codes(rules.DECK)),
    move_types=tuple(SCHEMAS.moves),
    reasons=rules.Reason, options=options_wire(rules.Options()),
    event_types=("trump_named", "trump_given", "card_given_back", "passed", "card_played",
                 "trick_won", "hand_over"),
    variants=("turn_to_left", "three_cards", "first_card", "jack_of_clubs_first_deal"),
)


CARD_MOVES: dict[str, type[Play | GiveTrump | GiveBack]] = {
    Play.kind: Play, GiveTrump.kind: GiveTrump, GiveBack.kind: GiveBack}


def _match(match: Wire | None, *, dealer: int, limit: int, at: str) -> Match:
    if match is None:
        return Match((0, 0), 1, False, None, dealer)
    opened = (match["pairs_opened"][0], match["pairs_opened"][1])
    if match["over"] or match["winner"] is not None or match["loser"] is not None:
        raise InvalidMatch("/match/over", "the match is over: deal a new one without a match")
    if max(opened) >= limit:
        raise InvalidMatch("/match/pairs_opened", f"a team has opened {limit} pairs: the match is over")
    if match["next_dealer"] != dealer:
        raise InvalidMatch(at, f"the match says seat {match['next_dealer']} deals this hand")
    return Match(opened, match["multiplier"], False, None, dealer)


def _match_wire(match: Match, limit: int) -> Wire:
    loser = None if match.loser is None else list(TEAMS[match.loser])
    winner = None if match.loser is None else list(TEAMS[1 - match.loser])
    return {
        "pairs_opened": list(match.pairs_opened), "multiplier": match.multiplier, "over": match.over,
        "winner": winner, "loser": loser, "next_dealer": match.next_dealer,
        "pips_opened": [2 * p for p in match.pairs_opened],
        "pairs_left": [max(0, limit - p) for p in match.pairs_opened],
    }


class Kozel(TrickGame[State, Move]):
    info = INFO
    schemas = SCHEMAS
    rule_set = RuleSet(rules.check, rules.apply, rules.candidate_moves)

    def deal(self, setup: DealSetup, source: DeckSource) -> State:
        options = wire.load_options(setup.options)
        dealer = setup.dealing_seat()
        _match(setup.match, dealer=dealer, limit=options.pairs_to_lose, at="/dealer")
        return rules.deal(dealer=dealer, options=options, first_deal=setup.match is None, source=source)

    def load_state(self, state: Wire) -> State:
        return wire.load_state(state)

    def dump_state(self, state: State) -> Wire:
        return wire.dump_state(state)

    def load_move(self, move: Wire) -> Move:
        kind, seat = move["type"], move["seat"]
        if kind == NameTrump.kind:
            order = move.get("deal_order")
            return NameTrump(seat, move.get("suit"), move.get("by_last", False),
                             None if order is None else tuple(order))
        if kind == Pass.kind:
            return Pass(seat)
        return CARD_MOVES[kind](seat, CARDS[move["cards"][0]])

    def dump_move(self, move: Move) -> Wire:
        if isinstance(move, NameTrump):
            return {"seat": move.seat, "type": move.kind, "suit": move.suit, "by_last": move.by_last,
                    "deal_order": None if move.deal_order is None else list(move.deal_order)}
        if isinstance(move, Pass):
            return {"seat": move.seat, "type": move.kind}
        return {"seat": move.seat, "type": move.kind, "cards": [move.card.code]}

    def view(self, state: State, seat: int | None) -> Wire:
        return wire.view(state, seat)

    def score(self, state: State, match: Wire | None) -> Wire:
        if state.phase != Phase.OVER:
            raise HandNotFinished("/state/phase", "the hand is not over: play it out first")
        limit = state.options.pairs_to_lose
        before = _match(match, dealer=state.dealer, limit=limit, at="/match/next_dealer")
        outcome = rules.result(state, before.multiplier)
        after = rules.match_after(before, state)
        return {
            "hand": {"points": list(outcome.points), "pairs_opened_this_hand": list(outcome.pairs),
                     "eggs": outcome.eggs, "qc_captured_team": state.qc_captured_team,
                     "multiplier": before.multiplier, "next_multiplier": outcome.next_multiplier},
            "match": _match_wire(after, limit),
        }
