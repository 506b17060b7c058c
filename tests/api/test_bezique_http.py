"""Bezique over HTTP: a whole hand of every configuration with nothing but deal, legal-moves,
validate and score; a match to its target; the shapes of a move the schema alone cannot refuse;
the longest listing the rules file names, with its families."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tests.games.bezique_positions import position_wire, shown

P = "/v1/games/bezique"


def post(client, path, body):
    answer = client.post(f"{P}/{path}", json=body)
    assert answer.status_code == 200, (path, answer.json)
    return answer.json


def cards_in(state):
    piles = [state["stock"], *state["hands"], *state["won_cards"]]
    piles += [[e["card"] for e in seat] for seat in state["exposed"]]
    piles.append([t["card"] for t in state["trick"]])
    return Counter(c for pile in piles for c in pile)


def play_hand(client, rng, state):
    deck = cards_in(state)
    while state["status"] == "in_progress":
        moves = post(client, "legal-moves", {"state": state})["moves"]
        answer = post(client, "validate", {"state": state, "move": rng.choice(moves)})
        assert answer["legal"]
        state = answer["state"]
        assert cards_in(state) == deck
    return state


@pytest.mark.parametrize("packs", [8, 10])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_whole_hand_of_every_configuration_plays_to_the_end_and_scores(client, packs, players):
    rng = random.Random(f"{packs}-{players}")
    dealt = post(client, "deal", {"seed": f"conf-{packs}-{players}", "players": players,
                                  "options": {"packs": packs}})["state"]
    assert sum(cards_in(dealt).values()) == 20 * packs + 14
    final = play_hand(client, rng, dealt)
    active = len(final["active"])
    assert final["tricks_played"] == (20 * packs + 14 - 18 * active) // active  # §5.3
    scored = post(client, "score", {"state": final})
    assert scored["hand"]["scores"] == final["scores"] == scored["match"]["totals"]
    sitting_out = [s for s in range(players) if s not in final["active"]]
    assert all(final["scores"][s] == 0 for s in sitting_out)


def test_a_match_is_played_to_its_target_with_the_deal_passing_clockwise(client):
    rng, match, options, hands = random.Random(3), None, {"target_score": 150}, 0
    while match is None or not match["over"]:
        body = {"seed": f"match-{hands}", "players": 3, "options": options}
        state = post(client, "deal", {**body, **({"match": match} if match else {})})["state"]
        assert state["dealer"] == (match["next_dealer"] if match else 0)
        assert state["hands"][state["dealer"]] == []  # §2.3: the dealer sits out at three
        before = match["totals"] if match else [0, 0, 0]
        final = play_hand(client, rng, state)
        match = post(client, "score", {"state": final, "match": match})["match"]
        assert match["totals"] == [b + s for b, s in zip(before, final["scores"], strict=True)]
        assert match["next_dealer"] == (state["dealer"] + 1) % 3 == match["sitting_out"]
        hands += 1
    top = max(match["totals"])
    assert top >= 150 and match["winner"] == [match["totals"].index(top)]
    again = client.post(f"{P}/deal", json={"seed": "after", "players": 3, "match": match})
    assert again.status_code == 422 and again.json["errors"][0]["pointer"] == "/match/over"


@pytest.mark.parametrize(("move", "pointer"), [
    ({"type": "play", "seat": 1}, "/move/cards"),
    ({"type": "play", "seat": 1, "cards": ["AS"], "exposed_id": 1}, "/move/exposed_id"),
    ({"type": "declare", "seat": 1, "kind": "four_nines", "from_hand": []}, "/move/kind"),
    ({"type": "declare", "seat": 1, "kind": "bezique", "multiplicity": 0, "from_hand": []},
     "/move/multiplicity"),
])
def test_a_move_of_no_shape_the_game_takes_is_a_422_at_its_field(client, move, pointer):
    state = post(client, "deal", {"seed": "shape"})["state"]
    answer = client.post(f"{P}/validate", json={"state": state, "move": move})
    assert answer.status_code == 422 and answer.content_type == "application/problem+json"
    assert answer.json["errors"][0]["pointer"] == pointer, answer.json


def test_an_inconsistent_state_names_the_field(client):
    state = post(client, "deal", {"seed": "broken"})["state"]
    three = post(client, "deal", {"seed": "broken", "players": 3})["state"]  # the dealer, 0, sits out
    cases = {
        "/hands/0": {**three, "hands": [three["hands"][1][-1:], three["hands"][1][:-1], three["hands"][2]]},
        "/trump_suit": {**state, "trump_suit": "X"},
        "/exposed": {**state, "exposed": [[]]},
        "/stock": {**state, "stock": state["stock"][1:] + state["stock"][:1]},
    }
    for pointer, broken in cases.items():
        answer = client.post(f"{P}/validate", json={"state": broken, "move": {"type": "pass", "seat": 1}})
        assert answer.status_code == 422, pointer
        assert answer.json["errors"][0]["pointer"].startswith(f"/state{pointer}"), (pointer, answer.json)


def bezique_jacks():
    """§4.6's eight jacks: hearts trumps (the bezique jack is JD), ten packs; seat 1 has won a trick
    and holds JC JC JS JD JD JH, both JK and 9H, and on the table eight jacks in four classes (ids
    1-2 JD from beziques, 3-4 JD from a bezique and a quint, 5-6 JD and 7-8 JH from quints)."""
    tags = [["bezique"]] * 2 + [["bezique", "trump_quint"]] * 2 + [["trump_quint"]] * 4
    table = [shown(c, *t) for c, t in zip(["JD"] * 6 + ["JH"] * 2, tags, strict=True)]
    return {"state": position_wire(hands={1: "JC JC JS JD JD JH JK JK 9H"}, exposed={1: table}, phase="declare",
                                   tricks_played=12, leader=1, options={"packs": 10})}


def test_the_longest_listing_the_rules_name_is_answered_with_families(client):
    """§4.6: eight jacks with both wild cards in the hand and eight exposed: the fours of jacks
    m = 1, 2 and 3 (924, 7,448 and 2,536 declarations) are families, the rest is listed."""
    answer = post(client, "legal-moves", bezique_jacks())
    listing, families = answer["moves"], answer["families"]
    assert len(listing) == 76 and len({str(m) for m in listing}) == len(listing)
    assert {"seat": 1, "type": "pass"} in listing
    assert [(f["kind"], f["multiplicity"], f["count"]) for f in families] == [
        ("four_jacks", 1, 924), ("four_jacks", 2, 7448), ("four_jacks", 3, 2536)]
    four = {"seat": 1, "type": "declare", "kind": "four_jacks", "multiplicity": 1,
            "from_hand": [{"card": "JC"}, {"card": "JC"}, {"card": "JD"}, {"card": "JS"}], "from_table": []}
    assert four not in listing
    assert {"card": "JC", "most": 2} in families[0]["slots"][0]["from"], "the family offers two JC"
    assert post(client, "validate", {**bezique_jacks(), "move": four})["legal"]
    wild = {**four, "from_hand": [{"card": "JD"}, {"card": "JK", "as": "JH"}], "from_table": [5, 7]}
    assert {"table": [5, 6], "most": 2} in families[0]["slots"][0]["from"]
    assert post(client, "validate", {**bezique_jacks(), "move": wild})["legal"]
    assert len(client.post(f"{P}/legal-moves", json=bezique_jacks()).data) < 20_000


def test_a_declaration_window_with_too_small_a_stock_is_refused(client):
    """§5.3: the hand ends after the draw that leaves fewer cards than players, so a window (which
    a draw follows) always has a full draw left; a state that says otherwise is a 422, not a 500."""
    final = play_hand(client, random.Random(9), post(client, "deal", {"seed": "window"})["state"])
    leader, other = final["leader"], 1 - final["leader"]
    hands = [list(h) for h in final["hands"]]
    won = [list(w) for w in final["won_cards"]]
    won[leader] += [hands[leader].pop(), hands[other].pop()]
    broken = {**final, "hands": hands, "won_cards": won, "phase": "declare", "status": "in_progress",
              "tricks_played": final["tricks_played"] + 1, "trick_winner": leader, "to_move": leader,
              "declared_in_window": False, "result": None}
    answer = client.post(f"{P}/validate", json={"state": broken, "move": {"type": "pass", "seat": leader}})
    assert answer.status_code == 422 and answer.json["errors"][0]["pointer"] == "/state/stock", answer.json
