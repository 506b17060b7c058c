"""Functions written as Python source and compiled once, at import, as ``dataclasses`` writes a
class's ``__init__``: what ``service.wire.form`` turns a declaration into, so a request pays for
the code a hand would have written and nothing for the declaration.

The source of every function is kept (``Source.text``) and registered with ``linecache`` under a
name of its own, ``<wire SixtySixState>``, so a traceback through a generated loader names the
record and the function and shows its lines.
"""

from __future__ import annotations

import linecache
import re
from collections import Counter
from collections.abc import Callable
from itertools import count, pairwise
from typing import Any

_SIMPLE = (type(None), bool, int, str)
_NOT_NAME = re.compile(r"\W")
_TITLES: Counter[str] = Counter()
"""Each title's modules so far: a record declared again (a test's) gets a file name of its own."""


class Source:
    """One generated module: the objects its code names (its globals) and its functions' text."""

    def __init__(self, title: str) -> None:
        self.title = title
        self.namespace: dict[str, Any] = {"__builtins__": __builtins__}
        self._names: dict[int, str] = {}
        self._temps = count()
        self._lines: list[str] = []
        self._defined: list[str] = []

    def ref(self, obj: Any, hint: str = "g") -> str:
        """An expression for ``obj`` in the generated code: a literal for ``None``, booleans,
        integers and strings; for anything else a global of the module, one per object."""
        if type(obj) in _SIMPLE:
            return repr(obj)
        name = self._names.get(id(obj))
        if name is None:
            name = f"_{_NOT_NAME.sub('_', hint).strip('_')}_{len(self._names)}"
            self._names[id(obj)] = name
            self.namespace[name] = obj  # the namespace keeps the object, so its id stays its own
        return name

    def temp(self) -> str:
        """A fresh local name."""
        return f"_v{next(self._temps)}"

    def function(self, name: str, params: str, body: list[str]) -> None:
        laid_out = [part for line in body for part in _laid_out(line.lstrip(), "    " + _indent(line))]
        self._lines += [f"def {name}({params}):", *laid_out, ""]
        self._defined.append(name)

    @property
    def text(self) -> str:
        return "\n".join(self._lines)

    def compile(self) -> dict[str, Callable[..., Any]]:
        """The functions written so far, by name."""
        _TITLES[self.title] += 1
        again = _TITLES[self.title]
        filename = f"<wire {self.title}>" if again == 1 else f"<wire {self.title}, declared again ({again})>"
        text = self.text
        exec(compile(text, filename, "exec"), self.namespace)
        linecache.cache[filename] = (len(text), None, text.splitlines(keepends=True), filename)
        return {name: self.namespace[name] for name in self._defined}


WIDTH = 110
"""The generated code's lines are no longer than the service's own, where they can be broken."""
_OPENS = {"(": ")", "[": "]", "{": "}"}


def _indent(line: str) -> str:
    return line[:len(line) - len(line.lstrip())]


def _laid_out(line: str, indent: str) -> list[str]:
    """``line`` as a person would break it: when too long, its first call or display of several
    items (never a subscript or a comprehension) opened on the line, one item a line, each laid
    out again."""
    if len(indent) + len(line) <= WIDTH:
        return [indent + line]
    for start, end in _brackets(line):
        items = _items(line[start + 1:end])
        parts = [item + "," for item in items] if len(items) > 1 else _clauses(items[0] if items else "")
        if len(parts) > 1:
            inner = [laid for part in parts for laid in _laid_out(part, indent + "    ")]
            return [indent + line[:start + 1], *inner, indent + line[end:]]
    return [indent + line]


def _brackets(line: str) -> list[tuple[int, int]]:
    """Each bracket pair of ``line`` that may be broken (a call, a display, a tuple), outermost
    first; string literals skipped."""
    pairs, stack, quote = [], [], ""
    for at, char in enumerate(line):
        if quote:
            quote = "" if char == quote and line[at - 1] != "\\" else quote
        elif char in "'\"":
            quote = char
        elif char in _OPENS:
            stack.append((at, char))
        elif char in _OPENS.values() and stack:
            start, opened = stack.pop()
            after = line[start - 1] if start else " "
            if opened != "[" or not (after.isalnum() or after in "_])"):  # a subscript stays whole
                pairs.append((start, at))
    return sorted(pairs)


def _items(inside: str) -> list[str]:
    """The comma-separated items at the top level of a bracket's contents (one, for a
    comprehension)."""
    cuts = [at for at, depth in _top_level(inside) if inside[at] == "," and depth == 0]
    return [item for item in _cut(inside, cuts, skip=1) if item]


def _clauses(inside: str) -> list[str]:
    """A comprehension's element and its ``for`` and ``if`` clauses, each a line of its own."""
    cuts = [at for at, depth in _top_level(inside)
            if depth == 0 and (inside.startswith(" for ", at) or inside.startswith(" if ", at))]
    return _cut(inside, cuts, skip=0) if any(inside.startswith(" for ", at) for at in cuts) else [inside]


def _cut(text: str, cuts: list[int], *, skip: int) -> list[str]:
    bounds = [0, *cuts, len(text)]
    return [text[begin + (skip if begin else 0):end].strip() for begin, end in pairwise(bounds)]


def _top_level(text: str) -> list[tuple[int, int]]:
    """Each position of ``text`` outside string literals, with its depth in brackets."""
    found, depth, quote = [], 0, ""
    for at, char in enumerate(text):
        if quote:
            quote = "" if char == quote and text[at - 1] != "\\" else quote
            continue
        if char in "'\"":
            quote = char
        elif char in _OPENS.values():
            depth -= 1
        found.append((at, depth))
        if char in _OPENS:
            depth += 1
    return found


def substitute(template: str, placeholder: str, value: str) -> str:
    """``template`` with every ``placeholder`` token replaced by ``value``."""
    return re.sub(rf"\b{re.escape(placeholder)}\b", lambda _: value, template)


def occurrences(template: str, placeholder: str) -> int:
    return len(re.findall(rf"\b{re.escape(placeholder)}\b", template))
