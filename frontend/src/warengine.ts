// WarEngine page: the figure designer (Troop Builder V2.1) and the force builder (Force
// Builder V2.1). Every value offered comes from the ruleset's tables (GET
// /api/warengine/tables); every cost and limit from the server (POST
// /api/warengine/figures/cost and /forces/cost). Drafts are kept in localStorage.
import { $, api, ApiFailure, debounce, el, status } from "./common.js";
import { StoredDocs } from "./stored.js";

interface Row { value: string; points: number; class: string | null }
interface Table { name: string; rows: Row[]; max_by_type: Record<string, string> }
interface Named { name: string; cost: number; line: number }
interface Tables {
  types: { code: string; name: string; points: number; max_tweak_points: number; max_hero_points: number; slots: number }[];
  movement: Table; defense: Table; mental: Table; control_radius: Table; range: Table; attack_value: Table;
  area_effect: Record<string, string>;
  area_effect_types: { code: string; name: string }[];
  personal_tweaks: Named[]; weapon_tweaks: Named[]; unit_tweaks: Named[]; special_powers: Named[];
}
type Data = Record<string, unknown>;
interface Violation { where: string; field: string; explanation: string; fix: string; rule: string }
interface FigureCheck { figure: Data; cost: { points: number; tweak_points: number }; card: string; itemised: string; violations: Violation[] }
interface UnitDraft { name: string; members: { figure: string; count: number }[]; tweaks: string[] }
interface ForceDraft {
  name: string; renown: number; force: number; figures: Record<string, Data>; units: UnitDraft[];
  /** The stored force this draft was opened from or saved as, and the version it was at. */
  stored?: string | null; version?: number | null;
}
interface StoredForce extends ForceCheck { name: string; version: number; force: Data }
interface ForceSummary { name: string; renown: number; force: number; figures: number; version: number }
interface ForceCheck {
  force: Data;
  cost: Record<string, number | unknown>;
  figures: Record<string, number>;
  violations: Violation[];
}

const FIGURE_KEY = "warbench.warengine.figure";
const FORCE_KEY = "warbench.warengine.force";
const form = $<HTMLFormElement>("we-figure");
let tables: Tables;
let example: ForceDraft;
let figure: Data = { name: "New Figure", type: "T", tweaks: [], weapons: [] };
/** Which Shapechanger form the form fields edit: 0 is the figure itself, k its `forms[k - 1]`
 * (004 L1613-1615: a Shapechanger is built as two or more figures; Hero Points belong to the
 * combined figure, so they stay on the first form). */
let formIndex = 0;
let force: ForceDraft = { name: "My Force", renown: 500, force: 1000, figures: {}, units: [] };

function message(err: unknown): string {
  return err instanceof ApiFailure ? err.body.detail : String(err);
}

function options(select: HTMLSelectElement, rows: { value: string; label: string }[], value: string): void {
  select.replaceChildren(...rows.map((r) => el("option", r.label, { value: r.value })));
  select.value = value;
}

function tableOptions(t: Table): { value: string; label: string }[] {
  return t.rows.map((r) => ({ value: r.value, label: `${r.value} (${r.points} pts${r.class ? `, ${r.class}` : ""})` }));
}

function chips(ul: HTMLElement, list: string[], costs: Named[], onChange: () => void): void {
  ul.replaceChildren();
  list.forEach((name, i) => {
    const cost = costs.find((c) => c.name === name)?.cost;
    const li = el("li", cost === undefined ? name : `${name} ${cost >= 0 ? "+" : ""}${cost}`);
    const x = el("button", "×", { type: "button", "aria-label": `Remove ${name}` });
    x.addEventListener("click", () => { list.splice(i, 1); onChange(); });
    li.appendChild(x);
    ul.appendChild(li);
  });
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.map(String) : [];
}

// ------------------------------------------------------------------ figure designer

function field(name: string): HTMLInputElement | HTMLSelectElement {
  return form.querySelector(`[name="${name}"]`) as HTMLInputElement | HTMLSelectElement;
}

function forms(): Data[] {
  if (!Array.isArray(figure.forms)) figure.forms = [];
  return figure.forms as Data[];
}

/** The form the fields edit (the figure itself unless another Shapechanger form is chosen). */
function current(): Data {
  const list = forms();
  if (formIndex > list.length) formIndex = 0;
  return formIndex === 0 ? figure : list[formIndex - 1];
}

function showFigure(): void {
  const f = current();
  field("name").value = String(f.name ?? "");
  for (const [name, t] of [["mv", tables.movement], ["df", tables.defense], ["mn", tables.mental], ["cr", tables.control_radius]] as const) {
    options(field(name) as HTMLSelectElement, tableOptions(t), String(f[name] ?? t.rows[0].value));
  }
  options(field("type") as HTMLSelectElement, tables.types.map((t) => ({ value: t.code, label: `${t.code} ${t.name} (${t.points} pts)` })), String(f.type ?? "T"));
  field("hero_points").value = String(figure.hero_points ?? 0);
  renderForms();
  renderTweaks();
  renderWeapons();
}

/** The Shapechanger forms bar: one tab per form, add and remove (shown while the figure has
 * the Shapechanger edge or forms). */
function renderForms(): void {
  const box = $("we-forms");
  const list = forms();
  const shape = strings(figure.tweaks).includes("Shapechanger");
  box.hidden = !shape && !list.length;
  const tabs = $("we-form-tabs");
  tabs.replaceChildren();
  [figure, ...list].forEach((f, k) => {
    const b = el("button", `Form ${k + 1}: ${String(f.name ?? "")}`, { type: "button", role: "tab", "aria-selected": String(k === formIndex), "data-form": String(k) });
    b.addEventListener("click", () => { readForm(); formIndex = k; showFigure(); });
    tabs.appendChild(b);
  });
  const remove = $<HTMLButtonElement>("we-form-remove");
  remove.disabled = formIndex === 0;
  $("we-form-note").textContent = formIndex === 0
    ? "The first form carries the Hero Points of the combined figure; it costs its dearest form (line 1615)."
    : `Editing form ${formIndex + 1}; Hero Points belong to the first form.`;
  field("hero_points").disabled = formIndex !== 0;
}

function addForm(): void {
  readForm();
  const base = structuredClone(figure);
  delete base.forms;
  delete base.hero_points;
  base.tweaks = strings(base.tweaks).filter((t) => t !== "Shapechanger");
  base.name = `${String(figure.name)} (form ${forms().length + 2})`;
  forms().push(base);
  formIndex = forms().length;
}

function renderTweaks(): void {
  const f = current();
  const list = strings(f.tweaks);
  f.tweaks = list;
  chips($("we-tweaks"), list, tables.personal_tweaks, () => { tweaksChanged(); changed(); });
}

/** After the first form's edges change: Shapechanger added makes a second form (a copy to
 * change), removed drops the other forms. */
function tweaksChanged(): void {
  const shape = strings(figure.tweaks).includes("Shapechanger");
  if (shape && !forms().length) {
    addForm();
    status("Shapechanger: a second form was added, a copy of the first to change (line 1615).");
  } else if (!shape && forms().length && formIndex === 0) {
    figure.forms = [];
    status("Shapechanger removed: the other forms were dropped.");
  }
  showFigure();
}

function weaponRows(): Data[] {
  const f = current();
  if (!Array.isArray(f.weapons)) f.weapons = [];
  return f.weapons as Data[];
}

function renderWeapons(): void {
  const box = $("we-weapons");
  box.replaceChildren();
  weaponRows().forEach((w, i) => box.appendChild(weaponCard(w, i)));
}

const PROFILE_KEYS = ["range", "av", "ae", "aet", "power"];

/** Multiprofile (004 L1807-1813) added to a weapon: its characteristics and other tweaks move
 * into a first profile and a second profile is added (a copy to change). */
function toMultiprofile(w: Data): void {
  if (Array.isArray(w.profiles) && w.profiles.length) return;
  const first: Data = { name: `${String(w.name ?? "Weapon")} (1)` };
  for (const k of PROFILE_KEYS) if (w[k] !== undefined && w[k] !== null) { first[k] = w[k]; delete w[k]; }
  first.tweaks = strings(w.tweaks).filter((t) => t !== "Multiprofile");
  if (first.range === undefined) first.range = "-";
  if (first.av === undefined && first.power === undefined) first.av = "2k2";
  w.tweaks = ["Multiprofile"];
  const second = structuredClone(first);
  second.name = `${String(w.name ?? "Weapon")} (2)`;
  w.profiles = [first, second];
}

/** Multiprofile removed: the first profile becomes the weapon again. */
function fromMultiprofile(w: Data): void {
  const list = Array.isArray(w.profiles) ? (w.profiles as Data[]) : [];
  delete w.profiles;
  const first = list[0];
  if (first === undefined) return;
  for (const k of PROFILE_KEYS) if (first[k] !== undefined && first[k] !== null) w[k] = first[k];
  w.tweaks = [...strings(w.tweaks).filter((t) => t !== "Multiprofile"), ...strings(first.tweaks)];
}

/** The characteristics of a weapon (or of one profile of a Multiprofile weapon). */
function weaponStats(w: Data, label: string): HTMLDivElement {
  const grid = el("div", "", { class: "grid" });
  const pick = (key: string, name: string, rows: { value: string; label: string }[], empty: string | null): void => {
    const select = el("select", "", { "aria-label": `${label} ${name}` });
    const all = empty === null ? rows : [{ value: "", label: empty }, ...rows];
    options(select, all, w[key] === undefined || w[key] === null ? (empty === null ? rows[0].value : "") : String(w[key]));
    select.addEventListener("change", () => {
      if (select.value === "") delete w[key];
      else w[key] = select.value;
      changed();
    });
    grid.appendChild(labelled(name, select));
  };
  pick("range", "Range", tableOptions(tables.range), null);
  pick("av", "AV", tableOptions(tables.attack_value), "no attack value");
  pick("ae", "Area Effect", Object.entries(tables.area_effect).map(([k, v]) => ({ value: k, label: `${k} (x${v})` })), "none");
  pick("aet", "AE type", tables.area_effect_types.map((t) => ({ value: t.code, label: `${t.code} ${t.name}` })), "none");
  pick("power", "Special Power", tables.special_powers.map((p) => ({ value: p.name, label: `${p.name} (+${p.cost})` })), "none");
  return grid;
}

/** A weapon's tweak chips and picker; `onChange` after a tweak is added or removed. */
function tweakRow(w: Data, label: string, onChange: () => void, extra: HTMLElement[] = []): HTMLElement[] {
  const tweaks = strings(w.tweaks);
  w.tweaks = tweaks;
  const ul = el("ul", "", { class: "chips" });
  chips(ul, tweaks, tables.weapon_tweaks, onChange);
  const tweakPick = el("select", "", { "aria-label": `${label} tweak` });
  options(tweakPick, tables.weapon_tweaks.map((t) => ({ value: t.name, label: `${t.name} (${t.cost >= 0 ? "+" : ""}${t.cost})` })), tables.weapon_tweaks[0]?.name ?? "");
  const add = el("button", "Add weapon tweak", { type: "button", "aria-label": `${label}: add weapon tweak` });
  add.addEventListener("click", () => { tweaks.push(tweakPick.value); onChange(); });
  const row = el("div", "", { class: "row" });
  row.append(tweakPick, add, ...extra);
  return [ul, row];
}

function weaponCard(w: Data, i: number): HTMLFieldSetElement {
  const card = el("fieldset", "", { class: "weapon card", "data-index": String(i) });
  const label = `Weapon ${i + 1}`;
  card.appendChild(el("legend", label));
  const name = el("input", "", { value: String(w.name ?? ""), "aria-label": `${label} name`, maxlength: "80" });
  name.addEventListener("input", () => { w.name = name.value; changed(); });
  card.appendChild(labelled("Name", name));
  const multi = (Array.isArray(w.profiles) && w.profiles.length > 0) || strings(w.tweaks).includes("Multiprofile");
  const remove = el("button", "Remove weapon", { type: "button", class: "danger" });
  remove.addEventListener("click", () => { weaponRows().splice(i, 1); renderWeapons(); changed(); });
  const onTweaks = (): void => {
    const now = strings(w.tweaks).includes("Multiprofile");
    if (now && !multi) toMultiprofile(w);
    if (!now && multi) fromMultiprofile(w);
    renderWeapons();
    changed();
  };
  if (!multi) {
    card.appendChild(weaponStats(w, label));
    card.append(...tweakRow(w, label, onTweaks, [remove]));
    return card;
  }
  // 004 L1807-1813: a Multiprofile weapon's characteristics and tweaks are in its profiles
  card.classList.add("multiprofile");
  card.append(...tweakRow(w, label, onTweaks, [remove]));
  if (!Array.isArray(w.profiles)) w.profiles = [];
  const profiles = w.profiles as Data[];
  const box = el("div", "", { class: "profiles" });
  box.appendChild(el("p", "Multiprofile (line 1811): the dearest profile's cost + 5; the figure chooses one profile each time it attacks.", { class: "muted" }));
  profiles.forEach((p, j) => {
    const plabel = `${label} profile ${j + 1}`;
    const pcard = el("fieldset", "", { class: "profile", "data-profile": String(j) });
    pcard.appendChild(el("legend", `Profile ${j + 1}`));
    const pname = el("input", "", { value: String(p.name ?? ""), "aria-label": `${plabel} name`, maxlength: "80" });
    pname.addEventListener("input", () => { p.name = pname.value; changed(); });
    pcard.appendChild(labelled("Name", pname));
    pcard.appendChild(weaponStats(p, plabel));
    const drop = el("button", "Remove profile", { type: "button", class: "danger", "aria-label": `Remove ${plabel}` });
    drop.addEventListener("click", () => { profiles.splice(j, 1); renderWeapons(); changed(); });
    pcard.append(...tweakRow(p, plabel, () => { renderWeapons(); changed(); }, [drop]));
    box.appendChild(pcard);
  });
  const addProfile = el("button", "Add a profile", { type: "button", "aria-label": `${label}: add a profile` });
  addProfile.addEventListener("click", () => {
    const last = profiles[profiles.length - 1];
    const copy: Data = last === undefined ? { range: "-", av: "2k2", tweaks: [] } : structuredClone(last);
    copy.name = `${String(w.name ?? "Weapon")} (${profiles.length + 1})`;
    profiles.push(copy);
    renderWeapons();
    changed();
  });
  box.appendChild(addProfile);
  card.appendChild(box);
  return card;
}

function labelled(text: string, input: HTMLElement): HTMLLabelElement {
  const label = el("label", text);
  label.appendChild(input);
  return label;
}

function readForm(): void {
  const f = current();
  f.name = field("name").value;
  for (const name of ["type", "mv", "df", "mn", "cr"]) f[name] = field(name).value;
  const hp = field("hero_points").value;
  figure.hero_points = hp.trim() !== "" && !Number.isNaN(Number(hp)) ? Number(hp) : hp;
}

/** True once the stored drafts are read (a draft written before that would replace them). */
let draftsLoaded = false;

/** The figure as the form shows it, kept in localStorage. */
function keepFigure(): void {
  if (!draftsLoaded) return;
  readForm();
  localStorage.setItem(FIGURE_KEY, JSON.stringify(figure));
}

let generation = 0;
async function recost(): Promise<void> {
  const mine = ++generation;
  keepFigure();
  const error = $("we-error");
  try {
    const check = await api<FigureCheck>("POST", "/api/warengine/figures/cost", figure);
    if (mine !== generation) return;
    error.hidden = true;
    form.querySelectorAll(".invalid").forEach((n) => n.classList.remove("invalid"));
    $("we-total").textContent = `${check.cost.points} pts`;
    $("we-tweak-points").textContent = `${check.cost.tweak_points} tweak points`;
    $("we-itemised").textContent = check.itemised;
    $("we-card").textContent = check.card;
    $("we-violations").replaceChildren(...check.violations.map((v) => el("li", `${v.where}: ${v.explanation} Fix: ${v.fix} [${v.rule}]`)));
  } catch (err) {
    if (mine !== generation) return;
    error.hidden = false;
    error.textContent = message(err);
    if (err instanceof ApiFailure && err.body.field) {
      form.querySelector(`[data-field="${err.body.field.split(".")[0]}"]`)?.classList.add("invalid");
    }
  }
}

const recostSoon = debounce(() => void recost(), 200);

/** After a change: the draft is kept at once (a reload straight after loses nothing), costed
 * after 200 ms of quiet. */
function changed(): void {
  keepFigure();
  recostSoon();
}

// ------------------------------------------------------------------ force builder

function keyOf(name: string): string {
  const base = name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "figure";
  return base;
}

function renderForce(): void {
  $<HTMLInputElement>("we-force-name").value = force.name;
  $<HTMLInputElement>("we-renown").value = String(force.renown);
  $<HTMLInputElement>("we-force-points").value = String(force.force);
  const figures = $("we-force-figures");
  figures.replaceChildren();
  for (const [key, fig] of Object.entries(force.figures)) {
    const li = el("li", "", { "data-key": key });
    li.appendChild(el("span", `${String(fig.name)} (${String(fig.type)}) `, { class: "figure-name" }));
    li.appendChild(el("span", "", { class: "figure-points muted" }));
    const open = el("button", "Open in the designer", { type: "button" });
    open.addEventListener("click", () => { figure = structuredClone(fig); formIndex = 0; showFigure(); changed(); window.scrollTo(0, 0); });
    const drop = el("button", "Remove", { type: "button", class: "danger" });
    drop.addEventListener("click", () => {
      delete force.figures[key];
      for (const u of force.units) u.members = u.members.filter((m) => m.figure !== key);
      force.units = force.units.filter((u) => u.members.length);
      renderForce();
      forceChanged();
    });
    li.append(open, drop);
    figures.appendChild(li);
  }
  if (!Object.keys(force.figures).length) figures.appendChild(el("li", "No figure yet: design one and add it.", { class: "muted" }));
  const units = $("we-units");
  units.replaceChildren();
  force.units.forEach((u, i) => units.appendChild(unitCard(u, i)));
}

function unitCard(u: UnitDraft, i: number): HTMLFieldSetElement {
  const card = el("fieldset", "", { class: "unit card", "data-index": String(i) });
  card.appendChild(el("legend", `Unit ${i + 1}`));
  const name = el("input", "", { value: u.name, "aria-label": `Unit ${i + 1} name`, maxlength: "80" });
  name.addEventListener("input", () => { u.name = name.value; forceChanged(); });
  card.appendChild(labelled("Name", name));
  const keys = Object.keys(force.figures);
  u.members.forEach((m, j) => {
    const row = el("div", "", { class: "row member" });
    const count = el("input", "", { type: "number", min: "1", value: String(m.count), "aria-label": `Unit ${i + 1} member ${j + 1} count` });
    count.addEventListener("input", () => { m.count = Number(count.value); forceChanged(); });
    const fig = el("select", "", { "aria-label": `Unit ${i + 1} member ${j + 1} figure` });
    options(fig, keys.map((k) => ({ value: k, label: String(force.figures[k].name) })), m.figure);
    fig.addEventListener("change", () => { m.figure = fig.value; forceChanged(); });
    const drop = el("button", "×", { type: "button", "aria-label": "Remove member", class: "danger" });
    drop.addEventListener("click", () => { u.members.splice(j, 1); renderForce(); forceChanged(); });
    row.append(count, fig, drop);
    card.appendChild(row);
  });
  const add = el("button", "Add figures", { type: "button" });
  add.addEventListener("click", () => {
    if (!keys.length) return;
    u.members.push({ figure: keys[0], count: 1 });
    renderForce();
    forceChanged();
  });
  const ul = el("ul", "", { class: "chips" });
  const render = (): void => chips(ul, u.tweaks, tables.unit_tweaks, () => { render(); forceChanged(); });
  render();
  const pick = el("select", "", { "aria-label": `Unit ${i + 1} tweak` });
  options(pick, tables.unit_tweaks.map((t) => ({ value: t.name, label: `${t.name} (${t.cost >= 0 ? "+" : ""}${t.cost})` })), tables.unit_tweaks[0]?.name ?? "");
  const addTweak = el("button", "Add unit tweak", { type: "button" });
  addTweak.addEventListener("click", () => { u.tweaks.push(pick.value); render(); forceChanged(); });
  const remove = el("button", "Remove unit", { type: "button", class: "danger" });
  remove.addEventListener("click", () => { force.units.splice(i, 1); renderForce(); forceChanged(); });
  const row = el("div", "", { class: "row" });
  row.append(add, pick, addTweak, remove);
  card.append(ul, row);
  return card;
}

function forceData(): Data {
  return {
    name: force.name, renown: force.renown, force: force.force, figures: force.figures,
    units: force.units.map((u) => ({ name: u.name, members: u.members, tweaks: u.tweaks })),
  };
}

/** The force as the page shows it, kept in localStorage. */
function keepForce(): void {
  if (!draftsLoaded) return;
  force.name = $<HTMLInputElement>("we-force-name").value;
  force.renown = Number($<HTMLInputElement>("we-renown").value);
  force.force = Number($<HTMLInputElement>("we-force-points").value);
  localStorage.setItem(FORCE_KEY, JSON.stringify(force));
}

let forceGeneration = 0;
async function recostForce(): Promise<void> {
  const mine = ++forceGeneration;
  keepForce();
  const error = $("we-force-error");
  try {
    const check = await api<ForceCheck>("POST", "/api/warengine/forces/cost", forceData());
    if (mine !== forceGeneration) return;
    error.hidden = true;
    const c = check.cost;
    $("we-force-total").textContent = `${String(c.points)} pts`;
    const rows: [string, string][] = [
      ["Points of Renown spent (characters)", `${String(c.renown_spent)} / ${String(c.renown)}`],
      ["Renown unused, added to Force", String(c.renown_unused)],
      ["Points of Force spent", `${String(c.force_spent)} / ${String(c.force_available)}`],
      ["Vehicles and monsters", `${String(c.vehicles_monsters_spent)} / ${String(c.vehicles_monsters_cap)} (half)`],
      ["Hero Points", `${String(c.hero_points)} / ${String(c.hero_point_budget)}`],
    ];
    const table = $("we-spending");
    table.replaceChildren(...rows.map(([k, v]) => {
      const tr = el("tr");
      tr.append(el("td", k), el("td", v, { class: "num" }));
      return tr;
    }));
    document.querySelectorAll<HTMLElement>("#we-force-figures li[data-key]").forEach((li) => {
      const pts = check.figures[li.dataset.key ?? ""];
      const span = li.querySelector(".figure-points");
      if (span) span.textContent = pts === undefined ? "" : `${pts} pts `;
    });
    $("we-force-violations").replaceChildren(...check.violations.map((v) => el("li", `${v.where}: ${v.explanation} Fix: ${v.fix} [${v.rule}]`)));
  } catch (err) {
    if (mine !== forceGeneration) return;
    error.hidden = false;
    error.textContent = message(err);
  }
}

const recostForceSoon = debounce(() => void recostForce(), 200);

/** After a change to the force: kept at once, costed after 200 ms of quiet. */
function forceChanged(): void {
  keepForce();
  recostForceSoon();
}

// ------------------------------------------------------------------ stored forces
// Forces kept in the database like rosters (GET/POST /api/warengine/forces, PUT/DELETE
// /api/warengine/forces/{name}?version=N): a save made on an older version than the stored
// one is refused (409) instead of overwriting someone else's save (stored.ts).

function fromStored(s: StoredForce): ForceDraft {
  const d = s.force;
  const units = (d.units as UnitDraft[] | undefined) ?? [];
  return {
    name: String(d.name), renown: Number(d.renown ?? 0), force: Number(d.force ?? 0),
    figures: (d.figures as Record<string, Data> | undefined) ?? {},
    units: units.map((u) => ({ name: u.name, members: u.members.map((m) => ({ figure: m.figure, count: m.count ?? 1 })), tweaks: u.tweaks ?? [] })),
    stored: s.name, version: s.version,
  };
}

const storedForces = new StoredDocs<StoredForce, ForceSummary>({
  base: "/api/warengine/forces", key: "force", noun: "force", prefix: "we-force",
  data: forceData,
  origin: () => force,
  before: recostForce,
  loaded: (doc) => {
    force = fromStored(doc);
    localStorage.setItem(FORCE_KEY, JSON.stringify(force));
    renderForce();
    void recostForce();
  },
  detached: () => localStorage.setItem(FORCE_KEY, JSON.stringify(force)),
  label: (r) => `${r.name} · ${r.figures} figure profile${r.figures === 1 ? "" : "s"} · v${r.version}`,
});

function savedNote(): void { storedForces.note(); }

function refreshStored(): Promise<void> { return storedForces.refresh(); }

// ------------------------------------------------------------------ wiring

function loadDrafts(): void {
  try {
    const f = JSON.parse(localStorage.getItem(FIGURE_KEY) ?? "null") as Data | null;
    if (f !== null && typeof f === "object") figure = f;
    const g = JSON.parse(localStorage.getItem(FORCE_KEY) ?? "null") as ForceDraft | null;
    if (g !== null && typeof g === "object" && g.figures && Array.isArray(g.units)) force = g;
  } catch {
    localStorage.removeItem(FIGURE_KEY);
  }
}

async function start(): Promise<void> {
  [tables, example] = await Promise.all([
    api<Tables>("GET", "/api/warengine/tables"),
    api<ForceDraft>("GET", "/api/warengine/example"),
  ]);
  for (const u of example.units) u.tweaks = u.tweaks ?? [];
  const pick = $<HTMLSelectElement>("we-example");
  for (const [key, fig] of Object.entries(example.figures)) pick.appendChild(el("option", String(fig.name), { value: key }));
  pick.addEventListener("change", () => {
    const fig = example.figures[pick.value];
    if (fig === undefined) return;
    figure = structuredClone(fig);
    formIndex = 0;
    showFigure();
    changed();
  });
  options($<HTMLSelectElement>("we-tweak-pick"), tables.personal_tweaks.map((t) => ({ value: t.name, label: `${t.name} (${t.cost >= 0 ? "+" : ""}${t.cost})` })), tables.personal_tweaks[0]?.name ?? "");
  loadDrafts();
  showFigure();
  renderForce();
  draftsLoaded = true;
  savedNote();
  void refreshStored();
  void recost();
  void recostForce();
}

form.addEventListener("input", (e) => {
  if ((e.target as HTMLElement).closest("#we-weapons, details")) return;
  changed();
});
form.addEventListener("change", (e) => {
  if ((e.target as HTMLElement).closest("#we-weapons, details")) return;
  changed();
});
$("we-tweak-add").addEventListener("click", async () => {
  await ready;
  readForm();
  const f = current();
  f.tweaks = [...strings(f.tweaks), $<HTMLSelectElement>("we-tweak-pick").value];
  tweaksChanged();
  changed();
});
$("we-form-add").addEventListener("click", async () => {
  await ready;
  addForm();
  showFigure();
  changed();
});
$("we-form-remove").addEventListener("click", async () => {
  await ready;
  if (formIndex === 0) return;
  forms().splice(formIndex - 1, 1);
  formIndex = 0;
  showFigure();
  changed();
});
$("we-add-weapon").addEventListener("click", async () => {
  await ready;
  weaponRows().push({ name: `Weapon ${weaponRows().length + 1}`, range: "-", av: "2k2", tweaks: [] });
  renderWeapons();
  changed();
});
$("we-new").addEventListener("click", async () => {
  await ready;
  figure = { name: "New Figure", type: "T", tweaks: [], weapons: [] };
  formIndex = 0;
  showFigure();
  changed();
});
$("we-figure-export").addEventListener("click", () => {
  readForm();
  $<HTMLTextAreaElement>("we-figure-text").value = JSON.stringify(figure, null, 2);
});
$("we-figure-load").addEventListener("click", async () => {
  await ready;
  const text = $<HTMLTextAreaElement>("we-figure-text").value;
  try {
    figure = JSON.parse(text) as Data;
    formIndex = 0;
  } catch {
    // YAML: the server reads it (POST /api/warengine/figures/cost answers the canonical data).
    status("Only JSON is read here; use “Show the figure as JSON” for the format.");
    return;
  }
  showFigure();
  changed();
});
$("we-to-force").addEventListener("click", async () => {
  await ready;
  readForm();
  let key = keyOf(String(figure.name));
  const existing = Object.entries(force.figures).find(([, f]) => f.name === figure.name);
  if (existing) key = existing[0];
  else for (let n = 2; key in force.figures; n++) key = `${keyOf(String(figure.name))}-${n}`;
  force.figures[key] = structuredClone(figure);
  if (!force.units.some((u) => u.members.some((m) => m.figure === key))) {
    force.units.push({ name: String(figure.name), members: [{ figure: key, count: 1 }], tweaks: [] });
  }
  renderForce();
  forceChanged();
  status(`${String(figure.name)} is in the force`);
});
$("we-add-unit").addEventListener("click", async () => {
  await ready;
  const keys = Object.keys(force.figures);
  if (!keys.length) { status("Add a figure to the force first."); return; }
  force.units.push({ name: `Unit ${force.units.length + 1}`, members: [{ figure: keys[0], count: 1 }], tweaks: [] });
  renderForce();
  forceChanged();
});
$("we-example-force").addEventListener("click", async () => {
  await ready; // the example arrives with the tables (a click before that waits for it)
  force = { ...structuredClone(example), stored: null, version: null };
  savedNote();
  renderForce();
  forceChanged();
});
$("we-clear-force").addEventListener("click", async () => {
  await ready;
  force = { ...force, figures: {}, units: [] };
  renderForce();
  forceChanged();
});
for (const id of ["we-force-name", "we-renown", "we-force-points"]) $(id).addEventListener("input", () => { forceChanged(); });

/** The tables and the example force, loaded once; handlers that need them wait for it. */
const ready: Promise<void> = start();
