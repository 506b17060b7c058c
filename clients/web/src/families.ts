// Moves a listing answers as families (Canasta's melds and takes of several groups, Bezique's
// declarations with many ways to fill them): a family leaves counts open, and the person sets each
// with a number. Its rule (the schema's description of `families`) says which counts make a legal
// move: `unmet` names what a choice still lacks, in the game's own terms, and `move` builds the
// move a choice stands for. No search: checking a choice costs one pass over its counts.
import type { Json, Wire } from "./json";
import type { components } from "./schema";

export type CanastaFamily = components["schemas"]["CanastaFamily"];
export type BeziqueFamily = components["schemas"]["BeziqueFamily"];
export type Family = CanastaFamily | BeziqueFamily;

/** One number the person sets: how many of `cards` a group takes (the first ones). */
export interface Count {
  group: number;
  kind: "naturals" | "twos" | "jokers" | "hand" | "wild" | "table";
  /** The cards it takes from, shown beside it: a source's card, a wild card's nomination. */
  cards: string[];
  /** A table source's exposed cards, by id (the first ones taken). */
  table: number[];
  least: number;
  most: number;
}

/** A group the move lays (Canasta: a meld's rank, the pile's top group first) or a slot it fills
 * (Bezique: exactly `size` cards). */
export interface Group {
  key: string;
  size: number | null;
  top: boolean;
}

export type Unmet =
  | { what: "count"; group: number; have: number; least: number; most: number }
  | { what: "naturals"; group: number; have: number; need: number }
  | { what: "wild"; group: number; have: number; most: number }
  | { what: "group-size"; group: number; have: number }
  | { what: "twos"; have: number; most: number }
  | { what: "jokers"; have: number; most: number }
  | { what: "nothing-laid" }
  | { what: "points"; have: number; need: number }
  | { what: "cards-left"; have: number; least: number; most: number | null }
  | { what: "canastas"; have: number; need: number }
  | { what: "slot"; group: number; have: number; need: number }
  | { what: "from-hand" };

export interface Builder {
  groups: Group[];
  counts: Count[];
  unmet(choice: number[]): Unmet[];
  move(choice: number[]): Wire;
}

export function builder(family: Family): Builder {
  const built = family.type === "declare" ? beziqueBuilder(family) : canastaBuilder(family);
  return { ...built, unmet: (choice) => outside(built.counts, choice) ?? built.unmet(choice) };
}

/** The counts a person typed outside their bounds (or not whole), if any: the move would not be
 * the one the counts say. */
function outside(counts: Count[], choice: number[]): Unmet[] | null {
  const found: Unmet[] = counts.flatMap((count, n) => {
    const have = at(choice, n);
    return Number.isInteger(have) && have >= count.least && have <= count.most ? []
      : [{ what: "count", group: count.group, have, least: count.least, most: count.most }];
  });
  return found.length ? found : null;
}

const at = (choice: number[], index: number): number => choice[index] ?? 0;

// --- Canasta (docs/rules/canasta.md §4.13) -------------------------------------------------------

/** A take lays the `top` group (the pile's top card counts as its first card) and any of `groups`;
 * a meld one or more of `groups`. Each group has its naturals, 2s and jokers set. */
function canastaBuilder(family: CanastaFamily): Builder {
  const chosen = family.top === null ? family.groups : [family.top, ...family.groups];
  const top = family.top !== null;
  const groups: Group[] = chosen.map((group, index) => ({ key: group.rank, size: null, top: top && index === 0 }));
  const counts: Count[] = [];
  chosen.forEach((group, index) => {
    const isTop = top && index === 0;
    const wild = (most: number) => Math.min(group.most_wild, most);
    const candidates: Count[] = [
      { group: index, kind: "naturals", cards: group.naturals, table: [], least: isTop ? group.least : 0, most: group.naturals.length },
      { group: index, kind: "twos", cards: family.twos, table: [], least: 0, most: wild(family.twos.length) },
      { group: index, kind: "jokers", cards: family.jokers ? ["JK"] : [], table: [], least: 0, most: wild(family.jokers) },
    ];
    counts.push(...candidates.filter((count) => count.most > 0));
  });

  /** Per group: its naturals, 2s and jokers in the choice. */
  const laid = (choice: number[]) => chosen.map((_, index) => {
    const of = (kind: Count["kind"]) => counts.reduce((sum, count, n) => count.group === index && count.kind === kind ? sum + at(choice, n) : sum, 0);
    return { naturals: of("naturals"), twos: of("twos"), jokers: of("jokers") };
  });

  return {
    groups,
    counts,
    unmet(choice) {
      const found: Unmet[] = [];
      let points = top ? family.top_card_points : 0;
      let cards = 0, canastas = 0, twos = 0, jokers = 0, any = false;
      laid(choice).forEach((group, index) => {
        const rule = chosen[index];
        const isTop = top && index === 0;
        const size = group.naturals + group.twos + group.jokers;
        if (rule === undefined || (!isTop && size === 0)) return;
        any ||= !isTop;
        const wild = group.twos + group.jokers;
        if (group.naturals < rule.least) found.push({ what: "naturals", group: index, have: group.naturals, need: rule.least });
        if (wild > rule.most_wild) found.push({ what: "wild", group: index, have: wild, most: rule.most_wild });
        const withTop = size + (isTop ? 1 : 0);
        if (withTop < 3) found.push({ what: "group-size", group: index, have: withTop });
        points += group.naturals * rule.points + group.twos * family.two_points + group.jokers * family.joker_points;
        cards += size;
        canastas += withTop >= 7 ? 1 : 0;
        twos += group.twos;
        jokers += group.jokers;
      });
      if (twos > family.twos.length) found.push({ what: "twos", have: twos, most: family.twos.length });
      if (jokers > family.jokers) found.push({ what: "jokers", have: jokers, most: family.jokers });
      if (!top && !any) found.push({ what: "nothing-laid" });
      if (family.least_points !== null && points < family.least_points) {
        found.push({ what: "points", have: points, need: family.least_points });
      }
      const left = family.cards - cards;
      const { least, most } = family.cards_left;
      if (left < least || (most !== null && left > most)) found.push({ what: "cards-left", have: left, least, most });
      if (canastas < family.least_canastas) found.push({ what: "canastas", have: canastas, need: family.least_canastas });
      return found;
    },
    move(choice) {
      const twos = [...family.twos];
      const melds: Wire[] = [];
      laid(choice).forEach((group, index) => {
        const rule = chosen[index];
        const isTop = top && index === 0;
        if (rule === undefined || (!isTop && group.naturals + group.twos + group.jokers === 0)) return;
        const cards = [...rule.naturals.slice(0, group.naturals), ...twos.splice(0, group.twos),
                       ...Array<string>(group.jokers).fill("JK")];
        melds.push({ rank: rule.rank, cards });
      });
      const move: Wire = { seat: family.seat, type: family.type };
      if (!top) return { ...move, melds };
      const [first, ...rest] = melds;
      return { ...move, top_cards: first?.["cards"] ?? [], melds: rest };
    },
  };
}

// --- Bezique (docs/rules/bezique.md §4.6) --------------------------------------------------------

const SUIT_ORDER = "CDHS";
const RANK_ORDER = ["A", "10", "K", "Q", "J", "9"];

/** §4.6's canonical card order: suits C D H S, ranks A 10 K Q J 9. */
function canonical(a: string, b: string): number {
  const suit = SUIT_ORDER.indexOf(a.slice(-1)) - SUIT_ORDER.indexOf(b.slice(-1));
  return suit || RANK_ORDER.indexOf(a.slice(0, -1)) - RANK_ORDER.indexOf(b.slice(0, -1));
}

/** Every slot takes exactly its count from its sources: natural cards of the hand, wild cards
 * nominated as a card, or a class of the seat's exposed cards (its first ids). */
function beziqueBuilder(family: BeziqueFamily): Builder {
  const groups: Group[] = family.slots.map((slot, index) => ({ key: String(index + 1), size: slot.count, top: false }));
  const counts: Count[] = [];
  const sources = family.slots.flatMap((slot, index) => slot.from.map((source) => ({ slot: index, count: slot.count, source })));
  for (const { slot, count, source } of sources) {
    const kind = source.table !== undefined ? "table" : source.card === "JK" ? "wild" : "hand";
    const shown = kind === "wild" ? [source.as ?? "JK"] : kind === "table" ? [] : [source.card ?? ""];
    counts.push({ group: slot, kind, cards: shown, table: source.table ?? [], least: 0, most: Math.min(source.most, count) });
  }

  return {
    groups,
    counts,
    unmet(choice) {
      const found: Unmet[] = [];
      family.slots.forEach((slot, index) => {
        const have = counts.reduce((sum, count, n) => count.group === index ? sum + at(choice, n) : sum, 0);
        if (have !== slot.count) found.push({ what: "slot", group: index, have, need: slot.count });
      });
      const wild = counts.reduce((sum, count, n) => count.kind === "wild" ? sum + at(choice, n) : sum, 0);
      if (wild > family.jokers) found.push({ what: "jokers", have: wild, most: family.jokers });
      if (!counts.some((count, n) => count.kind !== "table" && at(choice, n) > 0)) found.push({ what: "from-hand" });
      return found;
    },
    move(choice) {
      const naturals: string[] = [], wild: string[] = [], table: number[] = [];
      sources.forEach(({ source }, n) => {
        const taken = at(choice, n);
        if (source.table !== undefined) table.push(...source.table.slice(0, taken));
        else if (source.card === "JK") wild.push(...Array<string>(taken).fill(source.as ?? "JK"));
        else naturals.push(...Array<string>(taken).fill(source.card ?? ""));
      });
      const fromHand: Json[] = [...naturals.sort(canonical).map((card) => ({ card })),
                                ...wild.sort(canonical).map((as) => ({ card: "JK", as }))];
      return {
        seat: family.seat, type: "declare", kind: family.kind, multiplicity: family.multiplicity,
        from_hand: fromHand, from_table: table.sort((a, b) => a - b),
      };
    },
  };
}
