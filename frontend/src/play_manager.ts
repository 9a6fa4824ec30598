// The Play Manager: a WARSURGE game on a physical table. Every change is one operation sent to
// the server (stored as one step: undo, history and resume work as for games); the values and
// the winner by §2.2 step 8 come from the server. The Dice Generator calls /api/dice/roll.
import { $, api, ApiFailure, ApiError, bookNames, el, reach } from "./common.js";

interface Status { name: string; turns: number | null }
interface Unit {
  id: number; side: number; name: string; points: number | null; hp_per_model: number; hp: number[];
  removed: boolean[]; loc: string; statuses: Status[]; uses: Record<string, number>; value?: number;
}
interface Side { name: string; team: string | null; roster_points: number | null; cp: number }
interface Table { turn: number; phase: string; turn_master: number | null; hide_value: boolean; over: boolean; sides: Side[]; units: Unit[] }
interface State {
  id: string; table: Table; phases: string[]; steps: number; can_undo: boolean;
  standings: { values?: number[]; teams?: Record<string, number>; winner?: string | null; hidden?: boolean; rule: string };
  history: { step: number; text: string; undone: boolean }[];
}

const KEY = "warbench.play.tables";
let tableId = "";
let token = "";
let state: State | null = null;
let rosterChoices: { example: string[]; saved: string[] } = { example: [], saved: [] };

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json", "X-Play-Token": token };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await reach(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data: unknown = await response.json();
  if (!response.ok) {
    const err = data as Partial<ApiError>;
    throw new ApiFailure(response.status, { detail: String(err.detail ?? response.statusText), field: err.field ?? null, error: String(err.error ?? "") });
  }
  return data as T;
}

/** A roster to start from, and the team it plays in (§3.3; empty: none). */
function rosterPick(i: number): HTMLDivElement {
  const box = el("div", "", { class: "roster-choice" });
  const label = el("label", `Roster ${i + 1}`);
  const sel = el("select", "", { class: "roster-pick" });
  for (const n of rosterChoices.example) sel.appendChild(el("option", `${n} (example)`, { value: JSON.stringify({ source: "example", name: n }) }));
  for (const n of rosterChoices.saved) sel.appendChild(el("option", `${n} (saved)`, { value: JSON.stringify({ source: "saved", name: n }) }));
  sel.selectedIndex = Math.min(i + (rosterChoices.example.indexOf("skirmish_a") >= 0 ? rosterChoices.example.indexOf("skirmish_a") : 0), sel.options.length - 1);
  label.appendChild(sel);
  const team = el("label", "Team");
  team.appendChild(el("input", "", { class: "team-pick", maxlength: "40", placeholder: "none (§3.3)", "aria-label": `Roster ${i + 1} team` }));
  box.append(label, team);
  return box;
}

// The new-table form (each roster and its team) is kept in this browser as it is filled in, so a
// refresh before "Start" keeps the names typed.
const DRAFT = "warbench.play.tables.draft";

function saveDraft(): void {
  const rows = Array.from(document.querySelectorAll<HTMLElement>(".roster-choice")).map((box) => ({
    roster: box.querySelector<HTMLSelectElement>(".roster-pick")?.value ?? "",
    team: box.querySelector<HTMLInputElement>(".team-pick")?.value ?? "",
  }));
  localStorage.setItem(DRAFT, JSON.stringify({ rows, hide: $<HTMLInputElement>("hide-value").checked }));
}

function restoreDraft(): void {
  let draft: { rows?: { roster: string; team: string }[]; hide?: boolean } = {};
  try {
    draft = JSON.parse(localStorage.getItem(DRAFT) ?? "{}") as typeof draft;
  } catch {
    return;
  }
  const rows = Array.isArray(draft.rows) ? draft.rows.slice(0, 12) : [];
  while ($("roster-picks").children.length < rows.length) $("roster-picks").appendChild(rosterPick($("roster-picks").children.length));
  rows.forEach((r, i) => {
    const box = $("roster-picks").children[i];
    const sel = box.querySelector<HTMLSelectElement>(".roster-pick");
    if (sel !== null && Array.from(sel.options).some((o) => o.value === r.roster)) sel.value = r.roster;
    const team = box.querySelector<HTMLInputElement>(".team-pick");
    if (team !== null && typeof r.team === "string") team.value = r.team;
  });
  if (typeof draft.hide === "boolean") $<HTMLInputElement>("hide-value").checked = draft.hide;
}

async function op(o: Record<string, unknown>): Promise<void> {
  try {
    state = await call<State>("POST", `/api/play/tables/${tableId}/ops`, { op: o });
    render();
  } catch (e) {
    window.alert(e instanceof ApiFailure ? e.body.detail : String(e));
  }
}

function render(): void {
  if (state === null) return;
  const t = state.table;
  $("table").hidden = false;
  $("pm-turn").textContent = String(t.turn);
  $("pm-phase").textContent = t.over ? "game over" : t.phase;
  // the button toggles: once the game is over it takes the ending back (session 33: it still
  // read "End the game")
  $("pm-end").textContent = t.over ? "Resume the game" : "End the game";
  const tm = $<HTMLSelectElement>("pm-tm");
  tm.replaceChildren(el("option", "—", { value: "" }));
  t.sides.forEach((s, i) => tm.appendChild(el("option", s.name, { value: String(i) })));
  tm.value = t.turn_master === null ? "" : String(t.turn_master);
  $<HTMLInputElement>("pm-hide").checked = t.hide_value;
  $<HTMLButtonElement>("pm-undo").disabled = !state.can_undo;
  const st = state.standings;
  const box = $("pm-standings");
  box.replaceChildren();
  if (st.hidden) {
    box.appendChild(el("p", "Roster values are hidden until the game ends.", { class: "muted" }));
  } else {
    t.sides.forEach((s, i) => box.appendChild(el("p", `${s.name}${s.team ? ` (team ${s.team})` : ""}: ${st.values?.[i] ?? 0} of ${s.roster_points} pts on the Battlefield`)));
    if (t.sides.some((s) => s.team)) {
      // §3.3: a team counts as one player; its value is its players' values together
      const teams = el("p", "", { id: "pm-teams" });
      teams.textContent = `Teams: ${Object.entries(st.teams ?? {}).map(([k, v]) => `${k} ${v} pts`).join(" · ")}`;
      box.appendChild(teams);
    }
    const lead = st.winner === null ? "Draw" : `${st.winner} ${t.over ? "wins" : "leads"}`;
    box.appendChild(el("p", `${lead} · ${bookNames(st.rule)}`, { class: "ok", id: "pm-winner" }));
  }
  const cps = el("div", "", { class: "row" });
  t.sides.forEach((s, i) => {
    // a side's count and its −/+ kept on one line (the row wraps between sides, never
    // between a count and its "+": at 390 px Blue's "+" wrapped alone, session 33)
    const group = el("span", "", { class: "pm-cp", "data-side": String(i) });
    group.appendChild(el("span", `${s.name}: ${s.cp} CP`));
    for (const [sign, d] of [["−", -1], ["+", 1]] as [string, number][]) {
      const b = el("button", sign, { type: "button", class: "danger", "aria-label": `${sign} Command Point for ${s.name}` });
      b.addEventListener("click", () => void op({ op: "cp", side: i, count: Math.max(0, s.cp + d) }));
      group.appendChild(b);
    }
    cps.appendChild(group);
  });
  box.appendChild(cps);
  const units = $("pm-units");
  units.replaceChildren();
  for (const u of t.units) {
    const div = el("div", "", { class: `pm-unit ${u.loc === "destroyed" ? "destroyed" : ""}`, "data-unit": String(u.id) });
    const head = el("div");
    head.appendChild(el("strong", `${t.sides[u.side]?.name}: ${u.name}`));
    head.appendChild(el("span", ` · ${u.loc}${u.points !== null ? ` · ${u.value ?? 0}/${u.points} pts` : ""}`, { class: "muted" }));
    div.appendChild(head);
    const hp = el("div", "", { class: "hp" });
    u.hp.forEach((h, k) => {
      const b = el("button", u.removed[k] ? "✕" : `${h}`, { type: "button", class: u.removed[k] ? "dead" : "", title: `model ${k + 1}: tap −1 HP; at 0 the model is removed`, "data-model": String(k) });
      b.addEventListener("click", () => {
        if (u.removed[k]) void op({ op: "restore", unit: u.id, model: k });
        else if (h > 1) void op({ op: "hp", unit: u.id, model: k, hp: h - 1 });
        // the last HP: one operation (the model removed at 0 HP), one line of history; it was
        // two ("model 1 at 0 HP", "model 1 removed"), and two undos to take back (session 38)
        else void op({ op: "remove", unit: u.id, model: k });
      });
      hp.appendChild(b);
    });
    div.appendChild(hp);
    const tools = el("div", "", { class: "row" });
    const loc = el("select", "", { "aria-label": "where" });
    for (const l of ["reserve", "table", "embarked", "destroyed"]) loc.appendChild(el("option", l, { value: l }));
    loc.value = u.loc;
    loc.addEventListener("change", () => void op({ op: "move_to", unit: u.id, loc: loc.value }));
    tools.appendChild(loc);
    const mark = el("button", "+ marker", { type: "button", class: "danger" });
    mark.addEventListener("click", () => {
      const name = window.prompt("Status or perk marker (e.g. Stunned, Shield I)");
      if (!name) return;
      const turns = window.prompt("For how many Game Turns? (empty: until removed)");
      void op({ op: "status", unit: u.id, name, turns: turns ? Number(turns) : null });
    });
    tools.appendChild(mark);
    // limited uses (a perk or weapon usable N times a game): what is left, − to spend one
    const use = el("button", "+ limited use", { type: "button", class: "danger" });
    use.addEventListener("click", () => {
      const name = window.prompt("Limited use (e.g. Grenade, Heal I)");
      if (!name) return;
      const count = window.prompt("Uses left", "1");
      if (count === null) return;
      void op({ op: "uses", unit: u.id, name, count: Number(count) });
    });
    tools.appendChild(use);
    for (const [name, left] of Object.entries(u.uses)) {
      const chip = el("span", `${name}: ${left} left`, { class: "use", "data-use": name });
      const spend = el("button", "−", { type: "button", class: "danger", "aria-label": `Spend one use of ${name}` });
      spend.disabled = left <= 0;
      spend.addEventListener("click", () => void op({ op: "uses", unit: u.id, name, count: Math.max(0, left - 1) }));
      const more = el("button", "+", { type: "button", class: "danger", "aria-label": `One more use of ${name}` });
      more.addEventListener("click", () => void op({ op: "uses", unit: u.id, name, count: left + 1 }));
      tools.append(chip, spend, more);
    }
    for (const s of u.statuses) {
      const chip = el("button", `${s.name}${s.turns ? ` (${s.turns})` : ""} ✕`, { type: "button", class: "danger", title: "remove the marker" });
      chip.addEventListener("click", () => void op({ op: "clear_status", unit: u.id, name: s.name }));
      tools.appendChild(chip);
    }
    div.appendChild(tools);
    units.appendChild(div);
  }
  const hist = $("pm-history");
  hist.replaceChildren();
  for (const h of state.history.slice().reverse()) {
    const li = el("li", `${h.step}. ${h.text}${h.undone ? " (undone)" : ""}`);
    if (h.undone) li.style.textDecoration = "line-through";
    hist.appendChild(li);
  }
  document.body.dataset.steps = String(state.steps);
}

async function open(id: string, tok: string): Promise<void> {
  tableId = id;
  token = tok;
  state = await call<State>("GET", `/api/play/tables/${id}`);
  render();
  document.body.dataset.ready = "1";
}

async function start(ev: Event): Promise<void> {
  ev.preventDefault();
  $("table-error").textContent = "";
  const rosters = Array.from(document.querySelectorAll<HTMLElement>(".roster-choice")).map((box) => {
    const ref = JSON.parse(box.querySelector<HTMLSelectElement>(".roster-pick")?.value ?? "{}") as Record<string, unknown>;
    const team = box.querySelector<HTMLInputElement>(".team-pick")?.value.trim() ?? "";
    return team ? { ...ref, team } : ref;
  });
  try {
    const made = await api<{ id: string; token: string; link: string }>("POST", "/api/play/tables", { rosters, hide_value: $<HTMLInputElement>("hide-value").checked });
    const mine = JSON.parse(localStorage.getItem(KEY) ?? "[]") as { id: string; link: string }[];
    mine.unshift({ id: made.id, link: made.link });
    localStorage.setItem(KEY, JSON.stringify(mine.slice(0, 20)));
    window.location.hash = `id=${made.id}&t=${made.token}`;
    await open(made.id, made.token);
  } catch (e) {
    $("table-error").textContent = e instanceof ApiFailure ? e.body.detail : String(e);
  }
}

async function roll(): Promise<void> {
  const need = $<HTMLSelectElement>("dice-need").value;
  const r = await api<{ faces: number[]; successes?: number; total: number; seed: number }>("POST", "/api/dice/roll", {
    expr: `${$<HTMLInputElement>("dice-count").value}D6`, need: need === "" ? null : Number(need),
  });
  const list = $("dice-faces");
  list.replaceChildren();
  for (const f of r.faces) list.appendChild(el("li", String(f), { class: need !== "" && f >= Number(need) ? "success" : "" }));
  $("dice-summary").textContent = `${r.successes !== undefined ? `${r.successes} successes · ` : ""}total ${r.total} · seed ${r.seed}`;
}

async function main(): Promise<void> {
  rosterChoices = await api<{ example: string[]; saved: string[] }>("GET", "/api/play/tables/rosters");
  $("roster-picks").appendChild(rosterPick(0));
  $("roster-picks").appendChild(rosterPick(1));
  $("add-roster").addEventListener("click", () => {
    $("roster-picks").appendChild(rosterPick($("roster-picks").children.length));
    saveDraft();
  });
  restoreDraft();
  $("new-table").addEventListener("input", saveDraft);
  $("new-table").addEventListener("change", saveDraft);
  $("new-table").addEventListener("submit", (e) => void start(e));
  $("pm-next").addEventListener("click", () => void op({ op: "next_phase" }));
  $("pm-tm").addEventListener("change", () => {
    const v = $<HTMLSelectElement>("pm-tm").value;
    if (v !== "") void op({ op: "turn_master", side: Number(v) });
  });
  $("pm-hide").addEventListener("change", () => void op({ op: "hide_value", on: $<HTMLInputElement>("pm-hide").checked }));
  $("pm-end").addEventListener("click", () => void op({ op: "end_game", on: !(state?.table.over ?? false) }));
  $("pm-undo").addEventListener("click", () => {
    void call<State>("POST", `/api/play/tables/${tableId}/undo`).then((s) => { state = s; render(); });
  });
  $("dice-roll").addEventListener("click", () => void roll());
  const mine = JSON.parse(localStorage.getItem(KEY) ?? "[]") as { id: string; link: string }[];
  for (const m of mine) $("my-tables").appendChild(el("li")).appendChild(el("a", `table ${m.id}`, { href: m.link }));
  const h = new URLSearchParams(window.location.hash.slice(1));
  const id = h.get("id");
  const tok = h.get("t");
  if (id !== null && tok !== null) await open(id, tok);
  else document.body.dataset.ready = "1";
  window.addEventListener("hashchange", () => {
    const h2 = new URLSearchParams(window.location.hash.slice(1));
    const id2 = h2.get("id");
    const t2 = h2.get("t");
    if (id2 !== null && t2 !== null && id2 !== tableId) void open(id2, t2);
  });
}

void main();
