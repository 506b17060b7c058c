"""A message with its parameters, written in a language when an answer is sent.

A sentence is for a person: it names seats as people count them («место 2» for seat 1), and it
speaks to its reader («вы») when it is told to the seat it is about (``Text.you``). A count
agrees with its noun by the language's plural rules (gettext's ``ngettext``, the rules Babel
writes into the catalog: 1 очко, 2 очка, 5 очков), and a number that stands in a case of its
own is written in words by num2words («ответить двумя картами»).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from num2words import num2words

from service.cards import Card
from service.i18n import DEFAULT, translations
from service.i18n.cards import CASES, Vocabulary, card_name, rank_name, suit_name


@dataclass(frozen=True, slots=True)
class Suit:
    """A suit as a message parameter: named, not coded (a card's suit: a joker has none)."""

    code: str | None


@dataclass(frozen=True, slots=True)
class Rank:
    code: str


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat as a message parameter: «место 2» for seat 1, or «вы» to the seat itself (no seat,
    where a state has none to move: «никто»)."""

    number: int | None


@dataclass(frozen=True, slots=True)
class Amount:
    """A number of things, its noun agreeing by the language's plural rules: «21 очко», «3 карты»,
    and in a case of the sentence's choosing: «двумя картами» (``{count:ins}``)."""

    value: int
    noun: str
    """A key of ``NOUNS``."""


NOUNS = {
    "point": ("{n} point", "{n} points"),
    "card": ("{n} card", "{n} cards"),
    "trick": ("{n} trick", "{n} tricks"),
}
"""Each counted noun's English singular and plural, the message ids of its phrase in every case
(the case is the message's context: ``npgettext("ins", ...)``)."""


def amount(value: int, noun: str, lang: str, case: str = "nom") -> str:
    """«21 очко»; «двумя картами» (``case="ins"``)."""
    singular, plural = NOUNS[noun]
    phrase = translations(lang).npgettext(case if case in CASES else "nom", singular, plural, value)
    return phrase.format(n=_Named(value, lang, None, None))


SEAT_RU = ("место {n}", "места {n}", "месту {n}", "место {n}", "местом {n}", "месте {n}")
NOBODY_RU = ("никто", "никого", "никому", "никого", "никем", "ником")
YOU_RU = ("вы", "вас", "вам", "вас", "вами", "вас")
CASE_NAMES = {"nom": "nominative", "gen": "genitive", "dat": "dative", "acc": "accusative",
              "ins": "instrumental", "pre": "prepositional"}
GENDERS = {"m", "f", "n"}


def seat_name(seat: int | None, lang: str, case: str = "nom", *, you: bool = False) -> str:
    """«место 2» (seat 1, in ``case``), «вам» (``you``, dative); "seat 2", "you"."""
    index = CASES.index(case) if case in CASES else 0
    if seat is None:
        return NOBODY_RU[index] if lang == "ru" else "nobody"
    if lang == "ru":
        return YOU_RU[index] if you else SEAT_RU[index].format(n=seat + 1)
    return "you" if you else f"seat {seat + 1}"


def number(value: int, lang: str, spec: str) -> str:
    """``value`` in words in the case (and gender) ``spec`` asks for («двумя», ``ins.f``) in
    Russian; digits otherwise, and in English."""
    case, _, gender = spec.partition(".")
    if lang != "ru" or case not in CASE_NAMES:
        return str(value)
    gender = gender if gender in GENDERS else "m"
    return str(num2words(value, lang="ru", case=CASE_NAMES[case], gender=gender))


class _Named:
    """A parameter written in a language: ``format`` gives it its case (``{card:acc}``)."""

    __slots__ = ("lang", "reader", "value", "vocabulary")

    def __init__(self, value: Any, lang: str, reader: int | None, vocabulary: Vocabulary | None) -> None:
        self.value, self.lang, self.reader, self.vocabulary = value, lang, reader, vocabulary

    def __format__(self, case: str) -> str:
        value, lang = self.value, self.lang
        if isinstance(value, Card):  # English names a card in a sentence with its article
            name = card_name(value, lang, case or "nom", self.vocabulary)
            return name if lang == "ru" else f"the {name}"
        if isinstance(value, Amount):
            return amount(value.value, value.noun, lang, case or "nom")
        if isinstance(value, Seat):
            return seat_name(value.number, lang, case or "nom", you=value.number == self.reader)
        if isinstance(value, Suit):
            return suit_name(value.code, lang, case or "nom") if value.code else ""
        if isinstance(value, Rank):
            return rank_name(value.code, lang, case or "nom", self.vocabulary)
        if isinstance(value, bool):
            return format(value)
        if isinstance(value, int):
            return number(value, lang, case)
        if isinstance(value, (list, tuple)):
            return _listed([format(self.of(v), case) for v in value], lang)
        if isinstance(value, Text):  # a sentence quoted by this one
            return value.render(lang, self.reader, self.vocabulary)
        if callable(getattr(value, "render", None)):
            return str(value.render(lang))
        return format(value)

    def of(self, value: Any) -> _Named:
        return _Named(value, self.lang, self.reader, self.vocabulary)


def _listed(names: list[str], lang: str) -> str:
    """«даму пик, короля пик и туза пик»; "the queen, the king and the ace"."""
    if len(names) < 2:
        return "".join(names)
    return f"{', '.join(names[:-1])} {'и' if lang == 'ru' else 'and'} {names[-1]}"


@dataclass(frozen=True, slots=True)
class Text:
    """A message to be written in the answer's language: its English template and parameters.

    ``you`` is the sentence said to its subject (``params["seat"]``) when that seat reads it;
    ``plural`` makes ``template`` the singular of a count, ``params[count]``, whose form each
    language chooses by its plural rules."""

    template: str
    params: Mapping[str, Any] = field(default_factory=dict)
    you: str | None = None
    plural: str | None = None
    count: str = "count"
    capital: bool = False
    """Begin with a capital: a sentence a player is shown (an event's, a refusal's), not a clause
    a developer's detail quotes."""

    def chosen(self, reader: int | None) -> tuple[str, str | None]:
        """The template (and its plural) for ``reader``: the second person to the subject."""
        subject = self.params.get("seat")
        if self.you is not None and isinstance(subject, Seat) and subject.number == reader:
            return self.you, None
        return self.template, self.plural

    def source(self, lang: str, reader: int | None = None) -> str:
        """The template in ``lang`` before its values are written in (``{seat}``, ``{card:gen}``)."""
        template, plural = self.chosen(reader)
        catalog = translations(lang)
        if plural is None:
            return catalog.gettext(template)
        return catalog.ngettext(template, plural, int(self.params[self.count]))

    def render(self, lang: str, reader: int | None = None, vocabulary: Vocabulary | None = None) -> str:
        named = {key: _Named(value, lang, reader, vocabulary) for key, value in self.params.items()}
        sentence = self.source(lang, reader).format(**named)
        return sentence[:1].upper() + sentence[1:] if self.capital else sentence

    def wire_params(self) -> dict[str, Any]:
        """The values as the wire writes them: a seat as its number, a card as its code."""
        return {key: _wire(value) for key, value in self.params.items()}

    def __str__(self) -> str:
        return self.render(DEFAULT)


def _wire(value: Any) -> Any:
    if isinstance(value, Card):
        return value.code
    if isinstance(value, Seat):
        return value.number
    if isinstance(value, Amount):
        return value.value
    if isinstance(value, (Suit, Rank)):
        return value.code
    if isinstance(value, (list, tuple)):
        return [_wire(v) for v in value]
    if isinstance(value, Text):
        return value.template
    return value if isinstance(value, (int, str, float, type(None))) else str(value)
