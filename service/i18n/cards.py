"""Cards, ranks and suits by name, as players say them, in each language.

Russian names are declined: a card is named in the case its sentence needs (``{card:acc}`` in a
message: «положить даму пик»; nominative when no case is given). The suit of a card stays in the
genitive plural in every case (дама пик, даму пик, дамой пик), as card players say it. Sources:
the seed texts (../shared/seeds: туз, король, дама, валет, десятка, девятка, шестёрка; масти пики,
трефы, бубны, черви; джокер) and ordinary card-table usage for the ranks they do not name
(двойка to пятёрка, семёрка, восьмёрка).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from service.cards import JOKER_CODE, Card

CASES = ("nom", "gen", "dat", "acc", "ins", "pre")

RANKS_RU: dict[str, tuple[str, str, str, str, str, str]] = {
    # nominative, genitive, dative, accusative, instrumental, prepositional
    "2": ("двойка", "двойки", "двойке", "двойку", "двойкой", "двойке"),
    "3": ("тройка", "тройки", "тройке", "тройку", "тройкой", "тройке"),
    "4": ("четвёрка", "четвёрки", "четвёрке", "четвёрку", "четвёркой", "четвёрке"),
    "5": ("пятёрка", "пятёрки", "пятёрке", "пятёрку", "пятёркой", "пятёрке"),
    "6": ("шестёрка", "шестёрки", "шестёрке", "шестёрку", "шестёркой", "шестёрке"),
    "7": ("семёрка", "семёрки", "семёрке", "семёрку", "семёркой", "семёрке"),
    "8": ("восьмёрка", "восьмёрки", "восьмёрке", "восьмёрку", "восьмёркой", "восьмёрке"),
    "9": ("девятка", "девятки", "девятке", "девятку", "девяткой", "девятке"),
    "10": ("десятка", "десятки", "десятке", "десятку", "десяткой", "десятке"),
    "J": ("валет", "валета", "валету", "валета", "валетом", "валете"),
    "Q": ("дама", "дамы", "даме", "даму", "дамой", "даме"),
    "K": ("король", "короля", "королю", "короля", "королём", "короле"),
    "A": ("туз", "туза", "тузу", "туза", "тузом", "тузе"),
    JOKER_CODE: ("джокер", "джокера", "джокеру", "джокера", "джокером", "джокере"),
}
"""Card players decline the masculine ranks as animate nouns («побить туза»)."""
SUITS_RU = {"C": "треф", "D": "бубён", "H": "червей", "S": "пик"}
"""A card's suit, in the genitive plural it keeps in every case: дама пик, десятка червей."""
SUIT_NAMES_RU: dict[str, tuple[str, str, str, str, str, str]] = {
    "C": ("трефы", "треф", "трефам", "трефы", "трефами", "трефах"),
    "D": ("бубны", "бубён", "бубнам", "бубны", "бубнами", "бубнах"),
    "H": ("черви", "червей", "червям", "черви", "червями", "червях"),
    "S": ("пики", "пик", "пикам", "пики", "пиками", "пиках"),
}
"""A suit by itself (ходить в черви, масть червей)."""

RANKS_EN = {"2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven", "8": "eight",
            "9": "nine", "10": "ten", "J": "jack", "Q": "queen", "K": "king", "A": "ace", JOKER_CODE: "joker"}
SUIT_NAMES_EN = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


Forms = tuple[str, str, str, str, str, str]


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """A game's own names for ranks, where its players name them otherwise than the table
    above: multi-deck Bezique's joker is «инфузорка» (its seed text)."""

    ranks_ru: Mapping[str, Forms] = field(default_factory=dict)
    ranks_en: Mapping[str, str] = field(default_factory=dict)


COMMON_WORDS = Vocabulary()
"""The names every game shares."""


def _case(spec: str) -> int:
    return CASES.index(spec) if spec in CASES else 0


def card_name(card: Card, lang: str, case: str = "nom", vocabulary: Vocabulary | None = None) -> str:
    """«десятка червей», «даму пик» (``case="acc"``), «джокер»; "ten of hearts", "joker"."""
    rank = rank_name(card.rank, lang, case, vocabulary)
    if lang == "ru":
        return rank if card.suit is None else f"{rank} {SUITS_RU[card.suit]}"
    return rank if card.suit is None else f"{rank} of {SUIT_NAMES_EN[card.suit]}"


def card_forms(card: Card, vocabulary: Vocabulary | None = None) -> dict[str, str]:
    """The card's Russian name in all six cases: {"nom": "туз пик", "gen": "туза пик", ...}."""
    return {case: card_name(card, "ru", case, vocabulary) for case in CASES}


def suit_name(suit: str, lang: str, case: str = "nom") -> str:
    """«черви», «червей» (``case="gen"``); "hearts"."""
    return SUIT_NAMES_RU[suit][_case(case)] if lang == "ru" else SUIT_NAMES_EN[suit]


def rank_name(rank: str, lang: str, case: str = "nom", vocabulary: Vocabulary | None = None) -> str:
    if lang == "ru":
        forms = vocabulary.ranks_ru.get(rank) if vocabulary else None
        return (forms or RANKS_RU[rank])[_case(case)]
    named = vocabulary.ranks_en.get(rank) if vocabulary else None
    return named or RANKS_EN[rank]
