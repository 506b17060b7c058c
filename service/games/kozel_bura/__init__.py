"""Kozel-bura («Козёл-бура»), docs/rules/kozel-bura.md: the game object of the registry."""

from __future__ import annotations

from service.cards import DeckSource, codes
from service.errors import HandNotFinished, InvalidMatch, InvalidState
from service.games.base import (
    DealSetup,
    GameInfo,
    RuleSet,
    TrickGame,
    Wire,
    card_values,
    check_derived,
    options_wire,
)
from service.games.kozel_bura import rules
from service.games.kozel_bura.rules import Match, Move, Options
from service.games.kozel_bura.schemas import SCHEMAS
from service.games.multi_trick import wire
from service.games.multi_trick.engine import POINTS, Phase, State

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
    wire.check_match_seats(match, "penalties", seats)
    if match["over"] or match["losers"] is not None or match["winner"] is not None:
        raise InvalidMatch("/match/over", "the match is over: deal a new one without a match")
    if match["next_dealer"] != dealer:
        raise InvalidMatch(at, f"the match says seat {match['next_dealer']} deals this hand")
    return Match(tuple(match["penalties"]), match["multiplier"], False, None, dealer)


def _result_wire(state: State) -> Wire:
    outcome = rules.result(state)
    return {"reason": outcome.reason, "winner": outcome.winner,
            "points": list(state.card_points)}


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
        options = Options(**state.get("options", {}))
        if options.players != state["seats"]:
            raise InvalidState("/options/players", "players must equal seats")
        loaded = wire.load(state, options=options, deck=rules.DECKS[options.deck],
                           variant=rules.variant(options))
        _check_phase(loaded)
        check_derived(state, {
            "status": wire.status(loaded), "trump": loaded.trump,
            "points": list(loaded.card_points),
            "result": _result_wire(loaded) if loaded.ending else None,
        })
        return loaded

    def dump_state(self, state: State) -> Wire:
        dumped = wire.dump(state, game="kozel-bura", options=options_wire(state.options), with_passes=False)
        dumped["result"] = _result_wire(state) if state.ending else None
        return dumped

    def load_move(self, move: Wire) -> Move:
        loaded = wire.load_trick_move(move)
        if loaded is None:  # the schema admits only lead, molodka and respond
            raise InvalidState("/move/type", "unknown move type")
        return loaded

    def dump_move(self, move: Move) -> Wire:
        return wire.dump_trick_move(move)

    def view(self, state: State, seat: int | None) -> Wire:
        return wire.view(state, seat, dumped=self.dump_state(state), face_down_play=False)

    def score(self, state: State, match: Wire | None) -> Wire:
        if state.ending is None:
            raise HandNotFinished("/state/phase", "the hand is not over: play it out first")
        before = _match(match, seats=state.seats, dealer=state.dealer, at="/match/next_dealer")
        after = rules.match_after(before, state)
        losers = after.losers
        return {
            "hand": {**_result_wire(state), "penalties": list(rules.penalties(state, before.multiplier)),
                     "multiplier": before.multiplier},
            "match": {"penalties": list(after.penalties), "multiplier": after.multiplier,
                      "over": after.over, "losers": None if losers is None else list(losers),
                      "winner": None if losers is None else
                      [s for s in range(state.seats) if s not in losers],
                      "next_dealer": after.next_dealer},
        }


def _check_phase(state: State) -> None:
    """§6: over exactly with an ending; a bura ends the hand; played out means every card played."""
    played_out = not state.stock and not any(state.hands) and state.trick is None
    ending = state.ending
    over = state.phase == Phase.OVER
    if over != (ending is not None) or over != (state.to_move is None):
        raise InvalidState("/phase", "the phase is over exactly when the hand has an ending")
    if ending is None:
        holders = [s for s in range(state.seats) if rules.has_bura(state, state.hands[s])]
        if holders:
            raise InvalidState(f"/hands/{holders[0]}", "this hand is a bura: the hand would be over")
        if played_out:
            raise InvalidState("/phase", "every card is played: the hand is over")
    elif ending.kind == "bura":
        if ending.seat is None or not rules.has_bura(state, state.hands[ending.seat]):
            raise InvalidState("/ending", "the winner's hand is not a bura")
    elif not played_out or ending.seat is not None:
        raise InvalidState("/ending", "played_out means every card is played, with no seat")
