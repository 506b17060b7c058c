"""Events on the wire, as one seat may see them: each type's declared fields (``EventType``),
and a private type's cards shown only to the seats they belong to (the others are told their
number). Open mode shows every card to everyone, as its state does; a sealed hand keeps its
events so, and ``redacted`` tells them to each seat."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from service.errors import BadToken
from service.games.base import Event, EventType, Wire

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
