// Shared helpers of the workbench pages: typed calls to the JSON API and small DOM helpers.
// No rule is decided here: every number shown comes from the server (STYLE.md principle 15).

/** The body of every 4xx answer (src/warbench/web/errors.py). */
export interface ApiError {
  detail: string;
  field: string | null;
  error: string;
}

export class ApiFailure extends Error {
  constructor(public status: number, public body: ApiError) {
    super(body.detail);
  }
}

/** What a page says when the server does not answer at all (stopped, restarting, the network
 * down): the browser's own error is "TypeError: Failed to fetch" (session 37's walk). */
export const UNREACHABLE = "The server did not answer (stopped or restarting?). Nothing here is lost: "
  + "once it is back, try again.";

/** `fetch`, with no answer at all thrown as an ApiFailure of status 0 saying so in words. */
export async function reach(path: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(path, init);
  } catch {
    throw new ApiFailure(0, { detail: UNREACHABLE, field: null, error: "unreachable" });
  }
}

/** Call the API; a non-2xx answer throws an ApiFailure carrying the message and the field. */
export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const init: RequestInit = { method, headers: { Accept: "application/json" } };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = { ...init.headers, "Content-Type": "application/json" };
  }
  const response = await reach(path, init);
  if (response.status === 204) return undefined as T;
  const data: unknown = await response.json();
  if (!response.ok) {
    const err = data as Partial<ApiError>;
    throw new ApiFailure(response.status, {
      detail: String(err.detail ?? response.statusText),
      field: err.field ?? null,
      error: String(err.error ?? "error"),
    });
  }
  return data as T;
}

/** The rulebooks by their source files (/work/shared/seeds/README.md): a rule shown to a player
 * is cited by its book ("Core Rules §2.1"), not by the file's hash name. */
const BOOKS: Record<string, string> = {
  "001_d3f5e425c5e1196d.txt": "Core Rules",
  "000_94ecc6a4c74d351b.txt": "Perks",
  "004_f4ea5693af0644ce.txt": "The WarEngine 2.1",
  "003_fc239e71486306e1.txt": "Collision",
  "002_bb37dae35014233a.txt": "Godslayer",
};

/** `text` with each source file named by its book, sections and line numbers kept. */
export function bookNames(text: string): string {
  let out = text;
  for (const [file, book] of Object.entries(BOOKS)) {
    out = out.split(`${book} (${file})`).join(book).split(`${book} ${file}`).join(book).split(file).join(book);
  }
  return out;
}

/** The element with this id, typed; throws when the page lacks it. */
export function $<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (el === null) throw new Error(`#${id} missing`);
  return el as T;
}

/** Make an element with text and attributes. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  text = "",
  attrs: Record<string, string> = {},
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text) node.textContent = text;
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

/** Show a short message at the bottom of the screen. */
export function status(message: string): void {
  const node = document.getElementById("status");
  if (node === null) return;
  node.textContent = message;
  window.setTimeout(() => {
    if (node.textContent === message) node.textContent = "";
  }, 3000);
}

/** Call fn at most once per `ms` of quiet (live validation while typing). */
export function debounce<A extends unknown[]>(fn: (...args: A) => void, ms: number): (...args: A) => void {
  let timer: number | undefined;
  return (...args: A) => {
    window.clearTimeout(timer);
    timer = window.setTimeout(() => fn(...args), ms);
  };
}

export function pct(p: number): string {
  return `${(p * 100).toFixed(p < 0.001 && p > 0 ? 3 : 1)}%`;
}

/** A vertical bar chart of a distribution {k: probability} as inline SVG. */
export function barChart(dist: Record<string, number>, label: string): SVGSVGElement {
  const ns = "http://www.w3.org/2000/svg";
  const keys = Object.keys(dist).map(Number).sort((a, b) => a - b);
  const top = Math.max(...keys, 0);
  const max = Math.max(...Object.values(dist), 1e-9);
  const width = 320;
  const height = 150;
  const pad = 18;
  const bw = (width - pad) / (top + 1);
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height + 14}`);
  svg.setAttribute("class", "chart");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  // few bars: each is labelled with its probability, readable without hovering (a phone cannot;
  // session 34, s34-user); the bars leave room for the labels under the caption
  const labelled = top <= 10;
  const room = labelled ? 12 : 0;
  for (let k = 0; k <= top; k++) {
    const p = dist[String(k)] ?? 0;
    const h = (p / max) * (height - pad - room);
    const rect = document.createElementNS(ns, "rect");
    rect.setAttribute("x", String(pad + k * bw + 1));
    rect.setAttribute("y", String(height - h));
    rect.setAttribute("width", String(Math.max(bw - 2, 1)));
    rect.setAttribute("height", String(h));
    const title = document.createElementNS(ns, "title");
    title.textContent = `${k}: ${pct(p)}`;
    rect.appendChild(title);
    svg.appendChild(rect);
    if (labelled && p >= 0.0005) {
      const v = document.createElementNS(ns, "text");
      v.setAttribute("x", String(pad + k * bw + bw / 2));
      v.setAttribute("y", String(height - h - 3));
      v.setAttribute("text-anchor", "middle");
      v.setAttribute("class", "value");
      v.textContent = pct(p);
      svg.appendChild(v);
    }
    if (top <= 20 || k % Math.ceil(top / 20) === 0) {
      const t = document.createElementNS(ns, "text");
      t.setAttribute("x", String(pad + k * bw + bw / 2 - 3));
      t.setAttribute("y", String(height + 11));
      t.textContent = String(k);
      svg.appendChild(t);
    }
  }
  const caption = document.createElementNS(ns, "text");
  caption.setAttribute("x", String(pad));
  caption.setAttribute("y", "10");
  caption.textContent = label;
  svg.appendChild(caption);
  return svg;
}

/** One perk rank as the API describes it (GET /api/perks). */
export interface Perk {
  name: string;
  kind: string;
  family: string;
  activation: string[];
  summary: string;
  section: string;
  rule: string;
  price: string;
}

/** A list item showing a perk's name, activation tags, text, price and rule reference. */
export function perkItem(p: Perk): HTMLLIElement {
  const li = el("li");
  li.appendChild(el("strong", p.name));
  li.appendChild(el("span", ` · ${p.kind}`, { class: "muted" }));
  const tags = el("div", "", { class: "tags" });
  for (const a of p.activation) tags.appendChild(el("span", a));
  li.appendChild(tags);
  li.appendChild(el("p", p.summary));
  li.appendChild(el("div", `Points: ${p.price}`, { class: "price" }));
  li.appendChild(el("div", p.rule, { class: "muted" }));
  return li;
}

/** A unit the pages can pick (GET /api/units). */
export interface UnitListing {
  source: "example" | "saved" | "roster";
  name: string;
  faction: string | null;
  roster: string | null;
  models: number;
  weapons: string[];
}

export interface UnitRef {
  source: "example" | "saved" | "roster" | "inline";
  name?: string;
  faction?: string | null;
  roster?: string | null;
}

/** Fill a <select> with the units to pick, grouped by where they come from (the examples,
 * each faction, each roster's entries); each option's value is a UnitRef as JSON. */
export async function fillUnitSelect(select: HTMLSelectElement): Promise<void> {
  const units = await api<UnitListing[]>("GET", "/api/units");
  select.replaceChildren();
  const groups = new Map<string, HTMLOptGroupElement>();
  for (const u of units) {
    const ref: UnitRef = u.source === "roster"
      ? { source: "roster", name: u.name, roster: u.roster }
      : { source: u.source, name: u.name, faction: u.faction };
    const where = u.source === "example" ? "example" : u.source === "roster" ? `roster ${u.roster ?? ""}` : u.faction ?? "";
    const heading = u.source === "example" ? "Examples (Core Rules §2.3)" : u.source === "roster" ? `Roster: ${u.roster ?? ""}` : `Faction: ${u.faction ?? ""}`;
    let group = groups.get(heading);
    if (group === undefined) {
      group = el("optgroup", "", { label: heading });
      groups.set(heading, group);
      select.appendChild(group);
    }
    group.appendChild(el("option", `${u.name} (${u.models} models, ${where})`, { value: JSON.stringify(ref) }));
  }
}
