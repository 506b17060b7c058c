"""The rules reference ships with the repository (docs/rules/<game>.md), so every § a refusal cites
can be opened from a clone."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from service.games.registry import GAMES

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "rules"
SHARED = ROOT.parent / "shared" / "rules"
SECTION = re.compile(r"§(\d+(?:\.\d+)?)")


def _headings(text: str) -> set[str]:
    """Section numbers of the headings: ``## 4. Moves`` -> 4, ``### 4.2 Move list`` -> 4.2."""
    found = re.findall(r"^#{2,4} (\d+(?:\.\d+)*)\.? ", text, flags=re.MULTILINE)
    return {number.rstrip(".") for number in found}


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_section_a_refusal_cites_is_in_the_rules_file(game_id):
    text = (RULES / f"{game_id}.md").read_text()
    headings = _headings(text)
    for reason in GAMES[game_id].info.reasons:
        cited = SECTION.findall(reason.rule) + re.findall(r"-(\d+\.\d+)", reason.rule)
        assert cited, f"{reason.value}: its rule names no §"
        for section in cited:
            assert section in headings, f"{reason.value} cites §{section}, not in docs/rules/{game_id}.md"


def test_the_headings_are_read_as_sections():
    assert _headings("## 4. Moves\n### 4.2 Move list\n#### 4.1.6 Minimum\n") == {"4", "4.2", "4.1.6"}


OWN_SECTIONS = {"bezique.md": "4.6", "canasta.md": "4.13"}
"""Sections this project has changed on purpose, until the shared rules follow: the listings of
Bezique and Canasta answer families for the moves too many to list one by one."""


def _without(text: str, section: str) -> str:
    """The text less one section: its heading and everything up to the next heading of its level
    or above."""
    lines = text.splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if re.match(rf"#{{2,4}} {re.escape(section)}\.? ", line))
    level = len(lines[start]) - len(lines[start].lstrip("#"))
    end = next((i for i in range(start + 1, len(lines)) if re.match(rf"#{{1,{level}}} \d", lines[i])), len(lines))
    return "".join(lines[:start] + lines[end:])


def test_a_section_is_cut_up_to_the_next_heading_of_its_level():
    text = "## 4. Moves\n### 4.5 A\na\n### 4.6 B\nb\n#### 4.6.1 C\nc\n## 5. D\nd\n"
    assert _without(text, "4.6") == "## 4. Moves\n### 4.5 A\na\n## 5. D\nd\n"


@pytest.mark.skipif(not SHARED.is_dir(), reason="the team's shared rules are not beside this clone")
def test_the_copy_matches_the_shared_rules():
    shared = {p.name: p.read_text() for p in SHARED.glob("*.md")}
    copied = {p.name: p.read_text() for p in RULES.glob("*.md")}
    for name, section in OWN_SECTIONS.items():
        shared[name], copied[name] = _without(shared[name], section), _without(copied[name], section)
    assert copied == shared, "bring docs/rules/ up to date with ../shared/rules/ (but the sections of OWN_SECTIONS)"
