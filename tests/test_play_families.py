"""/play's builder for the moves a listing answers as families (clients/web/src/families.ts):
Canasta's melds and takes of several groups, Bezique's declarations with many ways to fill them.

The builder is bundled for node, as the page bundles it, and run over families of real listings:
it tries every choice its controls allow, and answers the moves of those it calls complete. They
must be exactly the moves the family's rule builds, as the rules files state it (written out in
tests/games/test_canasta_families.py and test_bezique_families.py), no more and no fewer; and the
rules must accept them. Then, in real Chromium, a person sets the counts of a family in the page
and plays the move."""

from __future__ import annotations

import itertools
import json
import random
import re
import shutil
import subprocess
from collections.abc import Iterator
from math import prod
from typing import Any

import pytest

from tests.browser import chromium, responses, wait
from tests.games import test_bezique_families as bezique
from tests.games import test_canasta_families as canasta
from tests.kept_tables import STATE_KEYS, family_positions, kept
from tests.live import ROOT, gunicorn

WEB = ROOT / "clients" / "web"
SMALL = 3_000
"""The most choices a Canasta family may have here: the rule's reference enumerates them in Python."""


@pytest.fixture(scope="module")
def run_builder(tmp_path_factory) -> Any:
    node, esbuild = shutil.which("node"), WEB / "node_modules" / ".bin" / "esbuild"
    assert node and esbuild.exists(), "`make web` installs the page's toolchain (Node, esbuild)"
    bundle = tmp_path_factory.mktemp("families") / "families.check.mjs"
    subprocess.run([str(esbuild), "test/families.check.ts", "--bundle", "--platform=node", "--format=esm",
                    "--target=node18", "--log-level=warning", f"--outfile={bundle}"], cwd=WEB, check=True)

    def run(families: list[dict[str, Any]]) -> list[dict[str, Any]]:
        done = subprocess.run([node, str(bundle)], input=json.dumps(families), capture_output=True, text=True,
                              timeout=120)
        assert done.returncode == 0, done.stderr[-4000:]
        return json.loads(done.stdout)

    return run


def choices(family: dict[str, Any]) -> int:
    """How many choices the builder's controls allow (its counts, as families.ts makes them)."""
    chosen = ([family["top"]] if family["top"] else []) + family["groups"]
    least = [family["top"]["least"] if family["top"] else 0] + [0] * len(family["groups"])
    return prod((len(g["naturals"]) - low + 1) * (min(g["most_wild"], len(family["twos"])) + 1)
                * (min(g["most_wild"], family["jokers"]) + 1) for g, low in zip(chosen, least, strict=False))


def canasta_families() -> list[tuple[Any, dict[str, Any]]]:
    """Families of small random hands, every table and phase (the listing's search bound at zero)."""
    found = []
    for seed in range(400):
        rng = random.Random(seed)
        seats, variant = canasta.TABLES[seed % len(canasta.TABLES)]
        state = canasta.random_position(rng, seats=seats, variant=variant, cards=rng.randint(5, 9),
                                        phase=("play", "draw")[seed % 2], side_score=rng.choice([0, 1500, 3000]),
                                        ranks=rng.choice([None, ("K",), ("7", "Q")]))
        found += [(state, f) for f in canasta.forced(state)[1] if choices(f) <= SMALL]
        if len(found) >= 40:
            break
    return found


def test_the_builder_makes_exactly_the_moves_of_each_canasta_family(run_builder):
    cases = canasta_families()
    assert {f["type"] for _, f in cases} == {"meld", "take_pile"}
    assert any(f["least_points"] for _, f in cases) and any(f["cards_left"]["most"] == 1 for _, f in cases)
    answers = run_builder([f for _, f in cases])
    rng = random.Random(1)
    for (state, family), answer in zip(cases, answers, strict=True):
        assert answer["tried"] == choices(family)
        made = {bezique.key(m) for m in answer["complete"]}
        assert len(made) == len(answer["complete"]), "each move from one choice"
        moves = (canasta.build(family, plan) for plan in canasta.plans(family))
        assert made == {bezique.key(m) for m in moves if canasta.is_member(family, m)}, family
        assert made, "a family is given only when it has a move"
        for move in rng.sample(answer["complete"], min(5, len(made))):
            assert canasta.legal(state, move) is None, move


def bezique_families() -> list[tuple[Any, dict[str, Any]]]:
    found = []
    for name in ("beziques_marriages_with_table", "quints_with_wild_cards", "jacks_in_six_classes"):
        hand, exposed, trump = bezique.WORST[name]
        state = bezique.window(hand, exposed, trump=trump)
        found += [(state, f) for f in bezique.listing(state, most=0)[1] if declaration_choices(f) <= 200_000]
    return found


def declaration_choices(family: dict[str, Any]) -> int:
    return prod(min(source["most"], slot["count"]) + 1 for slot in family["slots"] for source in slot["from"])


def test_the_builder_makes_exactly_the_declarations_of_each_bezique_family(run_builder):
    cases = bezique_families()
    kinds = {f["kind"] for _, f in cases}
    assert {"bezique", "trump_quint", "four_jacks"} <= kinds and any(f["jokers"] for _, f in cases)
    answers = run_builder([f for _, f in cases])
    rng = random.Random(2)
    for (state, family), answer in zip(cases, answers, strict=True):
        assert answer["tried"] == declaration_choices(family)
        made = [bezique.key(m) for m in answer["complete"]]
        assert len(made) == family["count"] == len(set(made)), family
        assert set(made) == {bezique.key(m) for m in bezique.built(family)}, family
        for move in rng.sample(answer["complete"], min(3, len(made))):
            assert bezique.legal(state, move), move


def test_the_builder_names_what_a_choice_lacks(run_builder):
    """Each rule a choice can break is named by the builder, in some family of these listings."""
    answers = run_builder([f for _, f in itertools.chain(canasta_families(), bezique_families())])
    named = set().union(*(answer["unmet"] for answer in answers))
    assert "missed-count" not in named, "a count outside its bounds, or not whole, is named as such"
    assert named >= {"naturals", "group-size", "nothing-laid", "points", "cards-left", "slot", "from-hand",
                     "jokers", "wild"}, named


# --- in the page, in real Chromium ----------------------------------------------------------------
# Families answer only positions far past a dealt hand's (Canasta's 40-card hands, Bezique's eight
# jacks on the table), so the test seals such a position with the server's own key, as a hand the
# page kept in the tab, and the page resumes it: the person sets the counts and plays the move.

@pytest.fixture(scope="module")
def keyed_server() -> Iterator[str]:
    # The positions are sealed here, not dealt: no replay guard has a record of them to judge by.
    with gunicorn(STATE_KEYS=STATE_KEYS, REPLAY_STORE="off") as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as driver:
        yield driver


@pytest.mark.xdist_group("browser")
@pytest.mark.parametrize("case", range(2), ids=["canasta-meld", "bezique-four-jacks"])
def test_a_person_builds_a_move_from_a_family_and_plays_it(browser, keyed_server, case):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    game_id, lang, state, family, choice = family_positions()[case]
    browser.get(f"{keyed_server}/play?lang={lang}")
    browser.execute_script("sessionStorage.setItem('card-table', arguments[0])", json.dumps(kept(game_id, state, 1)))
    browser.get(f"{keyed_server}/play?lang={lang}&game={game_id}&budget=1&pause=0")
    responses(browser)
    assert wait(browser, {"your-turn", "over"}) == "your-turn"
    builder = browser.find_element(By.CSS_SELECTOR, f"#families .family[data-family={family['type']}]")
    play = builder.find_element(By.CSS_SELECTOR, "button.move")
    lacking = builder.find_element(By.CSS_SELECTOR, ".unmet")
    assert not play.is_enabled() and lacking.text, "the counts at their least are no move yet"
    if lang == "ru":
        assert re.search("[а-я]", lacking.text) and not re.search("[A-Za-z]{3,}", lacking.text), lacking.text
    inputs = builder.find_elements(By.CSS_SELECTOR, "input[type=number]")
    wanted = ([choice.get((int(i.get_attribute("data-group")), i.get_attribute("data-count")), 0) for i in inputs]
              if isinstance(choice, dict) else choice)
    assert len(wanted) == len(inputs)
    for field, count in zip(inputs, wanted, strict=True):
        if str(count) != field.get_attribute("value"):
            field.send_keys(Keys.CONTROL, "a")
            field.send_keys(str(count))
    assert play.is_enabled(), lacking.text
    play.click()
    assert wait(browser, {"your-turn", "over"}) in {"your-turn", "over"}
    event = "melded" if game_id == "canasta" else "declared"
    logged = browser.find_elements(By.CSS_SELECTOR, f"#log [data-event={event}]")
    assert logged and not browser.find_element(By.ID, "refusal").text, browser.find_element(By.ID, "refusal").text
    answered, failed, _ = responses(browser)
    browser.get("about:blank")  # the page would play the computer's moves on to the hand's end
    assert not failed and all(status == 200 for _, status in answered), answered
    assert not [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
