// The table as a seat (or a spectator) sees it, drawn from the rules' view of it, and its moves
// as buttons: the same drawing for a hand against the computer (main.ts) and at a table of
// several people (friends.ts). What a click chooses goes to the seat's ``play``.
import { back, face, suitSign } from "./cards";
import { type GameDetail, type Json, type Listing, type Wire, isObject } from "./api";
import { type Family, builder } from "./families";
import { byId, el, lang, words } from "./page";
import { fieldName } from "./words";

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

/** Fields whose number is a seat (and ``teams``, whose lists' numbers are). */
const SEAT_FIELDS = new Set(["seat", "leader", "first_leader", "trick_winner", "winning_seat", "claimed_by",
                             "stock_closed_by", "named_by", "first_to_66", "turn", "last_taker"]);

/** Any value of a view or a score (``field``: the field it is the value of): cards drawn, seats
 * named, a list with an entry per seat by seat, a trick by its plays, the rest laid out as text. */
export function valueNode(current: Seated, value: Json, field = ""): Node {
  if (isCard(current, value)) return cardNode(current, value);
  if (typeof value === "number" && (SEAT_FIELDS.has(field) || field === "teams")) {
    return document.createTextNode(seatName(current, value));
  }
  if (Array.isArray(value)) {
    const drawn = (item: Json) => isCard(current, item) || (isObject(item) && isCard(current, item["card"] ?? null));
    if (value.length && value.every(drawn)) {
      return el("span", { class: "cards small" }, ...value.map((item) => valueNode(current, item)));
    }
    if (value.length === current.seats && field !== "" && field !== "plays" && field !== "teams") {  // a view's field only
      return el("ul", { class: "list per-seat" }, ...value.map((item, seat) =>
        el("li", {}, el("span", { class: "who" }, `${seatName(current, seat)}: `), valueNode(current, item))));
    }
    const inner = field === "teams" ? field : "";  // a team's entries are seats
    return el("ol", { class: "list", start: "0" }, ...value.map((item) => el("li", {}, valueNode(current, item, inner))));
  }
  if (isObject(value)) {
    const card = value["card"];
    if (card !== undefined && isCard(current, card)) return placedCard(current, card, value);
    if (Array.isArray(value["plays"])) return trickNode(current, value["plays"], value["winning_seat"] ?? null);
    if (typeof value["seat"] === "number" && cardsOf(value["cards"]).length) return playNode(current, value);
    return el("dl", {}, ...Object.entries(value).flatMap(([key, item]) => [
      el("dt", {}, fieldName(key, lang)), el("dd", {}, valueNode(current, item, key))]));
  }
  if (typeof value === "boolean") return document.createTextNode(value ? words.yes : words.no);
  return document.createTextNode(value === null ? "—" : String(value));
}

/** A trick of several cards a play (Bura's, Kozel's): each play, and who takes the trick so far. */
function trickNode(current: Seated, plays: Json[], winning: Json): Node {
  const node = el("div", { class: "plays" }, ...plays.map((play) => valueNode(current, play)));
  if (typeof winning === "number") node.append(el("small", {}, `${fieldName("winning_seat", lang)}: ${seatName(current, winning)}`));
  return node;
}

/** One seat's cards played together, and whether they were beaten. */
function playNode(current: Seated, play: Wire): Node {
  const notes = [typeof play["seat"] === "number" ? seatName(current, play["seat"]) : ""];
  if (play["beat"] === true) notes.push(fieldName("beat", lang));
  if (play["face_down"] === true) notes.push(fieldName("face_down", lang));
  return el("span", { class: "placed" }, el("span", { class: "cards small" }, ...cardsOf(play["cards"]).map((code) => cardNode(current, code))),
            ...notes.map((note) => el("small", {}, note)));
}

/** A card with what the rules say of it where it lies (a trick's card and its seat, an exposed
 * card and the declarations it scored in, a wild card and what it stands for), drawn, not listed. */
function placedCard(current: Seated, card: string, placed: Wire): HTMLElement {
  const notes: string[] = [];
  if (typeof placed["seat"] === "number") notes.push(seatName(current, placed["seat"]));
  const as = placed["as"];
  if (typeof as === "string" && as !== card) notes.push(`${fieldName("as", lang)}: ${current.detail.card_names[as] ?? as}`);
  const tags = placed["tags"];
  if (Array.isArray(tags)) notes.push(...tags.filter((tag) => typeof tag === "string").map((tag) => kindName(current, tag)));
  return el("span", { class: "placed" }, cardNode(current, card), ...notes.map((note) => el("small", {}, note)));
}

const SHOWN_APART = new Set(["game", "seats", "options", "status", "seat", "hand", "to_move", "dealer", "hand_sizes",
                             "trump_card", "trump", "trump_suit", "stock_size", "undealt_size", "trick", "pile", "result"]);
/** What the rules keep to check the next move, which a player does not look at. */
const BOOKKEEPING = new Set(["next_exposed_id", "declared_in_window", "last_declared_after_trick", "turn_index",
                             "turn_info", "visit", "exchange_done", "first_deal", "passes", "ending", "last_taker",
                             "closed_snapshot", "active", "phase", "won_sizes"]);

/** The table as ``current``'s seat sees it (its view, drawn), and its moves (``listing``) as buttons. */
export function drawTable(current: Seated, listing: Listing): void {
  const view = current.view;
  byId("hints").replaceChildren();
  // the other seats: their hands face down
  const sizes = Array.isArray(view["hand_sizes"]) ? view["hand_sizes"] : [];
  byId("opponents").replaceChildren(...sizes.flatMap((size, seat) => seat === current.seat ? [] : [
    el("div", { class: current.toMove === seat ? "opponent to-move" : "opponent" },
       el("div", { class: "name" }, seatName(current, seat)),
       el("div", { class: "cards backs" }, ...Array.from({ length: Math.min(Number(size), 12) }, () => back(words.backOf(seat)))),
       el("div", { class: "count" }, words.cards(Number(size))))]));
  // the middle of the table: trump, stock, trick, pile
  const middle: Node[] = [];
  const trump = view["trump_suit"] ?? view["trump"];
  if (typeof trump === "string") middle.push(el("div", { class: "trump" }, fieldName("trump", lang), ": ", suitSign(trump)));
  if (typeof view["trump_card"] === "string") middle.push(el("div", { class: "pile" }, cardNode(current, view["trump_card"])));
  const stock = view["stock_size"] ?? view["undealt_size"];
  if (typeof stock === "number" && stock > 0) {
    middle.push(el("div", { class: "pile stock" }, back(words.stock), el("span", { class: "count" }, `${words.stock}: ${stock}`)));
  }
  for (const field of ["trick", "pile"]) {
    const value = view[field];
    if (value !== undefined && value !== null && !(Array.isArray(value) && value.length === 0)) {
      middle.push(el("div", { class: `zone ${field}` }, el("div", { class: "label" }, fieldName(field, lang)), valueNode(current, value, field)));
    }
  }
  byId("middle").replaceChildren(...middle);
  // everything else the seat sees, field by field
  byId("details").replaceChildren(...Object.entries(view).filter(([key]) => !SHOWN_APART.has(key) && !BOOKKEEPING.has(key)).map(([key, value]) =>
    el("div", { class: "detail" }, el("span", { class: "label" }, fieldName(key, lang)), valueNode(current, value, key))));
  renderHand(current, cardsOf(view["hand"]), listing.moves);
  renderFamilies(current, listing.families);
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
  return said === undefined ? kind : said.split(":")[0] ?? said;  // its name, before what it is made of
}

/** What a move type does, without its rule citation. */
function moveSaid(current: Seated, type: string): string {
  return (current.detail.descriptions.moves[type] ?? type).replace(/\s*\(§[^)]*\)/g, "").replace(/\.$/, "");
}

/** A move's values (its cards, suit, kind…), without its type and seat. */
function moveValues(current: Seated, listed: Wire): HTMLElement {
  const values = el("span", { class: "move-values" });
  for (const [key, value] of Object.entries(listed)) {
    if (key === "type" || key === "seat" || value === null || value === false) continue;
    if (values.childNodes.length) values.append(" ");
    values.append(key === "suit" && typeof value === "string" ? suitSign(value)
      : key === "kind" && typeof value === "string" ? kindName(current, value)
      : key === "multiplicity" && typeof value === "number" ? `× ${value}`
      : key === "exposed_id" && typeof value === "number" ? exposedCard(current, value) : inlineNode(current, value));
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

/** A move's value on one line: cards drawn small, a group's fields after one another. */
function inlineNode(current: Seated, value: Json): Node {
  if (isCard(current, value)) return cardNode(current, value);
  if (Array.isArray(value)) return el("span", { class: "inline" }, ...value.map((item) => inlineNode(current, item)));
  if (isObject(value) && isCard(current, value["card"] ?? null)) {  // a card, and what a wild card stands for
    const { card, as } = value;
    const shown = [inlineNode(current, card ?? null)];
    if (typeof as === "string" && as !== card) shown.push(document.createTextNode("="), inlineNode(current, as));
    return el("span", { class: "inline" }, ...shown);
  }
  if (isObject(value)) {
    return el("span", { class: "inline group" }, ...Object.entries(value).filter(([, item]) => item !== null)
      .map(([key, item]) => el("span", {}, key === "cards" ? "" : `${fieldName(key, lang)} `, inlineNode(current, item))));
  }
  if (typeof value === "boolean") return document.createTextNode(value ? words.yes : words.no);
  return document.createTextNode(String(value));
}

/** An event's value where its description names the field (`kind`, `points`, `suit`). */
function eventValue(current: Seated, field: string, value: Json | undefined): string | null {
  if (field === "kind" && typeof value === "string") return kindName(current, value);
  if (field === "suit" && typeof value === "string") return suitSign(value);
  if ((field === "to" || field === "seat") && typeof value === "number") return seatName(current, value);
  if (typeof value === "number" || typeof value === "string") return String(value);
  return null;
}

/** ``event`` (one of the rules' events) on top of the log, and its line. */
export function logEvent(current: Seated, event: Wire): HTMLElement {
  const type = String(event["type"]);
  const seat = typeof event["seat"] === "number" ? seatName(current, event["seat"]) : "";
  const told = new Set<string>();
  const said = (current.detail.descriptions.events[type] ?? type).replace(/\s*\(§[^)]*\)/g, "")
    .replace(/`(\w+)`/g, (code, field: string) => {
      const value = eventValue(current, field, event[field]);
      if (value !== null) told.add(field);
      return value ?? code;
    });
  const line = el("li", { "data-event": type }, el("strong", {}, seat ? `${seat}: ` : ""), said);
  const cards = cardsOf(event["cards"]);
  if (cards.length) line.append(" ", el("span", { class: "cards tiny" }, ...cards.map((code) => cardNode(current, code))));
  if (typeof event["points"] === "number" && !told.has("points")) line.append(` (${event["points"]})`);
  byId("log").prepend(line);
  return line;
}

