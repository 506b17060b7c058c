// What every part of the page shares: its address's parameters, its language (the address's
// `lang`, else a table's own, once the page knows it), and the DOM helpers.
import { type Lang, WORDS } from "./words";

export const params = new URLSearchParams(location.search);
/** The service's origin: this page's, unless the address names another (`api`). */
export const apiBase = params.get("api") ?? location.origin;

/** The page's language; live bindings, so that a table's language can be taken when the address
 * does not ask for one (`speak`). */
export let lang: Lang = params.get("lang") === "ru" ? "ru" : "en";
export let words = WORDS[lang];

export function speak(chosen: Lang): void {
  lang = chosen;
  words = WORDS[chosen];
}

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Record<string, string> = {},
                                                          ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  node.append(...children);
  return node;
}

export function byId(id: string): HTMLElement {
  const node = document.getElementById(id);
  if (node === null) throw new Error(`the page has no #${id}`);
  return node;
}

export function selectById(id: string): HTMLSelectElement {
  const node = byId(id);
  if (!(node instanceof HTMLSelectElement)) throw new Error(`#${id} is not a select`);
  return node;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The header in the page's language: its title, and the link to the page in the other one
 * (keeping the address's fragment: a table's link). */
export function labelPage(): void {
  document.documentElement.lang = lang;
  document.title = words.title;
  byId("title").textContent = words.title;
  const other: Lang = lang === "ru" ? "en" : "ru";
  const switcher = byId("language");
  switcher.textContent = words.language;
  switcher.setAttribute("href", `?${new URLSearchParams({ ...Object.fromEntries(params), lang: other })}${location.hash}`);
}

export async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}
