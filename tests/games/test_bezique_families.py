"""Bezique's move families (docs/rules/bezique.md §4.6): a listing stays small and quick whatever
the holding; every declaration a family's rule builds is legal; and the declarations listed one by
one, with those the families build, are exactly every legal declaration. The families are read on
the wire, as a front end reads them, by ``built`` below (the rule of the schema written out once
more); the reference for "every legal declaration" is the enumerator the listing used before
families, kept in tests/games/bezique_reference.py."""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from itertools import islice

import orjson
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from service.cards import CARDS, JOKER
from service.games.bezique import declarations, rules
from service.games.bezique import listing as listing_rules
from service.games.bezique.rules import Declare
from service.games.bezique.wire import FORM
from tests.games import bezique_reference, steps
from tests.games.bezique_positions import GAME, position, shown

SUIT_ORDER = "CDHS"
RANK_ORDER = ("A", "10", "K", "Q", "J", "9")
BEZIQUE_JACK = {"H": "JD", "D": "JH", "C": "JS", "S": "JC"}
BOUND = 2 + 23 * listing_rules.LISTED_MOST + 12
"""§4.6: pass and the exchange, 48 entries for each of at most 23 pairs of a non-extra kind and
a multiplicity, two for each extra."""


def window(hand, exposed=(), *, trump="H"):
    """Seat 1 of two, ten packs, has just won trick 12: its hand ``hand`` (topped up with harmless
    cards) and its table ``exposed``."""
    return position(hands={1: hand}, exposed={1: list(exposed)}, trump_suit=trump, phase="declare",
                    tricks_played=12, leader=1, options={"packs": 10})


def canon_key(code):
    return SUIT_ORDER.index(code[-1]), RANK_ORDER.index(code[:-1])


def built(family):
    """Every declaration the family's rule builds, in the canonical form of §4.6: each slot filled
    with exactly its count, each source giving at most its most, the wild cards at most
    ``jokers``, a card from the hand somewhere; a table source's first ids."""
    slots = family["slots"]

    def fill(i, k, need, jokers, from_hand, taken):
        sources = slots[i]["from"]
        if k == len(sources):
            if need == 0 and i + 1 < len(slots):
                yield from fill(i + 1, 0, slots[i + 1]["count"], jokers, from_hand, taken)
            elif need == 0 and from_hand:
                yield taken
            return
        if need > sum(s["most"] for s in sources[k:]):
            return
        source = sources[k]
        wild = source.get("card") == "JK"
        for t in range(min(source["most"], need, jokers if wild else need) + 1):
            yield from fill(i, k + 1, need - t, jokers - t if wild else jokers,
                            from_hand or (t > 0 and "table" not in source), taken + [(source, t)] * (t > 0))

    for taken in fill(0, 0, slots[0]["count"], family["jokers"], False, []):
        naturals = sorted((s["card"] for s, t in taken if "card" in s and "as" not in s for _ in range(t)),
                          key=canon_key)
        wild = sorted((s["as"] for s, t in taken if "as" in s for _ in range(t)), key=canon_key)
        yield {"seat": family["seat"], "type": "declare", "kind": family["kind"],
               "multiplicity": family["multiplicity"],
               "from_hand": [{"card": c} for c in naturals] + [{"card": "JK", "as": x} for x in wild],
               "from_table": sorted(i for s, t in taken if "table" in s for i in s["table"][:t])}


def key(move):
    return json.dumps(move, sort_keys=True)


def listing(state, *, most=None):
    """The wire listing of seat 1, with ``LISTED_MOST`` set to ``most`` if given."""
    with pytest.MonkeyPatch.context() as patch:
        if most is not None:
            patch.setattr(listing_rules, "LISTED_MOST", most)
        found = GAME.listing(state, 1)
    return [GAME.dump_move(m) for m in found.moves], found.families


def every_declaration(state):
    """The reference: every legal declaration of seat 1, listed one by one."""
    classes = listing_rules.table_classes(state.exposed[1])
    naturals = Counter(c for c in state.hands[1] if c is not JOKER)
    jokers = state.hands[1].count(JOKER)
    found = set()
    for kind, rule in declarations.rules_for(state.trump_suit).items():
        q = rules.extra_count(state, 1, kind) if kind in declarations.EXTRA_OF else 0
        for m, (hand, table) in bezique_reference.listing(rule, naturals, jokers, classes, q):
            found.add(key(GAME.dump_move(Declare(1, kind, m, hand, table))))
    return found


def legal(state, move):
    """The wire move passes the move schema and ``check``."""
    FORM.schemas.moves[move["type"]]().load(move)
    return steps.refusal(GAME, state, GAME.load_move(move)) is None


# --- the longest listings ------------------------------------------------------------------------


JACKS_TABLE = [shown("JD", *t) for t in (["bezique"], ["bezique"], ["bezique", "trump_quint"],
                                         ["bezique", "trump_quint"], ["trump_quint"], ["trump_quint"])]
JACKS_TABLE += [shown("JH", "trump_quint"), shown("JH", "trump_quint")]

WORST = {  # hand, table, trump: the bench's holding, variations, and the longest a search found
    "eight_jacks_both_JK_eight_exposed": ("JC JC JS JD JD JH JK JK 9H", JACKS_TABLE, "H"),
    "ten_jacks_in_hand_four_classes": ("JC JC JD JD JH JH JS JS JK JK", JACKS_TABLE[:7], "H"),
    "ten_queens_in_hand_five_classes": ("QC QC QD QD QH QH QS QS JK JK", [
        shown("QS", *t) for t in (["bezique"], ["bezique"], ["trump_marriage"], ["trump_marriage"], ["trump_quint"],
                                  ["bezique", "trump_marriage"], ["bezique", "trump_quint"])], "S"),
    "jacks_in_six_classes": ("JC JC JC JS JS JD JD JH JH", [
        shown("JD", "bezique"), shown("JD", "trump_quint"), shown("JD", "bezique", "trump_quint"),
        shown("JH", "trump_quint"), shown("JK", "bezique", as_="JD"), shown("JK", "trump_quint", as_="JH"),
        shown("JD", "bezique"), shown("JH", "trump_quint")], "H"),
    "jacks_spade_trumps": ("JS JS JD JC JC JH JK JK 9S", [shown("JC", "bezique")] * 4
                           + [shown("JS", "trump_quint")] * 4, "S"),
    "beziques_and_marriages_ladder": ("QH QH QH QH QH QH JD JD JD JD JD JD KH KH KH JK JK", [], "H"),
    "beziques_queens_and_jacks_on_the_table": ("JD JD JD JD JD JD JK JK QH QH QH QH QH QH", [
        shown("JD", "trump_quint"), shown("QH", "trump_marriage"), shown("QH", "four_trump_queens")], "H"),
    "beziques_mixed_tags": ("JD JD JD JD JD JD JK JK QH QH QH QH QH QH", [
        shown("QH", "four_queens"), shown("JD", "trump_quint"), shown("QH", "extra_trump_queen")], "H"),
    "marriages_and_trump_fours": ("KH KH KH KH KH KH QH QH QH QH QH QH JK JK", [
        shown("QH", "four_trump_queens"), shown("KH", "four_trump_kings"), shown("QH", "bezique")], "H"),
    "beziques_marriages_with_table": ("QH QH QH QH JD JD JD JD KH KH JK JK", [
        shown("QH", "four_queens"), shown("JD", "trump_quint"), shown("QH", "bezique"),
        shown("KH", "four_kings"), shown("JD", "four_jacks")], "H"),
    "quints_with_wild_cards": ("AH AH 10H 10H KH KH QH QH JH JD JK JK", [
        shown("AH", "four_aces"), shown("10H", "four_trump_tens"), shown("KH", "four_kings"),
        shown("QH", "bezique"), shown("JD", "bezique")], "H"),
}


def _timed(function):
    """CPU seconds, so that a busy machine does not fail the test."""
    start = time.process_time()
    function()
    return time.process_time() - start


@pytest.mark.parametrize("name", sorted(WORST))
def test_4_6_the_longest_listings_stay_small_and_quick(name):
    hand, exposed, trump = WORST[name]
    state = window(hand, exposed, trump=trump)

    def answer():
        found = GAME.listing(state, 1)
        return orjson.dumps({"to_move": 1, "moves": [GAME.dump_move(m) for m in found.moves],
                             "families": found.families})

    body = answer()
    spent = min(_timed(answer) for _ in range(5))
    moves, families = listing(state)
    assert len(moves) + len(families) <= BOUND < 2_000
    pairs = {(m["kind"], m["multiplicity"]) for m in [*moves, *families] if m["type"] == "declare"}
    assert sum(not kind.startswith("extra") for kind, _ in pairs) <= 23
    assert len(body) <= 300_000
    assert spent <= 0.050, f"{spent * 1000:.1f} ms"
    rng = random.Random(name)
    for family in families:
        assert family["count"] > listing_rules.LISTED_MOST
        FORM.schemas.family().load(family)
        for index in rng.sample(range(family["count"]), 5):
            move = next(islice(built(family), index, None))
            assert key(move) not in {key(m) for m in moves} and legal(state, move), move


@pytest.mark.parametrize("name", sorted(WORST))
def test_4_6_the_longest_listings_with_their_families_are_every_legal_declaration(name):
    hand, exposed, trump = WORST[name]
    state = window(hand, exposed, trump=trump)
    moves, families = listing(state)
    listed = [key(m) for m in moves if m["type"] == "declare"]
    made = [key(m) for family in families for m in built(family)]
    assert [len(list(built(f))) for f in families] == [f["count"] for f in families]
    assert len(set(listed + made)) == len(listed) + len(made)
    assert set(listed + made) == every_declaration(state)


def test_4_6_eight_jacks_answer_families_for_the_fours_of_jacks():
    """The holding that listed 10,984 entries before families (§4.6)."""
    hand, exposed, trump = WORST["eight_jacks_both_JK_eight_exposed"]
    state = window(hand, exposed, trump=trump)
    moves, families = listing(state)
    assert [(f["kind"], f["multiplicity"], f["count"]) for f in families] == [
        ("four_jacks", 1, 924), ("four_jacks", 2, 7448), ("four_jacks", 3, 2536)]
    assert len(moves) == 76 and {"seat": 1, "type": "pass"} in moves
    assert families[0]["slots"][0] == {"count": 4, "from": [
        {"card": "JC", "most": 2}, {"card": "JD", "most": 2}, {"card": "JH", "most": 1}, {"card": "JS", "most": 1},
        {"card": "JK", "as": "JC", "most": 2}, {"card": "JK", "as": "JD", "most": 2},
        {"card": "JK", "as": "JH", "most": 2}, {"card": "JK", "as": "JS", "most": 2},
        {"table": [1, 2], "most": 2}, {"table": [3, 4], "most": 2}, {"table": [5, 6], "most": 2},
        {"table": [7, 8], "most": 2}]}
    assert families[0]["jokers"] == 2
    four = {"seat": 1, "type": "declare", "kind": "four_jacks", "multiplicity": 4, "from_hand": [
        {"card": "JC"}, {"card": "JC"}, {"card": "JD"}, {"card": "JD"}, {"card": "JH"}, {"card": "JS"},
        {"card": "JK", "as": "JC"}, {"card": "JK", "as": "JD"}], "from_table": [1, 2, 3, 4, 5, 6, 7, 8]}
    assert four in moves and legal(state, four), "m = 4 has ten declarations: listed"


def test_4_6_below_the_threshold_every_declaration_is_listed():
    state = window("QH QH JD JD JK", [shown("QH", "four_queens"), shown("JD", "four_jacks")])
    moves, families = listing(state)
    assert families == []
    assert {key(m) for m in moves if m["type"] == "declare"} == every_declaration(state)


# --- every holding: the families build legal moves, and with the list every legal one ----------


def _pool(trump):
    plain = [s for s in SUIT_ORDER if s != trump][:2]
    return sorted({*(r + trump for r in ("A", "10", "K", "Q", "J")), BEZIQUE_JACK[trump],
                   *(r + s for r in ("A", "K", "Q", "J") for s in plain)}, key=canon_key)


@st.composite
def _shown(draw, trump, cards):
    card = draw(st.sampled_from([*cards, "JK"]))
    as_ = draw(st.sampled_from(cards)) if card == "JK" else card
    by_family: dict[str, list[str]] = {}
    for kind, rule in declarations.rules_for(trump).items():
        if CARDS[as_] in rule.identities:
            by_family.setdefault(declarations.FAMILY[kind], []).append(kind)
    chosen = draw(st.lists(st.sampled_from(sorted(by_family)), min_size=1, max_size=3, unique=True))
    return shown(card, *(draw(st.sampled_from(by_family[f])) for f in chosen), as_=as_ if card == "JK" else None)


@st.composite
def holdings(draw):
    """A declaration window whose hand and table hold a few of the cards that make declarations
    (the trump A 10 K Q J, the bezique jack, plain aces, kings, queens and jacks), several times
    over, and wild cards."""
    trump = draw(st.sampled_from("HS"))
    cards = draw(st.lists(st.sampled_from(_pool(trump)), min_size=1, max_size=4, unique=True))
    hand = draw(st.lists(st.sampled_from([*cards, "JK"]), min_size=3, max_size=10))
    exposed = draw(st.lists(_shown(trump, cards), max_size=6))
    held = Counter(hand) + Counter(e["card"] for e in exposed)
    assume(held["JK"] <= 2 and max(held.values()) <= 10 and len(hand) + len(exposed) <= 17)
    return window(" ".join(hand), exposed, trump=trump)


@given(holdings(), st.sampled_from([0, 2, listing_rules.LISTED_MOST]))
def test_4_6_the_listed_and_the_built_declarations_are_every_legal_one(state, most):
    moves, families = listing(state, most=most)
    listed = [key(m) for m in moves if m["type"] == "declare"]
    per_kind = Counter((m["kind"], m["multiplicity"]) for m in moves if m["type"] == "declare")
    assert max(per_kind.values(), default=0) <= most
    made = []
    for family in families:
        FORM.schemas.family().load(family)
        found = [key(m) for m in built(family)]
        assert len(found) == family["count"] > most
        assert (family["kind"], family["multiplicity"]) not in per_kind
        made += found
    assert len(set(listed + made)) == len(listed) + len(made), "each declaration once"
    assert set(listed + made) == every_declaration(state)


@given(holdings(), st.data())
def test_4_6_every_declaration_a_family_builds_is_legal(state, data):
    _, families = listing(state, most=0)
    for family in families:
        for _ in range(3):
            index = data.draw(st.integers(0, family["count"] - 1))
            move = next(islice(built(family), index, None))
            assert legal(state, move), move
