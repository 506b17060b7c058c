"""The answers that belong to no game: problem details, health, the list of games and a game's
detail (the operations' envelopes are in ``service.api.envelopes``)."""

from __future__ import annotations

from collections.abc import Iterable

import marshmallow as ma
from marshmallow import fields, validate

from service.wire.fields import StrictInteger
from service.wire.schemas import CardFields, Strict, one_of


class ProblemFieldError(Strict):
    pointer = fields.String(required=True, metadata={"description": "JSON pointer into the body"})
    message = fields.String(required=True)


class ProblemLimit(Strict):
    name = fields.String(required=True, metadata={
        "description": "The setting (README, \"Configuration\"): `MAX_LISTING` or `MAX_ANSWER_BYTES`"})
    value = StrictInteger(required=True, metadata={"description": "its value on this server"})


class Problem(Strict):
    """RFC 9457 problem details; every error answer has this body."""

    type = fields.String(required=True)
    title = fields.String(required=True)
    status = StrictInteger(required=True)
    detail = fields.String(required=True, metadata={"description": "What went wrong, for the developer: it "
                                                    "may name fields, values and settings."})
    message = fields.String(required=True, metadata={
        "description": "What went wrong in a sentence a player may be shown, in the answer's language: "
        "no code, field name or rule number in it."})
    errors = fields.List(fields.Nested(ProblemFieldError))
    limit = fields.Nested(ProblemLimit, metadata={
        "description": "The limit an answer would have passed (`limit-exceeded` only)."})
    request_id = fields.String()


class Health(Strict):
    status = fields.String(required=True, validate=validate.OneOf(["ok"]))
    version = fields.String(required=True)


class GameSummary(Strict):
    id = fields.String(required=True)
    name = fields.String(required=True, metadata={"description": "English name"})
    name_ru = fields.String(required=True, metadata={"description": "Russian name"})
    players = fields.List(StrictInteger(), required=True)
    default_players = StrictInteger(required=True)
    variants = fields.List(fields.String(), required=True)
    options = fields.Dict(keys=fields.String(), required=True, metadata={"description": "defaults"})


class GameList(Strict):
    games = fields.List(fields.Nested(GameSummary), required=True)


class GameDetail(GameSummary):
    """A game in detail, any game's: each game's path answers its own (`SixtySixGameDetail`...), the
    same with that game's cards, move types and event types as enums."""

    deck = fields.String(required=True)
    card_values = fields.Dict(keys=fields.String(), values=StrictInteger(), required=True, metadata={
        "description": "The value of every card of the game's deck, by card code (`{\"AS\": 11, "
        "\"10S\": 10, ...}`). Keyed by code, not by rank, since API version 1.1: a red three, a "
        "black three and a joker can each have their own value."})
    deck_cards = fields.List(fields.String(), required=True, metadata={
        "description": "The deck for the default options in its canonical unshuffled order, each "
        "card as often as the deck holds it (Bezique repeats every code): a `deal` with `deck` "
        "takes a reordering of it. Since API version 1.2."})
    card_names = fields.Dict(keys=fields.String(), values=fields.String(), required=True, metadata={
        "description": "The name of every card of the deck, by card code, in the answer's language "
        "(`Accept-Language` or `lang`): `{\"AS\": \"ace of spades\"}`, `{\"AS\": \"туз пик\"}`. "
        "Since API version 2.2."})
    card_forms = fields.Dict(keys=fields.String(), values=fields.Nested(lambda: CardForms()), required=True,
                             metadata={
        "description": "The name of every card the game can hold (its largest deck), by card code, in "
        "each of the six cases a Russian sentence may put it in (`{\"AS\": {\"nom\": \"туз пик\", "
        "\"gen\": \"туза пик\", …}}`), in the game's own words (Bezique's joker is «инфузорка»). In "
        "English every case is the one name."})
    move_types = fields.List(fields.String(), required=True)
    reasons = fields.Dict(keys=fields.String(), values=fields.String(), required=True, metadata={
        "description": "Each reason code with the rule it enforces, in the answer's language."})
    event_types = fields.List(fields.String(), required=True)
    descriptions = fields.Nested(lambda: GameDescriptions(), required=True, metadata={
        "description": "What every option (and each of its choices), move type and event type "
        "means, in the answer's language, for a front end's labels and help. Since API version 2.2."})


def game_detail(cards: CardFields, move_types: Iterable[str], event_types: Iterable[str]) -> type[ma.Schema]:
    """One game's ``GameDetail`` (``SixtySixGameDetail``): the same answer, with its deck's cards,
    move types and event types each an enum of that game's own, so a typed client knows them."""
    base = GameDetail._declared_fields
    members = {
        "deck_cards": cards.cards(required=True, metadata=base["deck_cards"].metadata),
        "move_types": fields.List(one_of(move_types), required=True),
        "event_types": fields.List(one_of(event_types), required=True),
        "Meta": type("Meta", (GameDetail.Meta,), {"register": False}),
        "__doc__": "A game in detail: `GameDetail` with this game's cards, move types and event types.",
    }
    return type(f"{cards.prefix}GameDetail", (GameDetail,), members)


class CardForms(Strict):
    """A card's name in each case: nominative, genitive, dative, accusative, instrumental,
    prepositional."""

    nom = fields.String(required=True)
    gen = fields.String(required=True)
    dat = fields.String(required=True)
    acc = fields.String(required=True)
    ins = fields.String(required=True)
    pre = fields.String(required=True)


class OptionDescription(Strict):
    description = fields.String(required=True)
    choices = fields.Dict(keys=fields.String(), values=fields.String(), required=True, metadata={
        "description": "Each value of an option with a closed set of values, and what it does "
        "(empty for a yes/no or a number)."})


class GameDescriptions(Strict):
    options = fields.Dict(keys=fields.String(), values=fields.Nested(OptionDescription), required=True)
    moves = fields.Dict(keys=fields.String(), values=fields.String(), required=True)
    events = fields.Dict(keys=fields.String(), values=fields.String(), required=True)
    kinds = fields.Dict(keys=fields.String(), values=fields.String(), required=True, metadata={
        "description": "What each value of an event's `kind` means (a move's `kind` has the same values)."})
