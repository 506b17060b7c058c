"""A message with its parameters, written in a language when an answer is sent."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from service.cards import Card
from service.i18n import DEFAULT, translate
from service.i18n.cards import card_name, rank_name, suit_name


@dataclass(frozen=True, slots=True)
class Suit:
    """A suit as a message parameter: named, not coded (a card's suit: a joker has none)."""

    code: str | None


@dataclass(frozen=True, slots=True)
class Rank:
    code: str


class _Named:
    """A parameter written in a language: ``format`` gives it its case (``{card:acc}``)."""

    __slots__ = ("lang", "value")

    def __init__(self, value: Any, lang: str) -> None:
        self.value, self.lang = value, lang

    def __format__(self, case: str) -> str:
        value, lang = self.value, self.lang
        if isinstance(value, Card):
            return card_name(value, lang, case or "nom")
        if isinstance(value, Suit):
            return suit_name(value.code, lang, case or "nom") if value.code else ""
        if isinstance(value, Rank):
            return rank_name(value.code, lang, case or "nom")
        if isinstance(value, (list, tuple)):
            return ", ".join(format(_Named(v, lang), case) for v in value)
        if callable(getattr(value, "render", None)):  # a sentence quoted by this one (``quoted``)
            return str(value.render(lang))
        return format(value)


@dataclass(frozen=True, slots=True)
class Text:
    """A message to be written in the answer's language: its English template and parameters."""

    template: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def render(self, lang: str) -> str:
        named = {key: _Named(value, lang) for key, value in self.params.items()}
        return translate(self.template, lang).format(**named)

    def __str__(self) -> str:
        return self.render(DEFAULT)
