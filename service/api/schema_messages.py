"""What a schema error says, in the answer's language.

The validators write their messages in English: jsonschema-rs quotes the value
(``"a" is not of type "integer"``), fastjsonschema says what it must be (``must be integer``).
English answers keep those words. Every other language writes the rule the value broke from
one catalog sentence per JSON Schema keyword, with the keyword's own values (its limit, its
types, its choices) and, where the English quoted the value, the same quotation first.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from string import Formatter
from typing import Any

from service.i18n import DEFAULT, N_, translate

MAX_MESSAGE = 200
"""Characters of a message at most: it may quote the value, which the client may have made large."""

RULES = {
    "type": N_("must be of type {types}"),
    "enum": N_("must be one of: {options}"),
    "const": N_("must be {expected_value}"),
    "minimum": N_("must be at least {limit}"),
    "maximum": N_("must be at most {limit}"),
    "exclusiveMinimum": N_("must be more than {limit}"),
    "exclusiveMaximum": N_("must be less than {limit}"),
    "minLength": N_("must be at least {limit} characters long"),
    "maxLength": N_("must be at most {limit} characters long"),
    "minItems": N_("must have at least {limit} items"),
    "maxItems": N_("must have at most {limit} items"),
    "uniqueItems": N_("must not hold an item twice"),
    "pattern": N_("must match the pattern {pattern}"),
    "multipleOf": N_("must be a multiple of {multiple_of}"),
    "minProperties": N_("must have at least {limit} fields"),
    "maxProperties": N_("must have at most {limit} fields"),
    "oneOf": N_("matches none of the forms this field takes"),
    "anyOf": N_("matches none of the forms this field takes"),
    "oneOfMultipleValid": N_("matches more than one of the forms this field takes"),
    "required": N_("is required"),
    "additionalProperties": N_("is not a known field"),
}
"""Each keyword's sentence, with the keyword's values as jsonschema-rs names them."""
OTHER = N_("does not match the schema (its keyword {keyword})")


CUT = N_("… (cut)")


def cut(message: str, lang: str = DEFAULT) -> str:
    """``message``, cut short (and saying so, in ``lang``) past ``MAX_MESSAGE`` characters."""
    return message if len(message) <= MAX_MESSAGE else message[:MAX_MESSAGE] + translate(CUT, lang)


@dataclass(frozen=True, slots=True)
class SchemaMessage:
    """A validator's message: ``english`` as the validator wrote it, and the keyword (``rule``)
    with its values (``params``) that other languages write it from; ``value``, the value as the
    English quoted it, if it did."""

    english: str
    rule: str
    params: Mapping[str, Any] = field(default_factory=dict)
    value: str | None = None

    def render(self, lang: str) -> str:
        if lang == DEFAULT:
            return self.english
        template = RULES.get(self.rule)
        values = {"keyword": f"`{self.rule}`", **{k: _listed(v) for k, v in self.params.items()}}
        text = translate(template or OTHER, lang).format(**values)
        return cut(f"{self.value}: {text}" if self.value is not None else text, lang)

    def __str__(self) -> str:
        return self.english


def _listed(value: Any) -> str:
    """A keyword's value as a sentence quotes it: codes in backticks, a list as a list of them."""
    if isinstance(value, list | tuple):
        return ", ".join(_listed(v) for v in value)
    return f"`{value}`" if isinstance(value, str) else str(value)


def of_keyword(rule: str, definition: Mapping[str, Any]) -> dict[str, Any]:
    """The value the sentence of ``rule`` names, from the schema ``definition`` that ``rule``
    failed in (fastjsonschema's errors name the keyword and its schema)."""
    names = [name for _, name, _, _ in Formatter().parse(RULES.get(rule, "")) if name]
    return {names[0]: definition[rule]} if names and rule in definition else {}
