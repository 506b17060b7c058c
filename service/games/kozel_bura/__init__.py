"""Kozel-bura («Козёл-бура»), docs/rules/kozel-bura.md: the game object of the registry."""

from __future__ import annotations

from service.cards import DeckSource, codes
from service.errors import HandNotFinished, InvalidMatch
from service.games.base import DealSetup, GameInfo, RuleSet, TrickGame, Wire, card_values, options_wire
from service.games.kozel_bura import rules, wire
from service.games.kozel_bura.rules import Match, Move, Options
from service.games.kozel_bura.schemas import SCHEMAS
from service.games.tricks import sets_wire
from service.games.tricks.sets import POINTS, State

INFO = GameInfo(
    id="kozel-bura", name_en="Kozel-bura", name_ru="Козёл-бура", player_counts=(2, 3, 4, 5),
    default_players=2, deck="36 cards (A 10 K Q J 9 8 7 6 of each suit), or 32 without the sixes",
    card_values=card_values(rules.DECKS[36], POINTS), deck_cards=tuple(codes(rules.DECKS[36])),
    move_types=tuple(SCHEMAS.moves),
    reasons=rules.Reason,
    event_types=("lead", "molodka", "beat", "discard", "trick_won", "card_drawn", "hand_over"),
    options=options_wire(Options()),
)


def _match(match: Wire | None, *, seats: int, dealer: int, at: str) -> Match:
    if match is None:
        return Match((0,) * seats, 1, False, None, dealer)
    sets_wire.check_match_seats(match, "penalties", seats)
    if match["over"] or match["losers"] is not None or match["winner"] is not None:
        raise InvalidMatch("/match/over", "the match is over: deal a new one without a match")
    if match["next_dealer"] != dealer:
        raise InvalidMatch(at, f"the match says seat {match['next_dealer']} deals this hand")
    return Match(tuple(match["penalties"]), match["multiplier"], False, None, dealer)


class KozelBura(TrickGame[State, Move]):
    info = INFO
    schemas = SCHEMAS
    rule_set = RuleSet(rules.check, rules.apply, rules.candidate_moves)

    def deal(self, setup: DealSetup, source: DeckSource) -> State:
        options = Options(**{**setup.options, "players": setup.players})
        dealer = setup.dealing_seat()
        _match(setup.match, seats=setup.players, dealer=dealer, at="/dealer")
        return rules.deal(players=setup.players, dealer=dealer, options=options, source=source)

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
        before = _match(match, seats=state.seats, dealer=state.dealer, at="/match/next_dealer")
        after = rules.match_after(before, state)
        losers = after.losers
        return {
            "hand": {**wire.result_wire(state), "penalties": list(rules.penalties(state, before.multiplier)),
                     "multiplier": before.multiplier},
            "match": {"penalties": list(after.penalties), "multiplier": after.multiplier,
                      "over": after.over, "losers": None if losers is None else list(losers),
                      "winner": None if losers is None else
                      [s for s in range(state.seats) if s not in losers],
                      "next_dealer": after.next_dealer},
        }
