// The play lobby: choose a ruleset and a set-up, how to play, start; the secret links of the
// new game are shown once and remembered in this browser (localStorage) so a game resumes.
import { $, api, ApiFailure, el, status } from "./common.js";
import { linkName, remember, remembered } from "./play_store.js";

interface Preset { name: string; setup: unknown }
/** A decision a set-up's rules options may hand to the engine for both players. */
interface EngineChoice { name: string; text: string }
interface RulesetInfo { id: string; version?: string; error?: string; presets: Preset[]; seat_kinds: string[]; modes: string[]; engine_choices?: EngineChoice[] }
interface Created { id: string; seats: string[]; names?: string[]; tokens: Record<string, string>; links: Record<string, string> }
let rulesets: RulesetInfo[] = [];

function current(): RulesetInfo | undefined {
  return rulesets.find((r) => r.id === $<HTMLSelectElement>("ruleset").value);
}

function fillPresets(): void {
  const rs = current();
  const sel = $<HTMLSelectElement>("preset");
  sel.replaceChildren();
  for (const [i, p] of (rs?.presets ?? []).entries()) sel.appendChild(el("option", p.name, { value: String(i) }));
  sel.appendChild(el("option", "my own (JSON below)", { value: "custom" }));
  fillSetup();
}

function fillSetup(): void {
  const rs = current();
  const v = $<HTMLSelectElement>("preset").value;
  const preset = v === "custom" ? undefined : rs?.presets[Number(v)];
  if (preset !== undefined) $<HTMLTextAreaElement>("setup").value = JSON.stringify(preset.setup, null, 1);
  fillSeats();
  fillEngine();
}

/** The set-up as an object, or null when the JSON does not read. */
function setupObject(): Record<string, unknown> | null {
  try {
    const s: unknown = JSON.parse($<HTMLTextAreaElement>("setup").value);
    return s !== null && typeof s === "object" && !Array.isArray(s) ? s as Record<string, unknown> : null;
  } catch {
    return null;
  }
}

/** A box per decision the set-up may hand to the engine, ticked as its `options.automation`
 * says; a tick changes the set-up JSON (the server reads it; the names are the ruleset's). The
 * sample WARSURGE set-ups hand it the casualties: a player who left the "kinds of decision"
 * field empty expecting to pick them was never asked (session 37's walk). */
function fillEngine(): void {
  const choices = current()?.engine_choices ?? [];
  const box = $("engine");
  box.hidden = choices.length === 0;
  const list = $("engine-choices");
  list.replaceChildren();
  const setup = setupObject();
  const options = (setup?.options ?? {}) as Record<string, unknown>;
  const on = Array.isArray(options.automation) ? options.automation.map(String) : [];
  for (const c of choices) {
    const input = el("input", "", { type: "checkbox", value: c.name, "data-engine": c.name });
    input.checked = on.includes(c.name);
    input.disabled = setup === null;
    input.addEventListener("change", () => toggleEngine(c.name, input.checked));
    const label = el("label", "", { class: "engine-choice" });
    label.append(input, el("span", c.text));
    list.appendChild(label);
  }
}

function toggleEngine(name: string, on: boolean): void {
  const setup = setupObject();
  if (setup === null) return;
  const options = (setup.options ?? {}) as Record<string, unknown>;
  const now = Array.isArray(options.automation) ? options.automation.map(String) : [];
  const next = on ? [...now.filter((n) => n !== name), name] : now.filter((n) => n !== name);
  setup.options = { ...options, automation: next };
  $<HTMLTextAreaElement>("setup").value = JSON.stringify(setup, null, 1);
}

/** Each roster's name in the set-up (its ``name``, else its ``player``, as the game page names
 * the seats), or "" when it has none. */
function rosterNames(): string[] {
  try {
    const s = JSON.parse($<HTMLTextAreaElement>("setup").value) as { rosters?: unknown[] };
    return (Array.isArray(s.rosters) ? s.rosters : []).map((r) => {
      const o = (r ?? {}) as { name?: unknown; player?: unknown };
      return String(o.name || o.player || "");
    });
  } catch {
    return [];
  }
}

function rosterCount(): number {
  try {
    const s = JSON.parse($<HTMLTextAreaElement>("setup").value) as { rosters?: unknown[] };
    return Array.isArray(s.rosters) ? s.rosters.length : 2;
  } catch {
    return 2;
  }
}

/** The AI a new player meets first: the scripted player (the CLI's `warbench play` default,
 * docs/ai.md), not the random-legal one listed first; else the first AI kind there is. */
function defaultAi(kinds: string[]): string {
  return kinds.includes("ai:scripted") ? "ai:scripted" : kinds.find((k) => k.startsWith("ai:")) ?? "human";
}

/** An AI kind in short words (docs/ai.md "Player kinds"; a phone's select shows ~18 letters):
 * the weakest and the slowest say so. */
function aiLabel(kind: string): string {
  const [name, level] = kind.slice(3).split(":");
  const shown = name === "automatic" ? "scripted" : name;
  const note = name === "random" ? " (weakest)" : name === "search" ? " (slower)" : "";
  return `AI: ${shown}${level === undefined ? "" : ` ${level}`}${note}`;
}

/** Kinds that are another kind's other name (docs/ai.md "Player kinds": `automatic` is
 * `scripted`, `search` is `search:2`, `tactical` is `tactical:1`): listed once, by the name
 * the list already has, so no player is offered twice (session 33: "AI: scripted" twice). */
const ALIASES: Record<string, string> = { "ai:automatic": "ai:scripted", "ai:search": "ai:search:2", "ai:tactical": "ai:tactical:1" };

/** The kinds to offer in a seat: each player once. */
function offeredKinds(kinds: string[]): string[] {
  return kinds.filter((k) => !(k in ALIASES && kinds.includes(ALIASES[k])));
}

function fillSeats(): void {
  const box = $("seats");
  box.replaceChildren();
  const mode = $<HTMLSelectElement>("mode").value;
  if (mode === "hotseat") return;
  const kinds = current()?.seat_kinds ?? ["human"];
  for (let i = 0; i < rosterCount(); i++) {
    const sel = el("select", "", { name: `seat-${i}`, "data-seat": String(i) });
    for (const k of offeredKinds(kinds)) sel.appendChild(el("option", k === "human" ? "a person" : aiLabel(k), { value: k }));
    sel.value = i === 0 || mode === "network" ? "human" : defaultAi(kinds);
    // the seat says whose it is ("Seat 1: Red"), as its link and the game page will
    const name = rosterNames()[i];
    const label = el("label", name ? `Seat ${i + 1}: ${name}` : `Seat ${i + 1}`);
    label.appendChild(sel);
    box.appendChild(label);
  }
}

function showMine(): void {
  const list = $("my-games");
  list.replaceChildren();
  for (const g of remembered()) {
    const li = el("li");
    li.appendChild(el("span", `${g.ruleset} · ${g.id} · `));
    for (const [label, url] of Object.entries(g.links)) {
      li.appendChild(el("a", linkName(label, g.names), { href: url, "data-link": label }));
      li.appendChild(document.createTextNode(" "));
    }
    list.appendChild(li);
  }
  if (!list.children.length) list.appendChild(el("li", "None yet.", { class: "muted" }));
}

async function copyLink(input: HTMLInputElement, said: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(input.value);
    status(`${said}'s link copied`);
  } catch {
    input.focus();
    input.select();
    status("Select and copy the link (this browser does not let the page copy)");
  }
}

async function start(ev: Event): Promise<void> {
  ev.preventDefault();
  $("new-error").textContent = "";
  let setup: unknown;
  try {
    setup = JSON.parse($<HTMLTextAreaElement>("setup").value);
  } catch (e) {
    $("new-error").textContent = `the set-up is not JSON: ${String(e)}`;
    return;
  }
  const mode = $<HTMLSelectElement>("mode").value;
  const seats = Array.from(document.querySelectorAll<HTMLSelectElement>("#seats select")).map((s) => s.value);
  const seedText = $<HTMLInputElement>("seed").value;
  const automate = $<HTMLInputElement>("automate").value.split(",").map((s) => s.trim()).filter(Boolean);
  try {
    const made = await api<Created>("POST", "/api/play/games", {
      ruleset: $<HTMLSelectElement>("ruleset").value,
      setup,
      mode,
      seats: mode === "hotseat" ? null : seats,
      seed: seedText === "" ? null : Number(seedText),
      automate,
    });
    remember({ id: made.id, ruleset: $<HTMLSelectElement>("ruleset").value, links: made.links, at: new Date().toISOString(), names: made.names });
    const box = $("links");
    box.replaceChildren();
    for (const [label, url] of Object.entries(made.links)) {
      const said = linkName(label, made.names);
      const row = el("label", said);
      const input = el("input", "", { value: url, readonly: "", "data-link": label });
      row.appendChild(input);
      box.appendChild(row);
      const line = el("p", "", { class: "link-actions" });
      // a link is sent to the other player: one tap copies it (selecting a long link in a
      // field on a phone is fiddly; session 37's walk)
      const copy = el("button", "Copy", { type: "button", class: "copy-link", "data-link": label });
      copy.addEventListener("click", () => void copyLink(input, said));
      line.append(copy, el("a", `Open as ${said}`, { href: url, class: "open-link", "data-link": label }));
      box.appendChild(line);
    }
    // links that name this computer (127.0.0.1, the default of `warbench serve`) open on no
    // other device: a player at another computer or a phone was sent a link that cannot work
    const local = ["127.0.0.1", "localhost", "[::1]", "::1"].includes(window.location.hostname);
    const note = $("links-local");
    note.hidden = !(local && mode === "network");
    $("created").hidden = false;
    showMine();
    if (mode !== "network") {
      const first = Object.values(made.links)[0];
      if (first !== undefined) window.location.href = first;
    }
  } catch (e) {
    $("new-error").textContent = e instanceof ApiFailure ? e.body.detail : String(e);
  }
}

async function main(): Promise<void> {
  rulesets = await api<RulesetInfo[]>("GET", "/api/play/rulesets");
  const sel = $<HTMLSelectElement>("ruleset");
  for (const r of rulesets) sel.appendChild(el("option", r.error ? `${r.id} (unavailable)` : r.id, { value: r.id }));
  const wanted = new URLSearchParams(window.location.search).get("ruleset");
  // WARSURGE is the workbench's main game: the lobby opens on it unless ?ruleset= names another
  if (wanted !== null) sel.value = wanted;
  else if (rulesets.some((r) => r.id === "warsurge" && !r.error)) sel.value = "warsurge";
  sel.addEventListener("change", fillPresets);
  $("preset").addEventListener("change", fillSetup);
  $("mode").addEventListener("change", fillSeats);
  $("setup").addEventListener("change", () => { fillSeats(); fillEngine(); });
  $("new-game").addEventListener("submit", (e) => void start(e));
  fillPresets();
  showMine();
  document.body.dataset.ready = "1";
}

void main();
