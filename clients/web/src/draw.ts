// The table as a seat (or a spectator) sees it, drawn from the rules' view of it, and its moves
// as buttons: the same drawing for a hand against the computer (main.ts) and at a table of
// several people (friends.ts). What a click chooses goes to the seat's ``play``.
import { back, face, suitSign } from "./cards";
import { type GameDetail, type Json, type Listing, type Wire, isObject } from "./api";
import { type Family, builder } from "./families";
import { byId, el, lang, words } from "./page";
import { fieldName, number } from "./words";

/** A seat at a table, as the drawing needs it. */
export interface Seated {
  detail: GameDetail;
  /** The seat the page plays; null: a spectator's page. */
  seat: number | null;
  /** How many seats the table has. */
  seats: number;
  /** The seat's view, as the rules answer it. */
  view: Wire;
  toMove: number | null;
  /** What the page calls a seat ("You", "Seat 2 (computer)"). */
  name(seat: number): string;
  /** A move the person chose by a click. */
  play(move: Wire): void;
}

export function cardsOf(value: Json | undefined): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

function isCard(current: Seated, value: Json): value is string {
  return typeof value === "string" && value in current.detail.card_names;
}

function cardNode(current: Seated, code: string): SVGSVGElement {
  return face(code, current.detail.card_names[code] ?? code, lang);
}

function seatName(current: Seated, seat: number): string {
  return current.name(seat);
}

// --- where each seat sits -------------------------------------------------------------------------

/** The places around the table, by how many seats it has: the page's seat (a spectator's: seat 1)
 * at the bottom, the next seat in play on its left, partners across. */
const PLACES: Record<number, string[]> = {
  2: ["b", "t"],
  3: ["b", "l", "r"],
  4: ["b", "l", "t", "r"],
  5: ["b", "l", "tl", "tr", "r"],
  6: ["b", "l", "tl", "t", "tr", "r"],
};

function placeOf(current: Seated, seat: number): string {
  const n = current.seats;
  const relative = (seat - (current.seat ?? 0) + n) % n;
  return PLACES[n]?.[relative] ?? "t";
}

/** The teams of a table whose seats play in teams of two or more (Kozel, Canasta of four or six). */
function teamsOf(current: Seated): number[][] {
  const teams = current.view["teams"];
  if (!Array.isArray(teams)) return [];
  const lists = teams.map((team) => Array.isArray(team) ? team.filter((seat): seat is number => typeof seat === "number") : []);
  return lists.some((team) => team.length > 1) ? lists : [];
}

function teamOf(current: Seated, seat: number): number | null {
  const index = teamsOf(current).findIndex((team) => team.includes(seat));
  return index < 0 ? null : index;
}

/** A team as people say it: «Команда 1 (Вы, Место 3)». */
function teamName(current: Seated, team: number): string {
  const members = teamsOf(current)[team] ?? [];
  return `${words.team(team)} (${members.map((seat) => seatName(current, seat)).join(", ")})`;
}

// --- the table ----------------------------------------------------------------------------------

/** The table as ``current``'s seat sees it (its view, drawn), and its moves (``listing``) as buttons. */
export function drawTable(current: Seated, listing: Listing): void {
  const view = current.view;
  byId("hints").replaceChildren();
  const felt = byId("felt");
  felt.dataset["seats"] = String(current.seats);
  const boxes = Array.from({ length: current.seats }, (_, seat) => seatBox(current, seat));
  byId("middle").replaceChildren(...middle(current));
  felt.replaceChildren(...boxes, byId("middle"));
  drawScoreboard(current);
  byId("notes").replaceChildren(...notes(current).map((said) => el("p", {}, said)));
  renderHand(current, cardsOf(view["hand"]), listing.moves);
  renderFamilies(current, listing.families);
}

/** A seat at its place: who, their team, whether they deal or play now, their cards face down, and
 * what lies in front of them (declared cards, melds, red threes). */
function seatBox(current: Seated, seat: number): HTMLElement {
  const view = current.view;
  const mine = seat === current.seat;
  const classes = ["seat", mine ? "mine" : "other", current.toMove === seat ? "to-move" : ""].filter(Boolean);
  const box = el("div", { class: classes.join(" "), "data-seat": String(seat), "data-place": placeOf(current, seat) });
  const head = el("div", { class: "name" }, el("strong", {}, seatName(current, seat)));
  const team = teamOf(current, seat);
  if (team !== null) head.append(el("span", { class: "badge team" }, words.team(team)));
  if (view["dealer"] === seat) head.append(el("span", { class: "badge" }, words.dealer));
  if (current.toMove === seat) head.append(el("span", { class: "badge move" }, words.toPlay));
  box.append(head);
  const active = view["active"];
  if (Array.isArray(active) && !active.includes(seat)) box.append(el("div", { class: "note" }, words.sittingOut));
  const sizes = Array.isArray(view["hand_sizes"]) ? view["hand_sizes"] : [];
  const size = Number(sizes[seat] ?? 0);
  if (!mine && size > 0) {
    box.append(el("div", { class: "cards backs" }, ...Array.from({ length: Math.min(size, 8) }, () => back(words.backOf(seat)))),
               el("div", { class: "count" }, words.cards(size)));
  }
  box.append(...inFront(current, seat));
  return box;
}

/** What lies on the table in front of a seat: Bezique's declared cards, Canasta's red threes and its
 * team's melds (in front of the team's first seat as this page places them). */
function inFront(current: Seated, seat: number): HTMLElement[] {
  const view = current.view;
  const shown: HTMLElement[] = [];
  const exposed = view["exposed"];
  const declared = Array.isArray(exposed) ? exposed[seat] : undefined;
  if (Array.isArray(declared) && declared.length) {
    shown.push(el("div", { class: "zone declared" }, el("div", { class: "label" }, words.declared),
                  el("span", { class: "cards small" }, ...declared.filter(isObject).map((entry) => exposedNode(current, entry)))));
  }
  const threes = view["red_threes"];
  const mineThrees = Array.isArray(threes) ? cardsOf(threes[seat]) : [];
  if (mineThrees.length) {
    shown.push(el("div", { class: "zone threes" }, el("div", { class: "label" }, words.redThrees),
                  el("span", { class: "cards small" }, ...mineThrees.map((code) => cardNode(current, code)))));
  }
  const melds = view["melds"];
  if (Array.isArray(melds)) {
    const teams = Array.isArray(view["teams"]) ? view["teams"] : [];
    const side = teams.findIndex((team) => Array.isArray(team) && team.includes(seat));
    const team = teams[side];
    const members = Array.isArray(team) ? team.filter((member): member is number => typeof member === "number") : [seat];
    const first = [...members].sort((a, b) => relative(current, a) - relative(current, b))[0];
    const laid = melds[side];
    if (first === seat && isObject(laid) && Object.keys(laid).length) {
      shown.push(el("div", { class: "zone melds" }, el("div", { class: "label" }, words.melds),
        el("div", { class: "meld-row" }, ...Object.entries(laid).map(([rank, cards]) =>
          el("span", { class: "meld", title: words.meld(rank) }, el("span", { class: "cards small stacked" },
            ...cardsOf(cards).map((code) => cardNode(current, code))), el("small", {}, words.cards(cardsOf(cards).length)))))));
    }
  }
  return shown;
}

function relative(current: Seated, seat: number): number {
  return (seat - (current.seat ?? 0) + current.seats) % current.seats;
}

/** A declared card of Bezique's, and what a wild card stands for; its declarations in its title. */
function exposedNode(current: Seated, entry: Wire): Node {
  const card = typeof entry["card"] === "string" ? entry["card"] : "";
  const as = entry["as"];
  const tags = Array.isArray(entry["tags"]) ? entry["tags"].filter((tag): tag is string => typeof tag === "string") : [];
  const node = el("span", { class: "placed", title: tags.map((tag) => kindName(current, tag)).join(", ") },
                  isCard(current, card) ? cardNode(current, card) : "");
  if (typeof as === "string" && as !== card && isCard(current, as)) node.append(el("small", {}, `= ${current.detail.card_names[as] ?? ""}`));
  return node;
}

/** The middle of the table: the stock with the trump turned under it, the trick by who played
 * each card, the discard pile. */
function middle(current: Seated): Node[] {
  const view = current.view;
  const parts: Node[] = [];
  const deck = el("div", { class: "deck" });
  const stock = view["stock_size"] ?? view["undealt_size"];
  if (typeof stock === "number" && stock > 0) {
    deck.append(el("div", { class: "stock" }, back(words.stock), el("small", { class: "count" }, words.stockCards(stock))));
  }
  if (typeof view["trump_card"] === "string" && isCard(current, view["trump_card"])) {
    deck.append(el("div", { class: "turned" }, cardNode(current, view["trump_card"]), el("small", {}, words.turnedTrump)));
  }
  const turned = cardsOf(view["turned"]);
  if (turned.length) {
    deck.append(el("div", { class: "turned" }, el("span", { class: "cards small" }, ...turned.map((code) => cardNode(current, code))),
                   el("small", {}, words.turnedForTrump)));
  }
  const trump = view["trump_suit"] ?? view["trump"];
  if (typeof trump === "string" && suitSign(trump) !== trump) {
    deck.append(el("div", { class: `trump-suit ${trump === "H" || trump === "D" ? "red" : "black"}` }, `${words.trump}: `, el("span", { class: "sign" }, suitSign(trump))));
  }
  if (deck.childNodes.length) parts.push(deck);
  const trick = trickNode(current, view["trick"] ?? null);
  if (trick !== null) parts.push(trick);
  const pile = cardsOf(view["pile"]);
  if (Array.isArray(view["pile"])) {
    const top = pile[pile.length - 1];
    parts.push(el("div", { class: "pile" }, el("div", { class: "label" }, words.pile),
      top !== undefined && isCard(current, top) ? cardNode(current, top) : el("div", { class: "empty-pile" }),
      el("small", { class: "count" }, words.pileCards(pile.length))));
  }
  return parts;
}

/** The trick: each card at the side of the table of the seat that played it; in Bura the cards a
 * seat played together, face down when so thrown, and who takes the trick so far. */
function trickNode(current: Seated, trick: Json): HTMLElement | null {
  const plays: { seat: number; cards: string[]; note: string }[] = [];
  let winning: number | null = null;
  if (Array.isArray(trick)) {
    for (const play of trick.filter(isObject)) {
      const card = play["card"];
      if (typeof play["seat"] !== "number" || typeof card !== "string") continue;
      const as = play["as"];
      const note = typeof as === "string" && as !== card ? `= ${current.detail.card_names[as] ?? ""}` : "";
      plays.push({ seat: play["seat"], cards: [card], note });
    }
  } else if (isObject(trick) && Array.isArray(trick["plays"])) {
    for (const play of trick["plays"].filter(isObject)) {
      if (typeof play["seat"] !== "number") continue;
      const note = play["face_down"] === true ? words.faceDown : "";
      plays.push({ seat: play["seat"], cards: cardsOf(play["cards"]), note });
    }
    winning = typeof trick["winning_seat"] === "number" ? trick["winning_seat"] : null;
  }
  if (!plays.length) return null;
  const node = el("div", { class: "trick", "data-seats": String(current.seats) });
  for (const play of plays) {
    node.append(el("div", { class: "play", "data-place": placeOf(current, play.seat), "data-seat": String(play.seat) },
      el("span", { class: "cards small overlap" }, ...play.cards.filter((code) => isCard(current, code)).map((code) => cardNode(current, code))),
      ...(play.note ? [el("small", {}, play.note)] : [])));
  }
  if (winning !== null && plays.length > 1) node.append(el("small", { class: "winning" }, words.takes(seatName(current, winning))));
  return node;
}

// --- the score ----------------------------------------------------------------------------------

/** A row of a scoreboard: a seat, or a team. */
interface Row {
  name: string;
  seats: number[];
}

/** The rows a list of ``length`` values stands for: one per seat, or one per team. */
function rowsFor(current: Seated, length: number): Row[] | null {
  if (length === current.seats) return Array.from({ length }, (_, seat) => ({ name: seatName(current, seat), seats: [seat] }));
  const teams = Array.isArray(current.view["teams"]) ? current.view["teams"] : [];
  if (teams.length === length) {
    return teams.map((team, index) => {
      const seats = Array.isArray(team) ? team.filter((seat): seat is number => typeof seat === "number") : [];
      return { name: seats.length > 1 ? teamName(current, index) : seatName(current, seats[0] ?? index), seats };
    });
  }
  return null;
}

/** What the view counts per seat or team, as a scoreboard shows it: a number per row (a list's
 * length where the view holds the cards or tricks themselves). */
const VIEW_SCORES: [string, "number" | "length" | "cards"][] = [
  ["scores", "number"], ["side_scores", "number"], ["points", "number"], ["card_points", "number"],
  ["bonus_points", "number"], ["tricks_won", "length"], ["won_sizes", "number"], ["won", "cards"],
];

function drawScoreboard(current: Seated): void {
  const view = current.view;
  const columns: { label: string; values: Json[] }[] = [];
  let rows: Row[] | null = null;
  for (const [field, how] of VIEW_SCORES) {
    const value = view[field];
    const label = fieldName(field, lang);
    if (!Array.isArray(value) || label === null) continue;
    if (field === "won" && Array.isArray(view["won_sizes"])) continue;
    const found = rowsFor(current, value.length);
    if (found === null || (rows !== null && rows.length !== found.length)) continue;
    rows = found;
    const values = value.map((item) => how === "number" ? (typeof item === "number" ? item : null)
      : Array.isArray(item) ? (how === "cards" ? cardsOf(item).length || item.length : item.length) : null);
    columns.push({ label: how === "cards" ? fieldName("won_sizes", lang) ?? label : label, values });
  }
  byId("scoreboard").replaceChildren(...(rows === null ? [] : [scoreTable(current, words.scoreboard, rows, columns, new Set())]));
}

function scoreTable(current: Seated, title: string, rows: Row[], columns: { label: string; values: Json[] }[],
                    winners: Set<number>): HTMLElement {
  return el("table", { class: "scoreboard" }, el("caption", {}, title),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, words.who), ...columns.map((column) => el("th", { scope: "col" }, column.label)))),
    el("tbody", {}, ...rows.map((row, index) => el("tr", {
      class: [row.seats.includes(current.seat ?? -1) ? "mine" : "", winners.has(index) ? "winner" : ""].join(" ").trim(),
    }, el("th", { scope: "row" }, row.name, winners.has(index) ? el("span", { class: "star", title: words.winner }, " ★") : ""),
      ...columns.map((column) => el("td", {}, shownNumber(column.values[index] ?? null)))))));
}

function shownNumber(value: Json): string {
  return typeof value === "number" ? number(value, lang) : "—";
}

/** A hand's score and the match's, as scoreboards: every count per seat or team the page has a
 * word for (Canasta's sides by their parts), the winners starred. */
export function scoreNode(current: Seated, hand: Json, match: Json): HTMLElement {
  const node = el("div", { class: "scores" });
  for (const [title, part] of [[words.score, hand], [words.match, match]] as const) {
    if (!isObject(part)) continue;
    const columns: { label: string; values: Json[] }[] = [];
    let rows: Row[] | null = null;
    const sides = part["sides"];
    if (Array.isArray(sides) && sides.every(isObject)) {
      rows = rowsFor(current, sides.length);
      const keys = Object.keys(sides[0] ?? {});
      for (const key of keys) {
        const label = fieldName(key, lang);
        if (label !== null) columns.push({ label, values: sides.map((side) => isObject(side) ? side[key] ?? null : null) });
      }
    }
    for (const [key, value] of Object.entries(part)) {
      const label = fieldName(key, lang);
      if (label === null || !Array.isArray(value) || !value.every((item) => item === null || typeof item === "number")) continue;
      const found = rowsFor(current, value.length);
      if (found === null || (rows !== null && rows.length !== found.length)) continue;
      rows = found;
      columns.push({ label, values: value });
    }
    if (rows === null || !columns.length) continue;
    const winners = new Set<number>();
    const winner = part["winner"];
    const seats = rows;
    const index = (seat: number) => seats.findIndex((row) => row.seats.includes(seat));
    if (typeof winner === "number") winners.add(winner);
    if (Array.isArray(part["winners"])) for (const seat of part["winners"]) if (typeof seat === "number") winners.add(index(seat));
    if (Array.isArray(part["hand_winners"])) for (const seat of part["hand_winners"]) if (typeof seat === "number") winners.add(index(seat));
    node.append(scoreTable(current, title, rows, columns, winners));
  }
  return node;
}

/** What the rules keep that matters to a player now, said in a sentence. */
function notes(current: Seated): string[] {
  const view = current.view;
  const said: string[] = [];
  const by = (field: string, say: (you: boolean, name: string) => string) => {
    const seat = view[field];
    if (typeof seat === "number") said.push(say(seat === current.seat, seatName(current, seat)));
  };
  by("stock_closed_by", words.stockClosed);
  by("first_to_66", words.firstTo66);
  by("named_by", words.trumpNamedBy);
  if (view["pile_frozen"] === true) said.push(words.pileFrozen);
  const lost = view["qc_captured_team"];
  if (typeof lost === "number") said.push(words.queenLost(teamsOf(current).length ? teamName(current, lost) : words.team(lost)));
  const jack = view["bezique_jack"];
  if (typeof jack === "string" && isCard(current, jack)) said.push(words.beziqueJack(current.detail.card_names[jack] ?? ""));
  const received = view["received_trump"];
  if (typeof received === "string" && isCard(current, received)) said.push(words.receivedTrump(current.detail.card_names[received] ?? ""));
  return said;
}

/** The hand: a card is a button when a legal move plays it; moves with choices or without
 * cards are buttons of their own. */
function renderHand(current: Seated, hand: string[], moves: Wire[]): void {
  const byCard = new Map<string, Wire[]>();
  for (const listed of moves) for (const code of cardsOf(listed["cards"])) byCard.set(code, [...(byCard.get(code) ?? []), listed]);
  const played = new Set<string>();
  const cards = hand.map((code) => {
    const using = byCard.get(code) ?? [];
    const single = using.filter((listed) => cardsOf(listed["cards"]).length === 1);
    const button = el("button", { type: "button", class: "card-button", "data-card": code }, cardNode(current, code));
    if (!using.length) {
      button.disabled = true;
    } else if (single.length === 1 && using.length === 1 && single[0] !== undefined) {
      const only = single[0];
      played.add(code);
      button.addEventListener("click", () => current.play(only));
    } else {  // the card's moves are offered, and the card shown pressed until one is chosen
      button.addEventListener("click", () => {
        for (const other of document.querySelectorAll("#hand .card-button")) other.setAttribute("aria-pressed", "false");
        button.setAttribute("aria-pressed", "true");
        choose(current, using);
      });
    }
    return button;
  });
  byId("hand").replaceChildren(...cards);
  const others = moves.filter((listed) => cardsOf(listed["cards"]).length !== 1 || !played.has(cardsOf(listed["cards"])[0] ?? ""));
  byId("moves-label").textContent = moves.length ? words.moves : "";
  choose(current, others.filter((listed) => !cardsOf(listed["cards"]).length || cardsOf(listed["cards"]).length > 1));
}

/** The moves to choose from, by type: what the type does said once, then a button for each move
 * showing what it plays (a move of no values is a button saying what it does). */
function choose(current: Seated, moves: Wire[]): void {
  const byType = new Map<string, Wire[]>();
  for (const listed of moves) byType.set(String(listed["type"]), [...(byType.get(String(listed["type"])) ?? []), listed]);
  byId("moves").replaceChildren(...[...byType].map(([type, listed]) => {
    const buttons = listed.map((one) => {
      const values = moveValues(current, one);
      const button = el("button", { type: "button", class: "move", "data-move": type },
                        values.childNodes.length ? values : moveSaid(current, type));
      button.addEventListener("click", () => current.play(one));
      return button;
    });
    const shown = listed.some((one) => moveValues(current, one).childNodes.length);
    return el("div", { class: "move-group" }, ...(shown ? [el("span", { class: "move-type" }, moveSaid(current, type))] : []), ...buttons);
  }));
}

/** Each family: a number per count it leaves open, what the choice still lacks, and a button that
 * plays the move once it lacks nothing. */
function renderFamilies(current: Seated, families: Family[]): void {
  const section = byId("families");
  section.replaceChildren();
  if (!families.length) return;
  section.append(el("h3", {}, words.build));
  families.forEach((family, index) => {
    const built = builder(family);
    const groupName = (group: number) => {
      const shape = built.groups[group];
      if (shape === undefined) return "";
      if (shape.size !== null) return `${words.group(shape.key)} (${words.cards(shape.size)})`;
      return shape.top ? words.topGroup(words.meld(shape.key)) : words.meld(shape.key);
    };
    const inputs = built.counts.map((count, n) => el("input", {
      type: "number", min: String(count.least), max: String(count.most), value: String(count.least),
      id: `family-${index}-${n}`, "data-group": String(count.group), "data-count": count.kind,
    }));
    const lacking = el("ul", { class: "unmet", "aria-live": "polite" });
    const play = el("button", { type: "button", class: "move" }, words.play);
    const choice = () => inputs.map((input) => Number(input.value));
    const check = () => {
      const unmet = built.unmet(choice());
      lacking.replaceChildren(...unmet.map((item) => el("li", {}, words.unmet(item, groupName))));
      play.disabled = unmet.length > 0;
    };
    const groups = built.groups.map((_, group) => el("div", { class: "group" }, el("div", { class: "label" }, groupName(group)),
      ...built.counts.flatMap((count, n) => count.group !== group ? [] : [el("label", { for: `family-${index}-${n}` },
        el("span", { class: "cards tiny" }, ...countCards(current, count.table, count.kind === "twos" || count.kind === "jokers" ? count.cards.slice(0, 1) : count.cards)),
        ` ${words.counts[count.kind]} `, inputs[n] ?? "")])));
    for (const input of inputs) input.addEventListener("input", check);
    play.addEventListener("click", () => current.play(built.move(choice())));
    const kind = family.type === "declare" ? `: ${kindName(current, family.kind)} × ${family.multiplicity}` : "";
    section.append(el("fieldset", { class: "family", "data-family": family.type },
      el("legend", {}, moveLabel(current, { type: family.type }), kind), ...groups, lacking, play));
    check();
  });
}

/** The cards a count takes from: a table source's exposed cards by their ids, else its cards. */
function countCards(current: Seated, ids: number[], cards: string[]): SVGSVGElement[] {
  if (!ids.length) return cards.filter((code) => isCard(current, code)).map((code) => cardNode(current, code));
  const exposed = current.view["exposed"];
  const mine = Array.isArray(exposed) && current.seat !== null ? exposed[current.seat] : undefined;
  const shown = Array.isArray(mine) ? mine.filter(isObject) : [];
  return ids.flatMap((id) => {
    const card = shown.find((entry) => entry["id"] === id)?.["card"];
    return typeof card === "string" && isCard(current, card) ? [cardNode(current, card)] : [];
  });
}

/** What a value of `kind` is, in the game's words. */
function kindName(current: Seated, kind: string): string {
  const said = current.detail.descriptions.kinds[kind];
  if (said === undefined) return "";  // never a code
  return (said.split(":")[0] ?? said).replace(/\.$/, "");  // its name, before what it is made of
}

/** What a move type does, without its rule citation. */
function moveSaid(current: Seated, type: string): string {
  return (current.detail.descriptions.moves[type] ?? type).replace(/\s*\(§[^)]*\)/g, "").replace(/\.$/, "");
}

/** A move's values as a player reads them (its cards, suit, declaration…), without its type and
 * seat; a value the page has no words for is left out, never shown as a code. */
function moveValues(current: Seated, listed: Wire): HTMLElement {
  const values = el("span", { class: "move-values" });
  const add = (node: Node | string) => {
    if (values.childNodes.length) values.append(" ");
    values.append(node);
  };
  for (const [key, value] of Object.entries(listed)) {
    if (key === "type" || key === "seat" || value === null || value === false) continue;
    if (key === "suit" && typeof value === "string") add(suitSign(value) !== value ? suitSign(value) : value === "by_last" ? words.byLast : "");
    else if (key === "kind" && typeof value === "string") add(kindName(current, value));
    else if (key === "multiplicity" && typeof value === "number") { if (value > 1) add(`× ${number(value, lang)}`); }
    else if (key === "exposed_id" && typeof value === "number") add(exposedCard(current, value));
    else if (key === "marriage" && value === true) add(words.withMarriage);
    else if (key === "mode" && typeof value === "string") add(words.modes[value] ?? "");
    else if (key === "as" && typeof value === "string" && isCard(current, value)) add(el("span", { class: "inline" }, "=", cardNode(current, value)));
    else if (key === "rank" && typeof value === "string") add(words.meld(value));
    else if (Array.isArray(value) && !value.length) continue;
    else {
      const node = inlineNode(current, value);
      if (node.textContent !== "" || node.childNodes.length) add(node);
    }
  }
  return values;
}

export function moveLabel(current: Seated, listed: Wire): Node {
  const label = el("span", { class: "move-label" }, moveSaid(current, String(listed["type"])));
  const values = moveValues(current, listed);
  if (values.childNodes.length) label.append(" ", values);
  return label;
}

/** An exposed card of this seat, by its id. */
function exposedCard(current: Seated, id: number): Node {
  return el("span", { class: "cards tiny" }, ...countCards(current, [id], []));
}

/** A move's value on one line: cards drawn small, a group (a meld: its rank and cards) together. */
function inlineNode(current: Seated, value: Json): Node {
  if (isCard(current, value)) return cardNode(current, value);
  if (Array.isArray(value)) return el("span", { class: "inline" }, ...value.map((item) => inlineNode(current, item)));
  if (isObject(value) && isCard(current, value["card"] ?? null)) {  // a card, and what a wild card stands for
    const { card, as } = value;
    const shown = [inlineNode(current, card ?? null)];
    if (typeof as === "string" && as !== card) shown.push(document.createTextNode("="), inlineNode(current, as));
    return el("span", { class: "inline" }, ...shown);
  }
  if (isObject(value)) return el("span", { class: "inline group" }, moveValues(current, value));
  if (typeof value === "boolean") return document.createTextNode(value ? words.yes : words.no);
  if (typeof value === "number") return document.createTextNode(number(value, lang));
  return document.createTextNode("");
}

/** ``event`` (one of the rules' events) on top of the log: the sentence the service wrote for
 * this reader (its `text`). */
export function logEvent(current: Seated, event: Wire): HTMLElement {
  const type = String(event["type"]);
  const text = typeof event["text"] === "string" ? event["text"]
    : (current.detail.descriptions.events[type] ?? "").replace(/\s*\(§[^)]*\)/g, "");
  const line = el("li", { "data-event": type }, text);
  if (typeof event["seat"] === "number") line.dataset["seat"] = String(event["seat"]);
  byId("log").prepend(line);
  return line;
}
