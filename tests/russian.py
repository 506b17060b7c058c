"""What "wholly Russian" means for a text the service writes: no English word left in it.

A word of three Latin letters or more is English unless it is a code: in backticks (a field, a
setting), a quoted value the client sent, an option's snake_case name, or one of the games' codes
(game ids, move, event and option names, option values). A card code has two letters at most (10H, AS).
"""

from __future__ import annotations

import re
from functools import cache

from service.games.registry import GAMES
from service.i18n import translate, written

ENGLISH = re.compile(r"\b(?![a-z]+_)[A-Za-z]{3,}\b")
CODE = re.compile(r'`[^`]*`|"(?:[^"\\]|\\.)*"|\{[^}]*\}')


@cache
def codes() -> frozenset[str]:
    found = {"JSON", *(word for game_id in GAMES for word in game_id.split("-"))}
    for game in GAMES.values():
        info = game.info
        found |= {*info.move_types, *info.event_types, *info.options, *info.variants}
        found |= {value for text in info.option_texts.values() for value in text.choices}
    return frozenset(found)


def english_in(text: str) -> list[str]:
    """The English words of ``text``."""
    return [word for word in ENGLISH.findall(CODE.sub("", text)) if word not in codes()]


def assert_refusal_is_russian(refusal) -> None:
    """An ``IllegalMove``'s message and rule, written in Russian, hold no English."""
    for text in (written(refusal.message, "ru"), translate(refusal.rule, "ru")):
        assert not english_in(text), (refusal.reason, text)
