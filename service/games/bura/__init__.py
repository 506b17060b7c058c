"""Bura («Бура»), docs/rules/bura.md: the game object of the registry."""

from __future__ import annotations

from service.cards import DeckSource, codes
from service.errors import HandNotFinished, InvalidMatch
from service.games.base import DealSetup, GameInfo, RuleSet, TrickGame, Wire, card_values, options_wire
from service.games.bura import rules, wire
from service.games.bura.rules import Match, Move, Options
from service.games.bura.schemas import SCHEMAS
from service.games.seating import left_of
from service.games.tricks import sets_wire
from service.games.tricks.sets import POINTS, State

INFO = GameInfo(
    id="bura", name_en="Bura", name_ru="Бура", player_counts=(2, 3, 4, 5, 6), default_players=2,
    deck="36 cards, A 10 K Q J 9 8 7 6 in each suit: " + " ".join(codes(rules.DECK)),
    card_values=card_values(rules.DECK, POINTS), deck_cards=tuple(codes(rules.DECK)),
    move_types=tuple(SCHEMAS.moves), reasons=rules.Reason,
    event_types=("lead", "molodka", "beat", "discard", "trick_won", "card_drawn", "final_claims",
                 "claimed", "declared", "passed", "hand_over"),
    options=options_wire(Options()),
)


def _options(wire_options: Wire, players: int) -> Options:
    return Options(**{**wire_options, "players": players})


def _match(match: Wire | None, *, seats: int, dealer: int, target: int, at: str) -> Match:
    if match is None:
        return Match((0,) * seats, 0, False, None, dealer, left_of(dealer, seats))
    sets_wire.check_match_seats(match, "match_scores", seats)
    if match["over"]:
        raise InvalidMatch("/match/over", "the match is over: deal a new one without a match")
    if max(match["match_scores"]) >= target:
        raise InvalidMatch("/match/match_scores", f"a seat has {target} games: the match is over")
    if match["winner"] is not None:
        raise InvalidMatch("/match/winner", "a match that is not over has no winner")
    for name in ("next_dealer", "next_leader"):
        if match[name] >= seats:
            raise InvalidMatch(f"/match/{name}", f"seats are 0..{seats - 1}")
    if match["next_dealer"] != dealer:
        raise InvalidMatch(at, f"the match says seat {match['next_dealer']} deals this hand")
    return Match(tuple(match["match_scores"]), match["void_streak"], False, None, dealer,
                 match["next_leader"])


class Bura(TrickGame[State, Move]):
    info = INFO
    schemas = SCHEMAS
    rule_set = RuleSet(rules.check, rules.apply, rules.candidate_moves)

    def deal(self, setup: DealSetup, source: DeckSource) -> State:
        options = _options(setup.options, setup.players)
        dealer = setup.dealing_seat()
        match = _match(setup.match, seats=setup.players, dealer=dealer, target=options.target_games,
                       at="/dealer")
        leader = match.next_leader if setup.match is not None else None
        return rules.deal(players=setup.players, dealer=dealer, leader=leader, options=options,
                          source=source)

    def load_state(self, state: Wire) -> State:
        return wire.load_state(state)

    def dump_state(self, state: State) -> Wire:
        return wire.dump_state(state)

    def load_move(self, move: Wire) -> Move:
        return wire.load_move(move)

    def dump_move(self, move: Move) -> Wire:
        return wire.dump_move(move)

    def view(self, state: State, seat: int | None) -> Wire:
        return wire.view(state, seat)

    def score(self, state: State, match: Wire | None) -> Wire:
        if state.ending is None:
            raise HandNotFinished("/state/phase", "the hand is not over: play it out first")
        before = _match(match, seats=state.seats, dealer=state.dealer,
                        target=state.options.target_games, at="/match/next_dealer")
        after = rules.match_after(before, state)
        value = 1 + before.void_streak if state.options.void_carry else 1
        return {
            "hand": {**wire.result_wire(state), "value": value},
            "match": {"match_scores": list(after.match_scores), "void_streak": after.void_streak,
                      "over": after.over, "winner": None if after.winner is None else list(after.winner),
                      "next_dealer": after.next_dealer, "next_leader": after.next_leader},
        }
