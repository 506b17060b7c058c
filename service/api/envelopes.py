"""The request and answer schemas of each operation of one game (shared/API.md), one builder per
operation with the mode as its parameter: the same envelope around the game's own state, move,
options, match, view and score schemas, where the hand is a state (open) or a token and a seat
key (sealed). Each gives exactly one request and one answer schema (a validate answer is a union
on ``legal``); every answer in its answer form (``answered``). What they are built from is in
``service.api.parts``."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import ValidationError, fields, validate

from service.api.modes import Mode
from service.api.parts import (
    HAND_TOKEN,
    MAX_CLIENT_SEED,
    MAX_DECK,
    MAX_RECORD_MOVES,
    SEALED_IDS,
    Envelope,
    Parts,
    asking,
    held,
    ids,
    seat_key,
    token,
    union,
)
from service.player.levels import LEVELS, NAMES
from service.wire.fields import StrictBoolean, StrictInteger
from service.wire.schemas import one_of, seat

# --- deal -------------------------------------------------------------------------------------

SEED = ("Any string; the same seed and options deal the same cards. Omitted (and no `deck`): the "
        "server draws one and returns it.")
SEALED_SEED = ("Any string, joined to the server's seed so that it cannot steer the deal (README, "
               "\"Sealed mode\").")
DECK = ("Instead of a seed: the whole deck in dealing order, top card first, for test suites, replays "
        "of a reported deal and duplicate play (every table the same cards). It must be exactly the "
        "game's deck for these options (422 naming `/deck` otherwise); a deal the rules would redeal "
        "(a misdeal) is refused.")
MATCH_TOKEN = ("The `match_token` the last hand's score answered. The match keeps its players and "
               "options: `players` and `options`, if sent, must agree with them.")


def _table(p: Parts) -> dict[str, fields.Field]:
    return {
        "players": one_of(p.info.player_counts, load_default=p.info.default_players),
        "dealer": seat(allow_none=True, load_default=None, metadata={
            "description": "Dealing seat; default: the match's next dealer, else seat 0."}),
        "options": fields.Nested(p.game.options, load_default=dict),
    }


def deal(p: Parts, mode: Mode) -> Envelope:
    """An open deal is seeded by the client or given its deck, and answers the state; a sealed deal
    joins the client's seed to the server's and answers a token and seat keys."""
    if mode is Mode.SEALED:
        return Envelope(p.branch("SealedDealIn", "Deal a new sealed hand.", {
            **_table(p), **_sealed_seed(),
        }), p.answer("SealedDealOut", "The new sealed hand: its token and seat keys.", {
            "token": token(HAND_TOKEN, required=True),
            "seat_keys": fields.List(fields.String(), required=True, metadata={
                "description": "One secret per seat, by seat: give each player only their own."}),
            **_sealed_dealt(),
        }))
    request = p.branch("DealIn", "Deal a new hand.", {
        **_table(p),
        "seed": fields.String(validate=validate.Length(1, 256), allow_none=True, load_default=None,
                              metadata={"description": SEED}),
        "deck": p.game.fields.cards(allow_none=True, load_default=None, max_items=MAX_DECK,
                                    metadata={"description": DECK}),
        "match": p.match,
    })
    return Envelope(request, p.answer("DealOut", "The new hand.", {
        "seed": fields.String(required=True, allow_none=True, metadata={
            "description": "The seed dealt from; null for a given deck."}),
        "shuffle": fields.String(required=True, validate=validate.OneOf(["v1", "given"]), metadata={
            "description": "`v1`: shuffled from the seed (see the README); `given`: the deck sent."}),
        "state": p.state(),
    }))


def _sealed_seed() -> dict[str, fields.Field]:
    return {
        "seed": fields.String(validate=validate.Length(1, MAX_CLIENT_SEED), allow_none=True,
                              load_default=None, metadata={"description": SEALED_SEED}),
        "match_token": token(MATCH_TOKEN, allow_none=True, load_default=None),
    }


def _sealed_dealt() -> dict[str, fields.Field]:
    """What every sealed deal answers besides its token and keys."""
    return {
        "seed_commitment": fields.String(required=True, metadata={
            "description": "Lowercase hex SHA-256 of the UTF-8 `server_seed` that the finished "
            "hand's score reveals."}),
        "shuffle": fields.String(required=True, validate=validate.OneOf(["v1"])),
        "match_id": fields.String(required=True, metadata={
            "description": "The match's id, kept from hand to hand through `match_token`."}),
        **SEALED_IDS,
        "to_move": seat(allow_none=True, required=True),
    }


COMPUTER_KEY = ("The key that has the server play the computer player's seats of this hand "
                "(`sealed/computer-move`), without holding their seat keys.")


def deal_against_computer(p: Parts, mode: Mode) -> Envelope:
    """Sealed only: no other seat's key may reach the person's client."""
    request = p.branch(mode.named("DealAgainstComputerIn"), "Deal a new sealed hand to a person at `seat`, "
                       "the computer player at every other seat.", {
        **_table(p),
        "seat": seat(load_default=0, metadata={"description": "The person's seat; default 0."}),
        **_sealed_seed(),
    })
    return Envelope(request, p.answer(mode.named("DealAgainstComputerOut"), "The new sealed hand: its token, "
                                      "the person's seat key, and the computer key.", {
        "token": token(HAND_TOKEN, required=True),
        "seat": seat(required=True, metadata={"description": "The person's seat."}),
        "seat_key": fields.String(required=True, metadata={"description": "The person's seat key: no "
                                  "other seat's key is answered."}),
        "computer_key": fields.String(required=True, metadata={"description": COMPUTER_KEY}),
        **_sealed_dealt(),
    }))


def computer_move(p: Parts, mode: Mode) -> Envelope:
    """Sealed only: the computer key plays the seats it was dealt for."""
    request = p.branch(mode.named("ComputerMoveIn"), "A sealed hand whose seat to move the computer key "
                       "plays, and the search's budget.", {
        "token": token(HAND_TOKEN, required=True),
        "computer_key": seat_key(COMPUTER_KEY, required=True),
        "budget_ms": _search()["budget_ms"],
        "seed": _search()["seed"],
    })
    return Envelope(request, p.answer(mode.named("ComputerMoveOut"), "The computer player's move, made: the "
                                      "new token, and the events as everyone may see them (each seat "
                                      "reads its own with `sealed/events`).", {
        "seat": seat(required=True, metadata={"description": "The seat the computer player moved."}),
        "token": token(HAND_TOKEN, required=True),
        "public_events": _public_events(p, "The events as a spectator sees them."),
        "to_move": seat(allow_none=True, required=True),
        **SEALED_IDS,
    }))


def _public_events(p: Parts, description: str) -> fields.List:
    return fields.List(p.events.inner, required=True, metadata={"description": description})


# --- validate -------------------------------------------------------------------------------

LEGAL = {"legal": StrictBoolean(required=True, validate=validate.OneOf([True]))}


def _illegal(p: Parts) -> dict[str, fields.Field]:
    return {"legal": StrictBoolean(required=True, validate=validate.OneOf([False])),
            "reason": fields.Nested(p.reason, required=True)}


def validate_move(p: Parts, mode: Mode) -> Envelope:
    mover = mode.choose({}, {"seat_key": seat_key("The mover's seat key (403 with another seat's).",
                                                  required=True)})
    request = p.branch(mode.named("ValidateIn"), mode.choose(
        "A state and a proposed move.", "A sealed hand, the mover's seat key and a proposed move."),
        {**held(p, mode), **mover, "move": p.move})
    told = mode.choose({}, {
        "public_events": _public_events(p, "The events as a spectator sees them: what a relay may send to "
                                           "every seat."),
        "to_move": seat(allow_none=True, required=True), **SEALED_IDS})
    legal = p.answer(mode.named("ValidateLegal"), mode.choose(
        "The move is legal: the next state and what the move caused.",
        "The move is legal: the new token, and the events as the mover and as everyone may see them "
        "(they are enough to follow one's hand; `sealed/view` shows it all)."),
        {**LEGAL, **held(p, mode), "events": p.events, **told})
    illegal = p.answer(mode.named("ValidateIllegal"), mode.choose(
        "The move is illegal: why, and the rule it breaks.",
        "The move is illegal; the token stays as it was."),
        {**_illegal(p), **ids(mode)})
    return Envelope(request, union(p.prefix + mode.named("ValidateOut"), mode.choose(
        "legal: the next state and the events; illegal: the reason.",
        "legal: the new token and the events; illegal: the reason."), (legal, illegal)))


# --- legal-moves and view -------------------------------------------------------------------

LISTED_SEAT = "List what this seat may do now (out-of-turn moves included)"
FAMILIES = ("Moves too many to list one by one, each family described by the choices it leaves open: "
            "every move built by a family's rule is legal, and `moves` leaves them out. Empty in almost "
            "every position (the game's rules file says when not).")


def _listing(p: Parts) -> dict[str, fields.Field]:
    families = {} if p.game.family is None else {"families": fields.List(
        fields.Nested(p.game.family), required=True, metadata={"description": FAMILIES})}
    return {"to_move": seat(allow_none=True, required=True), "moves": fields.List(p.move, required=True),
            **families}


def legal_moves(p: Parts, mode: Mode) -> Envelope:
    request = p.branch(mode.named("LegalMovesIn"), mode.choose(
        "A state, and optionally the seat asking.", "A sealed hand and the asking seat's key."), {
        **held(p, mode),
        **asking(mode, required=False, seat_doc=f"{LISTED_SEAT}; default: the seat to move.",
                 key_doc=f"{LISTED_SEAT}; without a key (a spectator) the list is empty."),
    })
    return Envelope(request, p.answer(mode.named("LegalMovesOut"), mode.choose(
        "Every legal move, as validate takes it.",
        "Every legal move of the asking seat, as validate takes it."),
        {**_listing(p), **ids(mode)}))


def view(p: Parts, mode: Mode) -> Envelope:
    request = p.branch(mode.named("ViewIn"), mode.choose(
        "A state and the seat looking.", "A sealed hand and the looking seat's key."), {
        **held(p, mode),
        **asking(mode, required=True, seat_doc="The seat looking (a spectator: `spectator-view`).",
                 key_doc="The looking seat's key (a spectator: `sealed/spectator-view`)."),
    })
    return Envelope(request, p.answer(mode.named("ViewOut"), "What the seat may see.", {
        "view": fields.Nested(p.seat_view, required=True), **ids(mode)}))


def spectator_view(p: Parts, mode: Mode) -> Envelope:
    request = p.branch(mode.named("SpectatorViewIn"), mode.choose("A state.", "A sealed hand."),
                       held(p, mode))
    return Envelope(request, p.answer(mode.named("SpectatorViewOut"), "What a spectator may see.", {
        "view": fields.Nested(p.spectator_view, required=True), **ids(mode)}))


def events(p: Parts, mode: Mode) -> Envelope:
    """Sealed only: an open client has every event it was answered."""
    request = p.branch(mode.named("EventsIn"), "A sealed hand, the asking seat's key (none: a spectator), "
                       "and the last move whose events the seat has.", {
        **held(p, mode),
        "seat_key": seat_key("The asking seat's key; without one, the events a spectator sees."),
        "since": StrictInteger(validate=validate.Range(0, MAX_RECORD_MOVES), load_default=0, metadata={
            "description": "The last move number whose events the seat has (0: from the deal). "
            "422 if the hand has had fewer moves."}),
    })
    moved = p.answer("MoveEvents", "The events one move caused.", {
        "move_number": StrictInteger(required=True, metadata={"description": "The move's number, from 1."}),
        "events": p.events,
    })
    return Envelope(request, p.answer(mode.named("EventsOut"), "The events of every move after `since`, as "
                                      "the seat may see them: its own cards, another seat's hidden "
                                      "ones as their number.", {
        "moves": fields.List(fields.Nested(moved), required=True),
        "to_move": seat(allow_none=True, required=True), **ids(mode)}))


# --- suggest ----------------------------------------------------------------------------------

BUDGET = ("Milliseconds the computer player may think; default: the server's SUGGEST_BUDGET_MS (100 "
          "unless set). Past the server's SUGGEST_MAX_BUDGET_MS (250 unless set): a 422.")
SAMPLES = ("Deals of the unseen cards to weigh the moves on, at most: the same seed and sample count give "
           "the same move (on the same release). Without `budget_ms`, the search still stops at the "
           "server's SUGGEST_MAX_BUDGET_MS. Past SUGGEST_MAX_SAMPLES (10,000 unless set): a 422.")
SEARCH_SEED = "Any string; the same seed and sample count give the same answer. Omitted: drawn, and returned."
LEVEL = ("The computer player's level, instead of `budget_ms` and `samples`: 1 to 5, or by name, "
         + ", ".join(f"{lv.number} `{lv.name}`" for lv in LEVELS)
         + ". Levels 1 and 2 play the game's greedy player's move, with random slips (40 % and 10 % of "
           "the moves: level 1 loses to the greedy player); 3 to 5 search for "
         + ", ".join(f"{lv.budget_ms}" for lv in LEVELS[2:])
         + " ms. Each level is meant to beat the one below it (docs/strength.md measures it).")


def _not_a_boolean(value: object) -> None:
    """``true`` is not level 1 (Python's ``True == 1``)."""
    if isinstance(value, bool):
        raise ValidationError("Must be one of the levels.")


def _search() -> dict[str, fields.Field]:
    return {
        "budget_ms": StrictInteger(validate=validate.Range(1, 60_000), allow_none=True, load_default=None,
                                   metadata={"description": BUDGET}),
        "samples": StrictInteger(validate=validate.Range(1, 1_000_000), allow_none=True, load_default=None,
                                 metadata={"description": SAMPLES}),
        "seed": fields.String(validate=validate.Length(1, MAX_CLIENT_SEED), allow_none=True,
                              load_default=None, metadata={"description": SEARCH_SEED}),
        "level": fields.Raw(validate=[validate.OneOf(NAMES), _not_a_boolean], allow_none=True,
                            load_default=None, metadata={"description": LEVEL}),
    }


def _suggestion(p: Parts) -> dict[str, fields.Field]:
    return {
        "move": p.move,
        "candidates": fields.List(fields.Nested(p.weighed), required=True, metadata={
            "description": "Every move weighed, the best first (the melding games weigh a dozen of "
                           "their moves at most: the greedy choice and others at random)."}),
        "samples": StrictInteger(required=True, metadata={
            "description": "Deals of the unseen cards the moves were weighed on: as many as the budget "
                           "allowed, or as asked."}),
        "seed": fields.String(required=True, metadata={"description": "The seed searched with."}),
        "budget_ms": StrictInteger(required=True, metadata={"description": "The time budget applied."}),
    }


SUGGEST_RECORD = (
    "The hand so far: the state it started from and every move, as `score` takes it; they must lead "
    "to `state` (else a 422 at `/record`). The player infers from it what the seat saw: a suit a "
    "player failed to follow, cards it saw go into a hand. A sealed hand's token holds its record.")


def suggest(p: Parts, mode: Mode) -> Envelope:
    record = {} if mode is Mode.SEALED else {
        "record": fields.Nested(p.record, metadata={"description": SUGGEST_RECORD})}
    request = p.branch(mode.named("SuggestIn"), mode.choose(
        "A state, the seat to advise, and the search's budget; and, when the client has it, the record "
        "that led to the state.", "A sealed hand, the advised seat's key, and the search's budget."), {
        **held(p, mode),
        **asking(mode, required=True, key_doc="The advised seat's key.",
                 seat_doc="The seat to advise: the search reads only what this seat may see."),
        **record, **_search(),
    })
    return Envelope(request, p.answer(mode.named("SuggestOut"), mode.choose(
        "The computer player's move, and what it weighed.",
        "The computer player's move for the seat, and what it weighed."), {**_suggestion(p), **ids(mode)}))


# --- score ------------------------------------------------------------------------------------


def score(p: Parts, mode: Mode) -> Envelope:
    """An open hand is sent as its final state or its record; a sealed one answers its record and seeds,
    so that anyone can check the deal and every move."""
    if mode is Mode.SEALED:
        return Envelope(p.branch("SealedScoreIn", "A finished sealed hand (its standing is in the token).",
                                 held(p, mode)), _sealed_scored(p))
    request = p.branch("ScoreIn", "A finished hand, as its final `state` or as its `record` (one of "
                       "them), and the match so far.", {
        "state": fields.Nested(p.game.state, metadata={"description": "The final state."}),
        "record": fields.Nested(p.record),
        "match": p.match,
    })
    return Envelope(request, p.answer("ScoreOut", "The hand's breakdown and the updated match.", {
        "hand": fields.Nested(p.game.hand_score, required=True),
        "match": fields.Nested(p.game.match, required=True),
        "state": p.state(description="The final state (the record's, for a record)."),
    }))


def _sealed_scored(p: Parts) -> type[ma.Schema]:
    return p.answer("SealedScoreOut", "The hand's breakdown, the updated match, and all it takes to "
                    "check the hand: the seeds and the record.", {
        "hand": fields.Nested(p.game.hand_score, required=True),
        "match": fields.Nested(p.game.match, required=True),
        "state": p.state(description="The final state."),
        "record": fields.Nested(p.record, required=True, metadata={
            "description": "The state dealt and every move: `score {\"record\": ...}` checks each."}),
        "match_token": token("The standing, for the next sealed deal.", required=True),
        "server_seed": fields.String(required=True, metadata={
            "description": "The server's seed, whose SHA-256 is the deal's `seed_commitment`."}),
        "seed": fields.String(required=True, allow_none=True, metadata={
            "description": "The client's seed the deal was sent (null: none). The deck is shuffle v1 "
            "of `server_seed + \":\" + seed` (an empty seed for none)."}),
        "seed_commitment": fields.String(required=True, metadata={
            "description": "The deal's commitment, SHA-256 of `server_seed`."}),
        "shuffle": fields.String(required=True, validate=validate.OneOf(["v1"]), metadata={
            "description": "How the deck follows from the joined seed (README)."}),
        "match_id": fields.String(required=True, metadata={"description": "The match's id."}),
        **SEALED_IDS,
    })
