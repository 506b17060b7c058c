"""The table's own events in a sentence each (``text``), said to the seat that reads them: «Место 2
в сети», «Вы снова в игре», «Теперь за место 3 играет компьютер». A spectator (no seat) reads
them in the third person. The games' events (a move's ``events``) are said by their rules
(``service.api.events.spoken``).

Each sentence is a ``Text``: its English template (a message id of ``host/messages.ru.po``), the
second person for the seat it is about (``you``), and its values (``Seat``: «место 2» for seat
1, never a number from 0)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from service.i18n import N_
from service.i18n.text import Seat, Text

Wire = Mapping[str, Any]


def _seat(template: str, you: str | None = None) -> Callable[[Wire], Text]:
    """A sentence about the event's ``seat``."""
    return lambda event: Text(template, {"seat": Seat(event["seat"])}, you=you)


def _move(event: Wire) -> Text:
    if event.get("by", "seat") == "seat":
        return Text("{seat} moves", {"seat": Seat(event["seat"])}, you=N_("You move"))
    return Text("The computer moves for {seat}", {"seat": Seat(event["seat"])})


def _dealt(event: Wire) -> Text:
    first = event.get("to_move")
    if first is None:
        return Text("Hand {hand} is dealt", {"hand": event["hand_number"]})
    return Text("Hand {hand} is dealt: {seat} moves first",
                {"hand": event["hand_number"], "seat": Seat(first)},
                you=N_("Hand {hand} is dealt: you move first"))


def _hand_over(event: Wire) -> Text:
    return Text("Hand {hand} is over", {"hand": event["hand_number"]})


def _closed(event: Wire) -> Text:
    return Text("The table is closed: nobody has played for a long time")


SAYINGS: dict[str, Callable[[Wire], Text]] = {
    "move": _move,
    "dealt": _dealt,
    "joined": _seat(N_("A player takes {seat}"), N_("You take your seat")),
    "connected": _seat(N_("{seat} is online"), N_("You are online")),
    "reconnected": _seat(N_("{seat} is back online"), N_("You are back online")),
    "left": _seat(N_("{seat} is offline"), N_("You are offline")),
    "computer_took": _seat(N_("The computer plays for {seat} now")),
    "taken_back": _seat(N_("{seat} is back in the game"), N_("You are back in the game")),
    "timer_started": _seat(N_("{seat} is to move: the clock is running"),
                           N_("Your move: the clock is running")),
    "timer_expired": _seat(N_("{seat}'s time is up"), N_("Your time is up")),
    "hand_over": _hand_over,
    "match_over": lambda event: Text("The match is over"),
    "table_closed": _closed,
}
"""Each of the table's own event types' sentence (a move's: who moved, or that the computer moved
for them; the move's own events say what it was)."""


def said(event: Wire, reader: int | None, lang: str) -> str:
    """The table's event ``event`` in a sentence in ``lang``, said to ``reader`` (None: a spectator)."""
    return SAYINGS[event["type"]](event).render(lang, reader)
