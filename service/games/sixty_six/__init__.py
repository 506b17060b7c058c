"""Sixty-six («Шестьдесят шесть»), docs/rules/sixty-six.md: the game object of the registry."""

from __future__ import annotations

from service.cards import CARDS, DeckSource, codes
from service.errors import HandNotFinished, InvalidMatch
from service.games.base import DealSetup, GameInfo, RuleSet, TrickGame, Wire, card_values, options_wire
from service.games.sixty_six import rules, wire
from service.games.sixty_six.rules import Claim, Close, ExchangeTrump, Move, Party, Play, State
from service.games.sixty_six.schemas import SCHEMAS

INFO = GameInfo(
    id="sixty-six",
    name_en="Sixty-six",
    name_ru="Шестьдесят шесть",
    player_counts=(2,),
    default_players=2,
    deck="24 cards, A 10 K Q J 9 in each suit: " + " ".join(codes(rules.DECK)),
    card_values=card_values(rules.DECK, rules.POINTS), deck_cards=tuple(codes(rules.DECK)),
    move_types=tuple(SCHEMAS.moves),
    reasons=rules.Reason,
    event_types=(
        "card_played", "marriage_declared", "trick_won", "card_drawn", "stock_closed",
        "trump_exchanged", "claimed", "hand_over",
    ),
    options=options_wire(rules.Options()),
)


def _party(match: Wire | None, *, dealer: int, target: int, at: str) -> Party:
    """A match standing sent by the client, checked (``at`` locates the dealer being checked)."""
    if match is None:
        return Party((0, 0), False, None, dealer)
    score = (match["party_score"][0], match["party_score"][1])
    if match["over"]:
        raise InvalidMatch("/match/over", "the party is over: deal a new one without a match")
    if max(score) >= target:
        raise InvalidMatch("/match/party_score", f"a seat has {target} game points: the party is over")
    if match["winner"] is not None:
        raise InvalidMatch("/match/winner", "a party that is not over has no winner")
    if match["next_dealer"] != dealer:
        raise InvalidMatch(at, f"the match says seat {match['next_dealer']} deals this hand")
    return Party(score, False, None, dealer)


def _party_wire(party: Party) -> Wire:
    return {
        "party_score": list(party.party_score),
        "over": party.over,
        "winner": party.winner,
        "next_dealer": party.next_dealer,
    }


class SixtySix(TrickGame[State, Move]):
    info = INFO
    schemas = SCHEMAS
    rule_set = RuleSet(rules.check, rules.apply, rules.candidate_moves)

    def deal(self, setup: DealSetup, source: DeckSource) -> State:
        options = wire.load_options(setup.options)
        dealer = setup.dealing_seat()
        _party(setup.match, dealer=dealer, target=options.party_target, at="/dealer")
        return rules.deal(dealer, options, source)

    def load_state(self, state: Wire) -> State:
        return wire.load_state(state)

    def dump_state(self, state: State) -> Wire:
        return wire.dump_state(state)

    def load_move(self, move: Wire) -> Move:
        kind, seat = move["type"], move["seat"]
        if kind == Play.kind:
            return Play(seat, CARDS[move["cards"][0]], move.get("marriage", False))
        if kind == Close.kind:
            return Close(seat)
        if kind == ExchangeTrump.kind:
            return ExchangeTrump(seat)
        return Claim(seat, move.get("marriage_suit"))

    def dump_move(self, move: Move) -> Wire:
        if isinstance(move, Play):
            return {"seat": move.seat, "type": move.kind, "cards": [move.card.code],
                    "marriage": move.marriage}
        if isinstance(move, Claim):
            return {"seat": move.seat, "type": move.kind, "marriage_suit": move.marriage_suit}
        return {"seat": move.seat, "type": move.kind}

    def view(self, state: State, seat: int | None) -> Wire:
        return wire.view(state, seat)

    def score(self, state: State, match: Wire | None) -> Wire:
        if not state.finished:
            raise HandNotFinished("/state/status", "the hand is not finished: play it out first")
        target = state.options.party_target
        party = _party(match, dealer=state.dealer, target=target, at="/match/next_dealer")
        result = rules.result(state)
        hand = {
            **wire.result_wire(state),
            "card_points": [rules.trick_card_points(state, s) for s in (0, 1)],
            "marriage_points": [
                sum(m.points for m in state.marriages[s] if m.credited) for s in (0, 1)
            ],
            "bonus_points": list(state.bonus_points),
        }
        party = rules.party_after(party, result, dealer=state.dealer, target=target)
        return {"hand": hand, "match": _party_wire(party)}
