"""docs/design.md's "What it costs beyond the rules" stays true: the table's line counts are
Kozel-bura's files as they are, counted as the document says (lines holding code, without blank
lines, comments and docstrings), and its ceremony adds up."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DESIGN = (ROOT / "docs" / "design.md").read_text()
PACKAGE = ROOT / "service" / "games" / "kozel_bura"
ROW = re.compile(r"^\| `(?P<file>[\w./]+)` \| (?P<lines>\d+)(?: entries)? \| (?P<ceremony>\d+|none)", re.M)
SKIPPED = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER}


def code_lines(source: str) -> int:
    """Lines holding a token other than a comment, less the lines of string statements."""
    strings = {line for node in ast.walk(ast.parse(source))
               if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
               and isinstance(node.value.value, str)
               for line in range(node.lineno, (node.end_lineno or node.lineno) + 1)}
    lines = {line for token in tokenize.generate_tokens(io.StringIO(source).readline) if token.type not in SKIPPED
             for line in range(token.start[0], token.end[0] + 1)}
    return len(lines - strings)


def rows() -> dict[str, tuple[int, int]]:
    return {m["file"]: (int(m["lines"]), 0 if m["ceremony"] == "none" else int(m["ceremony"]))
            for m in ROW.finditer(DESIGN)}


def test_the_table_counts_kozel_bura_as_it_is():
    table = rows()
    for name in ("game.py", "wire.py", "advice.py"):
        assert table[name][0] == code_lines((PACKAGE / name).read_text()), name
    entries = (PACKAGE / "messages.ru.po").read_text().count('\nmsgid "') - 1  # less the header's
    assert table["messages.ru.po"][0] == entries


def test_the_ceremony_adds_up_and_stays_small():
    total = int(re.search(r"\*\*ceremony\*\* \| \| \*\*(\d+)\*\*", DESIGN)[1])
    assert total == sum(ceremony for _, ceremony in rows().values())
    assert total <= 40


def test_the_count_leaves_out_docstrings_comments_and_blank_lines():
    source = '"""A module."""\n\nimport os  # why\n\n\ndef f():\n    """Doc,\n    two lines."""\n    return os\n'
    assert code_lines(source) == 3
