"""The service's languages: what a person reads is English or Russian, chosen per request.

A message is kept as its English template (the message id of the gettext catalogs, in
``service/i18n/locale``) and its parameters, and written out only when an answer is sent, in the
answer's language: nothing is formatted for a request that sends no message. A parameter that is
a card, a suit or a rank is named in that language, in the case its place in the sentence asks
for (``{card:acc}``). No Flask here: the HTTP layer chooses the language (``Accept-Language``,
``lang``) and asks for the text.

The catalogs are managed with Babel (``make messages``: extract, update, compile); the compiled
``.mo`` files ship in the package and are read with the standard library's ``gettext``. This
module imports nothing of the service, so that every module may mark its messages with ``N_``;
``Text`` (``service.i18n.text``) writes them.
"""

from __future__ import annotations

import gettext
from functools import cache
from pathlib import Path
from typing import Protocol

LANGUAGES = ("en", "ru")
"""English first: the default, and the language of every message id."""
DEFAULT = "en"
LOCALE = Path(__file__).with_name("locale")
DOMAIN = "messages"


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """The catalog of ``lang``; English is the message ids themselves."""
    if lang == DEFAULT:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALE, languages=[lang])


def translate(message: str, lang: str) -> str:
    """``message`` in ``lang`` (itself when the catalog lacks it: a test checks none is lacking)."""
    return translations(lang).gettext(message) if message else message


class Renderable(Protocol):
    """A message with parameters (``service.i18n.text.Text``)."""

    def render(self, lang: str) -> str: ...


Message = str | Renderable
"""What a refusal or a problem says: a fixed sentence (its own message id), or a ``Text``."""


class Translated:
    """A fixed sentence as a value of another sentence, written in that sentence's language."""

    __slots__ = ("message",)

    def __init__(self, message: str) -> None:
        self.message = message

    def render(self, lang: str) -> str:
        return translate(self.message, lang)


def quoted(message: Message) -> Renderable:
    """``message`` as a value of another sentence (a refusal quoted by an error)."""
    return Translated(message) if isinstance(message, str) else message


def written(message: Message, lang: str) -> str:
    """``message`` as the answer in ``lang`` says it."""
    return translate(message, lang) if isinstance(message, str) else message.render(lang)


def N_(message: str) -> str:  # noqa: N802 (gettext's own name for "mark for translation")
    """Marks a message for the catalogs (``make messages`` extracts it) without translating it."""
    return message
