"""Canasta's moves (docs/rules/canasta.md §4): a turn's draw or take, its melds and its discard,
and the going-out question; which of them each phase admits."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from service.cards import Card
from service.games.canasta.rules import Group, Phase


@dataclass(frozen=True, slots=True)
class Draw:
    kind: ClassVar[str] = "draw"
    seat: int


@dataclass(frozen=True, slots=True)
class TakePile:
    kind: ClassVar[str] = "take_pile"
    seat: int
    top_cards: tuple[Card, ...] = ()
    melds: tuple[Group, ...] = ()


@dataclass(frozen=True, slots=True)
class TakeUpcard:
    kind: ClassVar[str] = "take_upcard"
    seat: int
    show: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Meld:
    kind: ClassVar[str] = "meld"
    seat: int
    melds: tuple[Group, ...]


@dataclass(frozen=True, slots=True)
class ExchangeJoker:
    kind: ClassVar[str] = "exchange_joker"
    seat: int
    from_side: int
    rank: str
    card: Card


@dataclass(frozen=True, slots=True)
class Discard:
    kind: ClassVar[str] = "discard"
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class AskGoOut:
    kind: ClassVar[str] = "ask_go_out"
    seat: int


@dataclass(frozen=True, slots=True)
class AnswerGoOut:
    kind: ClassVar[str] = "answer_go_out"
    seat: int
    answer: bool


@dataclass(frozen=True, slots=True)
class DeclinePile:
    kind: ClassVar[str] = "decline_pile"
    seat: int


Move = Draw | TakePile | TakeUpcard | Meld | ExchangeJoker | Discard | AskGoOut | AnswerGoOut | DeclinePile
PHASE_MOVES: dict[Phase, tuple[type, ...]] = {
    Phase.DRAW: (Draw, TakePile, TakeUpcard, DeclinePile),
    Phase.PLAY: (Meld, ExchangeJoker, AskGoOut, Discard),
    Phase.AWAIT_ANSWER: (AnswerGoOut,),
    Phase.HAND_OVER: (),
}
