"""docs/rules/canasta.md §4.13, families: the multi-group melds and takes of a side without melds,
answered as families once the bounded search would list too many.

Read from the wire, as a front end reads them: every move built by a family's rule (the schema's
description, written out again here) is legal; every multi-group move the complete listing has is
a move of a family; a family is listed exactly when it has a move; and the bound holds on the
largest hands a 162-card deck allows.
"""

from __future__ import annotations

import itertools
import random

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.games.base import accepts
from service.games.canasta import check, listing, wire
from service.games.canasta import families as families_
from service.games.canasta import moves as mv
from tests.games.canasta_positions import GAME, deck_codes, position

UNBOUNDED = 10**9
KEYS = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "W")


# --- a family's rule, as the schema states it ----------------------------------------------------


def rank(code):
    return "JK" if code == "JK" else code[:-1]


def counts(cards):
    """A group's (naturals, twos, jokers)."""
    twos = sum(1 for c in cards if rank(c) == "2")
    jokers = cards.count("JK")
    return len(cards) - twos - jokers, twos, jokers


def is_member(family, move):
    """Whether the wire ``move`` is one the family's rule builds."""
    if move["type"] != family["type"] or move["seat"] != family["seat"]:
        return False
    laid = [] if family["top"] is None else [(family["top"], move["top_cards"])]
    if family["top"] is None and move["type"] == "take_pile":
        return False
    groups = {g["rank"]: g for g in family["groups"]}
    extra = move["melds"]
    if family["top"] is None and not extra:
        return False
    if len({g["rank"] for g in extra}) != len(extra) or any(g["rank"] not in groups for g in extra):
        return False
    laid += [(groups[g["rank"]], g["cards"]) for g in extra]
    points, cards, canastas, twos, jokers = family["top_card_points"] if family["top"] else 0, 0, 0, 0, 0
    for choice, codes in laid:
        naturals, two, joker = counts(codes)
        if not _drawn_from([c for c in codes if rank(c) not in ("2", "JK")], choice["naturals"]):
            return False
        size = len(codes) + (choice is family["top"])
        if naturals < choice["least"] or two + joker > choice["most_wild"] or size < 3:
            return False
        points += naturals * choice["points"] + two * family["two_points"] + joker * family["joker_points"]
        cards, canastas, twos, jokers = cards + len(codes), canastas + (size >= 7), twos + two, jokers + joker
    if twos > len(family["twos"]) or jokers > family["jokers"]:
        return False
    left = family["cards"] - cards
    most = family["cards_left"]["most"]
    return (left >= family["cards_left"]["least"] and (most is None or left <= most)
            and canastas >= family["least_canastas"]
            and (family["least_points"] is None or points >= family["least_points"]))


def _drawn_from(codes, pool):
    remaining = list(pool)
    for code in codes:
        if code not in remaining:
            return False
        remaining.remove(code)
    return True


def build(family, plan):
    """The move of a plan: per chosen group (or None), its naturals, 2s and jokers."""
    twos = list(family["twos"])
    chosen = ([family["top"]] if family["top"] else []) + family["groups"]
    laid = []
    for choice, counts_ in zip(chosen, plan, strict=True):
        if counts_ is not None:
            naturals, two, joker = counts_
            laid.append({"rank": choice["rank"], "cards": choice["naturals"][:naturals] + twos[:two] + ["JK"] * joker})
            del twos[:two]
    move = {"seat": family["seat"], "type": family["type"]}
    if family["top"] is None:
        return {**move, "melds": laid}
    return {**move, "top_cards": laid[0]["cards"], "melds": laid[1:]}


def plans(family):
    """Every way to fill the family's groups, by counts (only for small families)."""
    chosen = ([family["top"]] if family["top"] else []) + family["groups"]
    options = []
    for choice in chosen:
        ways = [] if choice is family["top"] else [None]
        ways += [(n, t, j) for n in range(choice["least"], len(choice["naturals"]) + 1)
                 for t in range(min(choice["most_wild"], len(family["twos"])) + 1)
                 for j in range(min(choice["most_wild"] - t, family["jokers"]) + 1)]
        options.append(ways)
    return itertools.product(*options)


def legal(state, move):
    try:
        check.check(state, GAME.load_move(move))
    except Exception as refusal:  # the refusal is the answer
        return refusal
    return None


# --- positions -----------------------------------------------------------------------------------


def forced(state, seat=None):
    """The listing with the search bound at zero: every multi-group move of rules (2)-(3) as families."""
    seat = state.to_move if seat is None else seat
    moves, families = listing.listing(state, seat, steps=0)
    return moves, [wire.FAMILY.dump(f) for f in families]


def complete_multi(state):
    """The complete listing's multi-group moves of a side without melds (rules 2 and 3)."""
    moves, families = listing.listing(state, state.to_move, steps=UNBOUNDED, plans=UNBOUNDED)
    assert families == []
    found = [GAME.dump_move(m) for m in moves]
    return [m for m in found if (m["type"] == "meld" and len(m["melds"]) >= 2)
            or (m["type"] == "take_pile" and m["melds"])]


def random_position(rng, *, seats, variant, cards, phase, drew="stock", side_score=0, ranks=None):
    """Seat 1 of a side without melds holds ``cards`` random cards (no red threes where they are
    bonus cards), those of ``ranks`` and wild cards first (so that canastas, and going out, can
    be made); in the draw phase the pile's top card matches a pair of them."""
    deck = [c for c in deck_codes(seats) if variant == "seed_13" or c not in ("3D", "3H")]
    rng.shuffle(deck)
    if ranks:
        deck.sort(key=lambda c: (rank(c) not in (*ranks, "2", "JK"), rng.random()))
    hand = deck[:cards]
    deck = deck[cards:]
    rng.shuffle(deck)
    deck = hand + deck
    scores = [0] * (2 if seats in (4, 6) else seats)
    scores[1 % len(scores)] = side_score
    options = {"variant": variant}
    if phase == "play":
        return position(seats=seats, options=options, hands={1: hand}, turn=1, phase="play",
                        turn_info={"drew": drew}, side_scores=scores)
    naturals = [c for c in hand if rank(c) not in ("2", "JK", "3")]
    top = next((c for c in deck[cards:] if naturals and rank(c) == rank(naturals[0])), None)
    pile = [top] if top else []
    pile += [c for c in deck[cards:] if c != top and rank(c) not in ("2", "JK", "3")][:rng.randint(0, 3)]
    return position(seats=seats, options=options, hands={1: hand}, turn=1, phase="draw", pile=pile,
                    pile_frozen=False, side_scores=scores)


TABLES = [(4, "classic"), (6, "classic"), (2, "seed_108"), (3, "seed_13"), (2, "classic")]


@st.composite
def positions(draw, *, most_cards=16):
    seats, variant = draw(st.sampled_from(TABLES))
    rng = random.Random(draw(st.integers(0, 2**32)))
    concentrated = draw(st.sampled_from([None, None, ("K",), ("7", "Q"), ("3", "9", "A")]))
    return random_position(rng, seats=seats, variant=variant, cards=draw(st.integers(6, most_cards)),
                           phase=draw(st.sampled_from(["play", "draw"])),
                           side_score=draw(st.sampled_from([0, 0, 1500, 3000, -100])), ranks=concentrated)


# --- the tests -----------------------------------------------------------------------------------


@given(positions(), st.randoms(use_true_random=False))
def test_every_move_a_family_builds_is_legal(state, rng):
    seat = state.to_move
    for family in listing.listing(state, seat, steps=0)[1]:
        wired = wire.FAMILY.dump(family)
        found = GAME.dump_move(families_.witness(state, family))
        assert is_member(wired, found) and legal(state, found) is None, (wired, found)
        every = list(itertools.islice(plans(wired), 5_000))
        for plan in every[:200] + rng.sample(every, k=min(len(every), 200)):
            move = build(wired, plan)
            if is_member(wired, move):
                assert legal(state, move) is None, (wired, move)


@given(positions(most_cards=14))
def test_every_multi_group_move_of_the_complete_listing_is_a_family_move(state):
    _, families = forced(state)
    for move in complete_multi(state):
        assert any(is_member(f, move) for f in families), move


@given(positions(most_cards=12))
def test_a_family_is_listed_exactly_when_it_has_a_move(state):
    """Against a brute force over every way to fill the groups (small hands only)."""
    seat = state.to_move
    search = listing.Search(0)
    if state.phase == "play":
        list(listing.meld_moves(state, seat, search))
    else:
        listing.pile_takes(state, seat, search)
    listed = [wire.FAMILY.dump(f) for f in listing.listing(state, seat, steps=0)[1]]
    for family in map(wire.FAMILY.dump, search.families):
        has_move = any(is_member(family, move) and legal(state, move) is None
                       for move in (build(family, plan) for plan in plans(family)))
        assert (family in listed) == has_move, family


@given(positions(most_cards=14))
def test_any_take_agrees_with_the_complete_search(state):
    if state.phase != "draw":
        return
    full = any(accepts(check.check, state, m) for m in listing.pile_takes(state, 1, listing.Search(UNBOUNDED, UNBOUNDED)))
    assert listing.any_take(state, 1) == full


# the largest hands: bounded listings, whatever the search would have found

LARGE = [(cards, phase, seed) for cards in (30, 40, 45, 90) for phase in ("play", "draw") for seed in (1, 2)]


@pytest.mark.parametrize(("cards", "phase", "seed"), LARGE, ids=[f"{c}-{p}-{s}" for c, p, s in LARGE])
def test_large_hands_list_a_bounded_answer(cards, phase, seed):
    state = random_position(random.Random(seed), seats=6, variant="classic", cards=cards, phase=phase)
    moves, families = listing.listing(state, 1)
    answer = orjson.dumps({"moves": [GAME.dump_move(m) for m in moves],
                           "families": [wire.FAMILY.dump(f) for f in families]})
    assert len(moves) + len(families) <= 2_000 and len(answer) <= 300_000
    for family in families:
        assert families_.witness(state, family) is not None


def test_a_listing_past_the_bound_answers_families_instead_of_its_multi_group_moves():
    state = random_position(random.Random(7), seats=6, variant="classic", cards=40, phase="play")
    moves, families = listing.listing(state, 1)
    assert [f.kind for f in families] == ["meld"] and families[0].least_points == 50
    assert all(len(m.melds) == 1 for m in moves if isinstance(m, mv.Meld))
    small = random_position(random.Random(7), seats=4, variant="classic", cards=11, phase="play")
    assert listing.listing(small, 1)[1] == []
