// Cards drawn as SVG, made for this project: a white card with its rank and suit in the corners
// and its suit large in the middle; a joker's star; the back's lattice. Every card carries its
// name (in the page's language) as its accessible title.

const SVG = "http://www.w3.org/2000/svg";
const SUIT_SIGNS: Record<string, string> = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RED = new Set(["H", "D"]);
/** How a Russian pack prints its court cards: туз, король, дама, валет. */
const RANKS_RU: Record<string, string> = { A: "Т", K: "К", Q: "Д", J: "В" };

export interface Parsed {
  rank: string;
  suit: string | null;
}

export function parsed(code: string): Parsed {
  if (code === "JK") return { rank: "JK", suit: null };
  return { rank: code.slice(0, -1), suit: code.slice(-1) };
}

function element(name: string, attributes: Record<string, string | number>, text?: string): SVGElement {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

function card(classes: string, title: string): SVGSVGElement {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 60 84");
  svg.setAttribute("class", classes);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", title);
  svg.append(element("title", {}, title));
  return svg;
}

/** The face of the card ``code``, named ``name``. */
export function face(code: string, name: string, lang: string): SVGSVGElement {
  const { rank, suit } = parsed(code);
  const colour = suit !== null && RED.has(suit) ? "red" : "black";
  const svg = card(`card ${colour}`, name);
  svg.append(element("rect", { x: 1, y: 1, width: 58, height: 82, rx: 5, class: "card-face" }));
  if (suit === null) {
    svg.append(element("text", { x: 30, y: 52, "text-anchor": "middle", "font-size": 34, class: "joker" }, "★"));
    if (lang !== "ru") svg.append(element("text", { x: 6, y: 16, "font-size": 11, class: "joker" }, "JK"));
    return svg;
  }
  const shown = lang === "ru" ? RANKS_RU[rank] ?? rank : rank;
  const sign = SUIT_SIGNS[suit] ?? suit;
  svg.append(element("text", { x: 5, y: 15, "font-size": 13, "font-weight": 700 }, shown));
  svg.append(element("text", { x: 5, y: 28, "font-size": 12 }, sign));
  svg.append(element("text", { x: 55, y: 78, "font-size": 13, "font-weight": 700, "text-anchor": "end" }, shown));
  svg.append(element("text", { x: 30, y: 55, "font-size": 30, "text-anchor": "middle" }, sign));
  return svg;
}

/** A card seen from behind, named ``name`` ("a card of seat 2"). */
export function back(name: string): SVGSVGElement {
  const svg = card("card back", name);
  svg.append(element("rect", { x: 1, y: 1, width: 58, height: 82, rx: 5, class: "card-back" }));
  svg.append(element("rect", { x: 6, y: 6, width: 48, height: 72, rx: 3, class: "card-lattice" }));
  return svg;
}

export function suitSign(suit: string): string {
  return SUIT_SIGNS[suit] ?? suit;
}
