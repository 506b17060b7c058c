"""Events on the wire, as one seat may see them: each type's declared fields (``EventType``),
and a private type's cards shown only to the seats they belong to (the others are told their
number). Open mode shows every card to everyone, as its state does; a sealed hand keeps its
events so, and ``redacted`` tells them to each seat."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import orjson

from service.cards import cards
from service.errors import BadToken
from service.games.base import Event, EventType, Saying, Wire
from service.i18n import Translated
from service.i18n.cards import Vocabulary
from service.i18n.text import Amount, Seat, Suit, Text

EVERY_SEAT = -1
"""Open mode's onlooker: a state shows every card, and so do its events."""


def told(types: Mapping[str, EventType], events: Iterable[Event], seat: int | None) -> list[Wire]:
    """``events`` as ``seat`` may see them; None: a spectator, ``EVERY_SEAT``: open mode."""
    return [tell(types[event.type], event, seat) for event in events]


def tell(declared: EventType, event: Event, seat: int | None) -> Wire:
    wire: Wire = {"type": event.type, "seat": event.seat}
    if declared.cards:
        if not declared.private or seat == EVERY_SEAT or _among(seat, event.seat, event.to):
            wire["cards"] = [card.code for card in event.cards]
        if declared.private:
            wire["count"] = len(event.cards)
    if declared.points:
        wire["points"] = event.points
    if declared.suit:
        wire["suit"] = event.suit
    if declared.kinds:
        wire["kind"] = event.kind
    if declared.to:
        wire["to"] = event.to
    return wire


def redacted(types: Mapping[str, EventType], events: Iterable[Wire], seat: int | None) -> list[Wire]:
    """Events told to every seat (``told(..., EVERY_SEAT)``) as ``seat`` may see them. They are
    a hand token's, so one of a type this game does not declare (a token sealed by a release
    that named it otherwise) is refused."""
    return [_redacted(event, seat) if _declared(types, event).private else event for event in events]


def _declared(types: Mapping[str, EventType], event: Wire) -> EventType:
    declared = types.get(event["type"])
    if declared is None:
        raise BadToken("/token", "was sealed by a release whose hands this one cannot read: deal the hand "
                                 "again", cause="old-release")
    return declared


def _redacted(event: Wire, seat: int | None) -> Wire:
    if _among(seat, event["seat"], event.get("to")):
        return event
    return {name: value for name, value in event.items() if name != "cards"}


def _among(seat: int | None, *owners: int | None) -> bool:
    """Whether ``seat`` (None: a spectator, who owns nothing) is one of ``owners``."""
    return seat is not None and seat in owners


def spoken(types: Mapping[str, EventType], events: Iterable[Wire], reader: int | None, lang: str,
           vocabulary: Vocabulary) -> list[Wire]:
    """``events`` (as their reader may see them) each with its sentence, ``text``, in ``lang``:
    said to ``reader`` (a seat, or None: a spectator or open mode's onlooker, who is no seat)."""
    return [{**event, "text": _remembered(types[event["type"]], event, reader, lang, vocabulary)}
            for event in events]


SAID: dict[tuple[object, ...], str] = {}
"""Sentences already written, by what makes them (the event type, the event's fields by name,
whether the reader is its seat or its ``to``, the language): one move's events are told again to
every seat, and the same cards are played over and over. Writing one costs about 10 µs, finding it 1 µs
(Sixty-six, a trick's 4 events told to a seat: 39 µs in English, 45 in Russian → 4.5-5 µs).
The fields are keyed as the event's JSON (orjson), not as a tuple of pairs built in Python: a
sealed move's two lists (the mover's, everyone's) are looked up in 2.2 µs against 3.5 (Bura 4.2
against 7.1, Bezique 2.9 against 5.1; the bench's moves in process, medians of 15 alternating
rounds)."""
MOST_SAID = 1 << 14
"""Sentences kept at most (a few MB): past it the memory starts again."""


def _remembered(declared: EventType, event: Wire, reader: int | None, lang: str,
                vocabulary: Vocabulary) -> str:
    key = (id(declared), lang, reader is not None and reader == event["seat"],
           reader is not None and reader == event.get("to"), orjson.dumps(event))
    text = SAID.get(key)
    if text is None:
        if len(SAID) >= MOST_SAID:
            SAID.clear()
        text = SAID[key] = said(declared, event, reader, lang, vocabulary)
    return text


def said(declared: EventType, event: Wire, reader: int | None, lang: str, vocabulary: Vocabulary) -> str:
    saying = declared.says
    seat, you = event["seat"], saying.you
    if seat is None and saying.nobody:
        template, you = saying.nobody, None
    elif declared.private and "cards" not in event and saying.hidden:
        template, you = saying.hidden, None
    else:
        template = saying.other
    return Text(template, _params(saying, event), you=you, capital=True).render(lang, reader, vocabulary)


def _params(saying: Saying, event: Wire) -> dict[str, object]:
    params: dict[str, object] = {}
    for name, value in event.items():
        if value is None or name == "type":
            continue
        if name in ("seat", "to"):
            params[name] = Seat(value)
        elif name == "cards":
            params[name] = cards(value)
        elif name == "count":
            params[name] = Amount(value, "card")
        elif name == "points":
            params[name] = Amount(value, "point")
        elif name == "suit":
            params[name] = Suit(value)
        elif name == "kind":
            params[name] = Translated(saying.kinds.get(value, value))
    return params
