"""Bura («Бура»), docs/rules/bura.md: the game object of the registry."""

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
from service.games.bura import rules
from service.games.bura.rules import Claim, Declare, Match, Move, Options, Pass
from service.games.bura.schemas import SCHEMAS
from service.games.multi_trick import wire
from service.games.multi_trick.engine import POINTS, Ending, Lead, Molodka, Phase, Respond, State
from service.games.seating import left_of

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
    wire.check_match_seats(match, "match_scores", seats)
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


def _result_wire(state: State) -> Wire:
    outcome = rules.result(state)
    return {"reason": outcome.reason, "seat": outcome.seat, "winners": list(outcome.winners),
            "losers": list(outcome.losers), "points": list(state.card_points)}


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
        options = Options(**state.get("options", {}))
        if options.players != state["seats"]:
            raise InvalidState("/options/players", "players must equal seats")
        loaded = wire.load(state, options=options, deck=rules.DECK, variant=rules.variant(options))
        _check_phase(loaded)
        check_derived(state, {"result": _result_wire(loaded) if loaded.ending else None,
                                   **_derived(loaded)})
        return loaded

    def dump_state(self, state: State) -> Wire:
        dumped = wire.dump(state, game="bura", options=options_wire(state.options), with_passes=True)
        dumped["result"] = _result_wire(state) if state.ending else None
        return dumped

    def load_move(self, move: Wire) -> Move:
        trick_move = wire.load_trick_move(move)
        if trick_move is not None:
            return trick_move
        kind, seat = move["type"], move["seat"]
        if kind == Claim.kind:
            return Claim(seat)
        if kind == Declare.kind:
            return Declare(seat, move["combination"])
        return Pass(seat)

    def dump_move(self, move: Move) -> Wire:
        if isinstance(move, Lead | Molodka | Respond):
            return wire.dump_trick_move(move)
        if isinstance(move, Declare):
            return {"seat": move.seat, "type": move.kind, "combination": move.combination}
        return {"seat": move.seat, "type": move.kind}

    def view(self, state: State, seat: int | None) -> Wire:
        hidden = not state.options.open_play
        return wire.view(state, seat, dumped=self.dump_state(state), face_down_play=hidden)

    def score(self, state: State, match: Wire | None) -> Wire:
        if state.ending is None:
            raise HandNotFinished("/state/phase", "the hand is not over: play it out first")
        before = _match(match, seats=state.seats, dealer=state.dealer,
                        target=state.options.target_games, at="/match/next_dealer")
        after = rules.match_after(before, state)
        value = 1 + before.void_streak if state.options.void_carry else 1
        return {
            "hand": {**_result_wire(state), "value": value},
            "match": {"match_scores": list(after.match_scores), "void_streak": after.void_streak,
                      "over": after.over, "winner": None if after.winner is None else list(after.winner),
                      "next_dealer": after.next_dealer, "next_leader": after.next_leader},
        }


def _derived(state: State) -> Wire:
    return {"status": wire.status(state), "trump": state.trump, "points": list(state.card_points)}


def _check_phase(state: State) -> None:
    """§5.4, §6: the final claim round comes once every card is played; an ending ends the hand."""
    played_out = not state.stock and not any(state.hands) and state.trick is None
    ending = state.ending
    if (state.phase == Phase.OVER) != (ending is not None):
        raise InvalidState("/ending", "an ending is set exactly when the phase is over")
    if state.phase == Phase.OVER and state.to_move is not None:
        raise InvalidState("/to_move", "nobody moves once the hand is over")
    if state.phase == Phase.PLAY and played_out:
        raise InvalidState("/phase", "every card is played: the phase is final_claims")
    if state.phase == Phase.FINAL_CLAIMS:
        if not played_out or state.last_taker is None:
            raise InvalidState("/phase", "final claims come once every card is played")
        if state.passes >= state.seats or state.to_move != (state.last_taker + state.passes) % state.seats:
            raise InvalidState("/to_move", "the final round goes clockwise from the last trick's taker")
    elif ending is not None and played_out:
        _check_final_round_ending(state, ending)
    elif state.passes:
        raise InvalidState("/passes", "passes count only in the final claim round")
    if ending is not None:
        _check_ending(state, ending)


def _check_final_round_ending(state: State, ending: Ending) -> None:
    """§4.2(f), §6: a hand that ended in the final claim round keeps its passes: it ended with a
    claim by the seat whose turn came after them, or void once every seat passed."""
    if state.last_taker is None or state.passes > state.seats:
        raise InvalidState("/passes", "the final round has one turn per seat")
    in_turn = (state.last_taker + state.passes) % state.seats
    if ending.kind == "claim" and (state.passes == state.seats or ending.seat != in_turn):
        raise InvalidState("/ending/seat", f"after {state.passes} pass(es), seat {in_turn} claims")


def _check_ending(state: State, ending: Ending) -> None:
    if ending.kind == "void" and (state.passes != state.seats or ending.seat is not None):
        raise InvalidState("/ending", "a void hand is one where every seat passed")
    if ending.kind in ("bura", "moscow") and (
            ending.seat is None or not rules.forms(state, state.hands[ending.seat], ending.kind)):
        raise InvalidState("/ending", f"the declarer's hand does not form {ending.kind}")
    if ending.kind == "claim" and ending.seat is None:
        raise InvalidState("/ending/seat", "a claim has a claimant")
