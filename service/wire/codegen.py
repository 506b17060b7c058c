"""Functions written as Python source and compiled once, at import, as ``dataclasses`` writes a
class's ``__init__``: what ``service.wire.form`` turns a declaration into, so a request pays for
the code a hand would have written and nothing for the declaration.

The source of every function is kept (``Source.text``) and registered with ``linecache``, so a
traceback through a generated loader shows its lines.
"""

from __future__ import annotations

import linecache
import re
from collections.abc import Callable
from itertools import count
from typing import Any

_SIMPLE = (type(None), bool, int, str)
_NOT_NAME = re.compile(r"\W")
_FILES = count()


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
        self._lines += [f"def {name}({params}):", *(f"    {line}" for line in body), ""]
        self._defined.append(name)

    @property
    def text(self) -> str:
        return "\n".join(self._lines)

    def compile(self) -> dict[str, Callable[..., Any]]:
        """The functions written so far, by name."""
        filename = f"<wire {self.title} #{next(_FILES)}>"
        text = self.text
        exec(compile(text, filename, "exec"), self.namespace)
        linecache.cache[filename] = (len(text), None, text.splitlines(keepends=True), filename)
        return {name: self.namespace[name] for name in self._defined}


def substitute(template: str, placeholder: str, value: str) -> str:
    """``template`` with every ``placeholder`` token replaced by ``value``."""
    return re.sub(rf"\b{re.escape(placeholder)}\b", lambda _: value, template)


def occurrences(template: str, placeholder: str) -> int:
    return len(re.findall(rf"\b{re.escape(placeholder)}\b", template))
