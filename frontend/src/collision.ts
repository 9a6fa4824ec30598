// Collision page: the character card designer and the battle-group builder. What the form
// offers comes from the ruleset (GET /api/collision/tables: the stats' ranges, weapon types,
// suits, the glossary with each entry's cost and text); every limit and the printable card
// from the server (POST /api/collision/cards/check and /groups/check: the same readers and
// checks as `warbench collision validate|card`). Drafts are kept in localStorage.
import { $, api, ApiFailure, bookNames, debounce, el, status } from "./common.js";
import { Origin, Stored, StoredDocs, Summary } from "./stored.js";

type Data = Record<string, unknown>;
interface StatField { name: string; min: number | null; max: number | null; default: number | null; hint: string }
interface Entry { name: string; kind: string; cost: string; text: string; source: string }
interface Tables {
  stats: StatField[]; weapon_stats: StatField[]; weapon_types: string[]; suits: string[];
  arcana: string[]; tarot_numbers: { value: number; label: string }[]; max_weapons: number; max_attributes: number; glossary: Entry[];
  weapon_reach_default: string;
}
interface Problem { field: string; message: string; rule: string }
interface CardCheck { valid: boolean; card: Data | null; violations: Problem[]; html: string | null; yaml: string }
interface Report {
  points: number; points_limit: number; cards: number; different_cards: number;
  max_different_cards: number; board: string; deployment_phases: number[];
  violations: { field: string; message: string; rule: string }[];
}
/** A limit one of the group's cards breaks (its member's index, the card's name). */
interface MemberProblem extends Problem { member: number; card: string }
/** `valid` false: a card does not read (no report yet), `card_problems` lists them all. */
interface GroupCheck { valid: boolean; group: Data; report: Report | null; html: string | null; yaml: string; card_problems: MemberProblem[] }
/** A card in the group and its copies (as typed: the server checks the count, L580-617). */
interface Member { card: Data; count: number | string }
interface Group { name: string; points_limit: number; characters: Member[] }

const CARD_KEY = "warbench.collision.card";
const GROUP_KEY = "warbench.collision.group";
const EFFECT_KINDS = ["effect", "status", "term"];
const ABILITY_KINDS = ["action", "reaction"];
const form = $<HTMLFormElement>("co-card");
let tables: Tables;
let examples: { cards: Data[]; groups: Data[] };
let card: Data = blankCard();
const cardOrigin: Origin = { stored: null, version: null };
let group: Group = { name: "My battle group", points_limit: 500, characters: [] };
const groupOrigin: Origin = { stored: null, version: null };
/** The group's cards that do not read, as the last check said (marked in the list). */
let memberProblems: MemberProblem[] = [];

function blankCard(): Data {
  return {
    name: "New Character", points: 50, race: "Human", tarot: { arcana: "minor", suit: "swords", number: 2 },
    restrictions: [], attributes: [],
    stats: { def: 5, arm: 3, tuf: 3, end: 4, mana: 0, comm: 1, move: 3, "s-pow": 0, att: 2, str: 2 },
    weapons: [{ name: "Sword", ec: 1, type: "Mundane", "w-att": 3, "w-pow": 3 }],
    effects: [], abilities: [],
  };
}

function message(err: unknown): string {
  return err instanceof ApiFailure ? bookNames(err.body.detail) : String(err);
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.map(String) : [];
}

function record(v: unknown): Data {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Data) : {};
}

/** A typed number as a number; anything else as typed, for the server to name. */
function num(text: string): unknown {
  const t = text.trim();
  return t !== "" && /^-?\d+$/.test(t) ? Number(t) : t === "" ? undefined : t;
}

function list(text: string): string[] {
  return text.split(",").map((s) => s.trim()).filter((s) => s);
}

function field(name: string): HTMLInputElement | HTMLSelectElement {
  return form.querySelector(`[name="${name}"]`) as HTMLInputElement | HTMLSelectElement;
}

function entry(name: string): Entry | undefined {
  const base = name.replace(/\s*\d+$/, "");
  return tables.glossary.find((e) => e.name === name) ?? tables.glossary.find((e) => e.name === `${base} X` || e.name === base);
}

function entryLabel(e: Entry): string {
  return `${e.name}${e.cost ? ` (${e.cost})` : ""}${e.kind === "reaction" ? " (RE)" : ""}`;
}

function entryText(e: Entry | undefined): string {
  return e === undefined ? "" : `${entryLabel(e)}: ${e.text.replace(/^Cost:\s*\S+\s*/, "")} [${bookNames(e.source)}]`;
}

/** A stat's name as the card prints it: "def" -> "Def", "s-pow" -> "S-Pow", "ec" -> "EC". */
function label(name: string): string {
  return name === "ec" ? "EC" : name.split("-").map((p) => p.charAt(0).toUpperCase() + p.slice(1)).join("-");
}

function chips(ul: HTMLElement, names: string[], onRemove: (i: number) => void): void {
  ul.replaceChildren(...names.map((name, i) => {
    const e = entry(name);
    const li = el("li", e?.cost ? `${name} ${e.cost}` : name, { title: entryText(e) });
    const x = el("button", "×", { type: "button", "aria-label": `Remove ${name}` });
    x.addEventListener("click", () => { onRemove(i); showCard(); cardChanged(); });
    li.appendChild(x);
    return li;
  }));
}

function fillPick(select: HTMLSelectElement, kinds: string[], search = ""): void {
  const needle = search.trim().toLowerCase();
  const rows = tables.glossary.filter((e) => kinds.includes(e.kind)
    && (!needle || e.name.toLowerCase().includes(needle) || e.text.toLowerCase().includes(needle)));
  select.replaceChildren(...rows.map((e) => el("option", entryLabel(e), { value: e.name })));
}

// ------------------------------------------------------------------ the card form

function showCard(): void {
  const tarot = record(card.tarot);
  field("name").value = String(card.name ?? "");
  field("points").value = card.points === undefined ? "" : String(card.points);
  field("race").value = String(card.race ?? "");
  field("arcana").value = String(tarot.arcana ?? "minor");
  field("suit").value = String(tarot.suit ?? tables.suits[0]);
  field("number").value = String(tarot.number ?? 1);
  field("tarot_name").value = String(tarot.name ?? "");
  field("restrictions").value = strings(card.restrictions).join(", ");
  field("attributes").value = strings(card.attributes).join(", ");
  const stats = record(card.stats);
  // a stat left out of the file is its default (S-Pow, Att, Str, Mana and Comm are 0)
  for (const s of tables.stats) field(`stat-${s.name}`).value = String(stats[s.name] ?? s.default ?? "");
  showTarot();
  renderWeapons();
  chips($("co-effects"), strings(card.effects), (i) => { card.effects = strings(card.effects).filter((_, k) => k !== i); });
  chips($("co-abilities"), strings(card.abilities), (i) => { card.abilities = strings(card.abilities).filter((_, k) => k !== i); });
}

function showTarot(): void {
  const major = field("arcana").value === "major";
  form.querySelectorAll<HTMLElement>("label.minor").forEach((l) => { l.hidden = major; });
  form.querySelectorAll<HTMLElement>("label.major").forEach((l) => { l.hidden = !major; });
}

function weapons(): Data[] {
  if (!Array.isArray(card.weapons)) card.weapons = [];
  return card.weapons as Data[];
}

function input(label: string, name: string, value: unknown, attrs: Record<string, string> = {}, hint = ""): HTMLLabelElement {
  const l = el("label", label, { "data-field": name });
  l.appendChild(el("input", "", { name, value: value === undefined || value === null ? "" : String(value), ...attrs }));
  if (hint) l.appendChild(el("small", hint, { class: "hint" }));
  return l;
}

function renderWeapons(): void {
  const box = $("co-weapons");
  box.replaceChildren();
  weapons().forEach((w, i) => {
    const div = el("div", "", { class: "weapon-box", "data-w": String(i) });
    div.appendChild(input("Weapon name", `w${i}-name`, w.name, { maxlength: "60" }));
    const grid = el("div", "", { class: "grid" });
    for (const s of tables.weapon_stats) {
      grid.appendChild(input(label(s.name), `w${i}-${s.name}`, w[s.name],
        { type: "number", inputmode: "numeric", ...(s.min === null ? {} : { min: String(s.min) }), ...(s.max === null ? {} : { max: String(s.max) }) }, s.hint));
    }
    const type = el("label", "Type", { "data-field": `weapons[${i}].type` });
    const sel = el("select", "", { name: `w${i}-type` });
    sel.replaceChildren(...tables.weapon_types.map((t) => el("option", t, { value: t })));
    sel.value = String(w.type ?? "Mundane");
    type.appendChild(sel);
    type.appendChild(el("small", "one type (L356-359)", { class: "hint" }));
    grid.appendChild(type);
    // empty: the card gives none and the model's reach applies (shown, not decided here)
    grid.appendChild(input("Reach", `w${i}-reach`, w.reach, { maxlength: "4", placeholder: `${tables.weapon_reach_default} (the default)` }, "spaces; 4+ is ranged (L326-329)"));
    grid.appendChild(input("Crit", `w${i}-crit`, w.crit, { maxlength: "60", placeholder: "Pow+2, Stun" }, "on a 10 (L281-286)"));
    div.appendChild(grid);
    const specials = strings(w.special);
    const ul = el("ul", "", { class: "chips" });
    chips(ul, specials, (k) => { w.special = specials.filter((_, j) => j !== k); });
    const pick = el("select", "", { "aria-label": `Weapon ${i + 1} special` });
    fillPick(pick, EFFECT_KINDS);
    const add = el("button", "Add special", { type: "button" });
    add.addEventListener("click", () => { readForm(); w.special = [...strings(w.special), pick.value]; showCard(); cardChanged(); });
    const remove = el("button", "Remove weapon", { type: "button", class: "danger" });
    remove.addEventListener("click", () => { readForm(); weapons().splice(i, 1); showCard(); cardChanged(); });
    const row = el("div", "", { class: "row" });
    row.append(pick, add, remove);
    div.append(el("small", "Special (Sharp, Multiattack, Ranged …)", { class: "hint" }), ul, row);
    box.appendChild(div);
  });
}

/** The form's values into `card` (the lists of chips are kept as they are). */
function readForm(): void {
  const major = field("arcana").value === "major";
  card.name = field("name").value;
  card.points = num(field("points").value);
  card.race = field("race").value;
  card.tarot = major
    ? { arcana: "major", name: field("tarot_name").value }
    : { arcana: "minor", suit: field("suit").value, number: Number(field("number").value) };
  card.restrictions = list(field("restrictions").value);
  card.attributes = list(field("attributes").value);
  const stats: Data = {};
  for (const s of tables.stats) {
    const v = num(field(`stat-${s.name}`).value);
    if (v !== undefined) stats[s.name] = v;
  }
  card.stats = stats;
  weapons().forEach((w, i) => {
    w.name = field(`w${i}-name`).value;
    for (const s of tables.weapon_stats) {
      const v = num(field(`w${i}-${s.name}`).value);
      if (v === undefined) delete w[s.name]; else w[s.name] = v;
    }
    w.type = field(`w${i}-type`).value;
    const reach = field(`w${i}-reach`).value.trim();
    if (reach) w.reach = reach; else delete w.reach; // empty: the server's default reach
    const crit = field(`w${i}-crit`).value.trim();
    if (crit) w.crit = crit; else delete w.crit;
    if (!strings(w.special).length) delete w.special;
  });
}

/** The card to send: the draft without empty lists. */
function cardData(): Data {
  const out: Data = structuredClone(card);
  for (const k of ["restrictions", "attributes", "effects", "abilities", "weapons"]) {
    if (Array.isArray(out[k]) && !(out[k] as unknown[]).length) delete out[k];
  }
  return out;
}

let cardGeneration = 0;

async function recheck(): Promise<void> {
  const mine = ++cardGeneration;
  const data = cardData();
  localStorage.setItem(CARD_KEY, JSON.stringify({ card, origin: cardOrigin }));
  try {
    const check = await api<CardCheck>("POST", "/api/collision/cards/check", data);
    if (mine !== cardGeneration) return;
    showCheck(check);
  } catch (err) {
    if (mine !== cardGeneration) return;
    $("co-verdict").textContent = "not read";
    $("co-violations").replaceChildren(el("li", message(err)));
  }
}

/** A problem's sentence, its field before it only when the sentence does not name it (the
 * reader's sentences do: "card: stats.end = 12 is not allowed ..." was said after "stats.end: ",
 * session 36). */
function problemText(v: Problem): string {
  const said = bookNames(v.message);
  return v.field && !said.includes(v.field) ? `${v.field}: ${said}` : said;
}

function showCheck(check: CardCheck): void {
  const verdict = $("co-verdict");
  verdict.textContent = check.valid
    ? `${String(check.card?.points ?? "")} pts · a valid card`
    : `${check.violations.length} limit${check.violations.length === 1 ? "" : "s"} broken`;
  verdict.className = check.valid ? "ok" : "bad";
  $("co-bar-verdict").textContent = verdict.textContent;
  $("co-bar").classList.toggle("invalid", !check.valid);
  $("co-violations").replaceChildren(...check.violations.map((v) => el("li", `${problemText(v)} [${bookNames(v.rule)}]`)));
  form.querySelectorAll(".invalid").forEach((n) => n.classList.remove("invalid"));
  for (const v of check.violations) {
    const m = /^weapons\[(\d+)\]\.([\w-]+)/.exec(v.field);
    const name = m ? `w${m[1]}-${m[2]}` : v.field.startsWith("stats.") ? `stat-${v.field.slice(6)}` : v.field.split(/[.[]/)[0];
    const node = form.querySelector(`[name="${name}"]`)?.closest("label") ?? form.querySelector(`[data-field="${v.field.split(/[.[]/)[0]}"]`);
    node?.classList.add("invalid");
  }
  const frame = $<HTMLIFrameElement>("co-print");
  frame.hidden = check.html === null;
  if (check.html !== null) showInFrame(frame, check.html);
  const text = $<HTMLTextAreaElement>("co-card-text");
  if (document.activeElement !== text) text.value = check.yaml;
}

/** Each print frame's last document, loaded and fitted (see `settled`). */
const frameLoads = new Map<string, Promise<void>>();

/** Show `html` in a print frame; `frameLoads` holds the promise of its load (and fit). */
function showInFrame(frame: HTMLIFrameElement, html: string): void {
  frameLoads.set(frame.id, new Promise((resolve) => frame.addEventListener("load", () => resolve(), { once: true })));
  frame.srcdoc = html;
}

/** Once the first checks are shown and the print frames have loaded and grown to their
 * cards (`fitFrame`: the card frame sits above the battle group, so its growth moves every
 * button under it), the page says so: `body[data-ready="1"]`, what the browser tests wait for
 * before their first click (a click aimed while the frame grew landed on another button, a
 * flaky test in session 37's CI). A frame that never loads holds it back at most 3 s. */
async function settled(checks: Promise<unknown>): Promise<void> {
  await checks;
  const loads = Promise.all([...frameLoads.values()]);
  await Promise.race([loads, new Promise((resolve) => window.setTimeout(resolve, 3000))]);
  await new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)));
  document.body.dataset.ready = "1";
}

/** The printable card's frame as tall as the cards it shows (no scrolling inside it). */
function fitFrame(frame: HTMLIFrameElement): void {
  const fit = (): void => {
    const body = frame.contentDocument?.body;
    if (body && body.scrollHeight > 0) frame.style.height = `${body.scrollHeight + 24}px`;
  };
  frame.addEventListener("load", fit);
  frame.closest("details")?.addEventListener("toggle", fit);
}

const recheckSoon = debounce(() => void recheck(), 200);

/** After a change: the draft is kept at once (a reload loses nothing), checked after 200 ms
 * of quiet. */
function cardChanged(): void {
  localStorage.setItem(CARD_KEY, JSON.stringify({ card, origin: cardOrigin }));
  recheckSoon();
}

// ------------------------------------------------------------------ the battle group

function groupData(): Data {
  return {
    name: $<HTMLInputElement>("co-group-name").value,
    points_limit: num($<HTMLInputElement>("co-group-limit").value),
    characters: group.characters.map((m) => ({ card: m.card, count: m.count })),
  };
}

function fromGroup(d: Data): Group {
  const members = Array.isArray(d.characters) ? (d.characters as Data[]) : [];
  return {
    name: String(d.name ?? ""), points_limit: Number(d.points_limit ?? 500),
    characters: members.map((m) => ({ card: record(m.card), count: Number(m.count ?? 1) })),
  };
}

/** A number field's value as typed: a number, else the text (the server names what is wrong). */
function asTyped(text: string): number | string {
  const n = Number(text);
  return text.trim() !== "" && !Number.isNaN(n) ? n : text;
}

function renderGroup(): void {
  $<HTMLInputElement>("co-group-name").value = group.name;
  $<HTMLInputElement>("co-group-limit").value = String(group.points_limit);
  $("co-members").replaceChildren(...group.characters.map((m, i) => {
    const li = el("li", "", { "data-card": String(m.card.name), class: "member" });
    const who = el("span", "", { class: "who" });
    who.append(el("strong", String(m.card.name)), el("span", ` ${String(m.card.points)} pts each`, { class: "muted" }));
    li.appendChild(who);
    const broken = memberProblems.filter((p) => p.member === i).length;
    if (broken) {
      // a card that does not read (a glossary entry renamed since it was saved): say so on
      // its row and how to fix it, the server's sentences are in the list below (session 37)
      li.classList.add("broken");
      li.appendChild(el("span", `does not read (${broken} problem${broken === 1 ? "" : "s"} below): Edit it, fix it, then “Add this card to the battle group”`, { class: "broken-note" }));
    }
    const count = el("input", "", { type: "number", min: "1", value: String(m.count), "aria-label": `Copies of ${String(m.card.name)}`, inputmode: "numeric", style: "width:5rem" });
    count.addEventListener("input", () => { m.count = asTyped(count.value); groupChanged(); });
    const edit = el("button", "Edit", { type: "button" });
    edit.addEventListener("click", () => { card = structuredClone(m.card); cardOrigin.stored = null; cardOrigin.version = null; showCard(); cardNote(); cardChanged(); window.scrollTo(0, 0); });
    const x = el("button", "Remove", { type: "button", class: "danger" });
    x.addEventListener("click", () => { group.characters.splice(i, 1); renderGroup(); groupChanged(); });
    const controls = el("span", "", { class: "controls" });
    controls.append(count, edit, x);
    li.appendChild(controls);
    return li;
  }));
}

let groupGeneration = 0;

async function recheckGroup(): Promise<void> {
  const mine = ++groupGeneration;
  group.name = $<HTMLInputElement>("co-group-name").value;
  group.points_limit = Number($<HTMLInputElement>("co-group-limit").value);
  localStorage.setItem(GROUP_KEY, JSON.stringify({ group, origin: groupOrigin }));
  const error = $("co-group-error");
  try {
    const check = await api<GroupCheck>("POST", "/api/collision/groups/check", groupData());
    if (mine !== groupGeneration) return;
    error.hidden = true;
    showReport(check);
  } catch (err) {
    if (mine !== groupGeneration) return;
    error.hidden = false;
    error.textContent = message(err); // the server's sentence, an empty group's too
    $("co-report").replaceChildren();
    $("co-group-violations").replaceChildren();
    $("co-group-total").textContent = "–";
  }
}

function showReport(check: GroupCheck): void {
  const r = check.report;
  const hadProblems = memberProblems.length > 0;
  memberProblems = check.card_problems;
  if (hadProblems || memberProblems.length > 0) renderGroup();
  if (r === null) {
    const n = memberProblems.length;
    $("co-group-total").textContent = "–";
    $("co-report").replaceChildren();
    $("co-group-violations").replaceChildren(
      el("li", `${n} problem${n === 1 ? "" : "s"} in the group's cards: each card must read before the group is counted.`, { class: "lead" }),
      // the reader's sentence names the card and its field ("battle group: Halai (characters[2]): ...")
      ...memberProblems.map((v) => el("li", `${bookNames(v.message)} [${bookNames(v.rule)}]`)));
    $<HTMLTextAreaElement>("co-group-text").value = check.yaml;
    showInFrame($<HTMLIFrameElement>("co-group-print"), "");
    return;
  }
  $("co-group-total").textContent = `${r.points} / ${r.points_limit} pts`;
  const rows: [string, string][] = [
    ["Points (every copy, L600-603)", `${r.points} / ${r.points_limit}`],
    ["Cards in the hand", String(r.cards)],
    ["Different cards (1 per 250 points + 4, L607-610)", `${r.different_cards} / ${r.max_different_cards}`],
    ["Board (L597-598)", r.board],
    ["Deployment phases (L682-686)", r.deployment_phases.join(" / ")],
  ];
  $("co-report").replaceChildren(...rows.map(([k, v]) => {
    const tr = el("tr");
    tr.append(el("td", k), el("td", v, { class: "num" }));
    return tr;
  }));
  $("co-group-violations").replaceChildren(...r.violations.map((v) => el("li", `${problemText(v)} [${bookNames(v.rule)}]`)));
  $<HTMLTextAreaElement>("co-group-text").value = check.yaml;
  showInFrame($<HTMLIFrameElement>("co-group-print"), check.html ?? "");
}

const recheckGroupSoon = debounce(() => void recheckGroup(), 200);

function groupChanged(): void {
  group.name = $<HTMLInputElement>("co-group-name").value;
  group.points_limit = Number($<HTMLInputElement>("co-group-limit").value);
  localStorage.setItem(GROUP_KEY, JSON.stringify({ group, origin: groupOrigin }));
  recheckGroupSoon();
}

// ------------------------------------------------------------------ stored cards and groups

function summaryLabel(r: Summary): string {
  return r.points_limit === null
    ? `${r.name} · ${r.points} pts · v${r.version}`
    : `${r.name} · ${r.points}/${r.points_limit} pts · ${r.cards} cards · v${r.version}`;
}

const storedCards = new StoredDocs<Stored & { card: Data | null; draft?: Data | null }>({
  base: "/api/collision/cards", key: "card", noun: "card", prefix: "co-card",
  data: () => { readForm(); return cardData(); },
  origin: () => cardOrigin,
  loaded: (doc, origin) => {
    // a stored card that no longer reads (a glossary entry renamed): opened as it was
    // stored, its problems listed by the check, to be fixed and saved (session 36)
    if (doc.card) card = structuredClone(doc.card);
    else if (doc.draft) card = structuredClone(doc.draft);
    Object.assign(cardOrigin, origin);
    showCard();
    void recheck();
  },
  label: summaryLabel,
});

const storedGroups = new StoredDocs<Stored & { group: Data; draft?: Data | null }>({
  base: "/api/collision/groups", key: "group", noun: "battle group", prefix: "co-group",
  data: groupData,
  origin: () => groupOrigin,
  loaded: (doc, origin) => {
    // a stored group holding a card that no longer reads opens as it was stored, its
    // cards' problems listed by the check (session 37)
    group = fromGroup(doc.draft ?? doc.group);
    Object.assign(groupOrigin, origin);
    renderGroup();
    void recheckGroup();
  },
  label: summaryLabel,
});

function cardNote(): void { storedCards.note(); }

// ------------------------------------------------------------------ wiring

function loadDrafts(): void {
  try {
    const c = JSON.parse(localStorage.getItem(CARD_KEY) ?? "null") as { card: Data; origin: Origin } | null;
    if (c !== null && typeof c.card === "object") { card = c.card; Object.assign(cardOrigin, c.origin ?? {}); }
    const g = JSON.parse(localStorage.getItem(GROUP_KEY) ?? "null") as { group: Group; origin: Origin } | null;
    if (g !== null && Array.isArray(g.group?.characters)) { group = g.group; Object.assign(groupOrigin, g.origin ?? {}); }
  } catch {
    localStorage.removeItem(CARD_KEY);
    localStorage.removeItem(GROUP_KEY);
  }
}

async function start(): Promise<void> {
  [tables, examples] = await Promise.all([
    api<Tables>("GET", "/api/collision/tables"),
    api<{ cards: Data[]; groups: Data[] }>("GET", "/api/collision/examples"),
  ]);
  fitFrame($<HTMLIFrameElement>("co-print"));
  fitFrame($<HTMLIFrameElement>("co-group-print"));
  const pick = $<HTMLSelectElement>("co-example");
  examples.cards.forEach((c, i) => pick.appendChild(el("option", `${String(c.name)} (${String(c.points)} pts)`, { value: String(i) })));
  pick.addEventListener("change", () => {
    const c = examples.cards[Number(pick.value)];
    if (pick.value === "" || c === undefined) return;
    card = structuredClone(c);
    cardOrigin.stored = null; cardOrigin.version = null;
    showCard(); cardNote(); cardChanged();
  });
  const suit = field("suit") as HTMLSelectElement;
  suit.replaceChildren(...tables.suits.map((s) => el("option", s, { value: s })));
  const number = field("number") as HTMLSelectElement;
  number.replaceChildren(...tables.tarot_numbers.map((n) => el("option", n.label, { value: String(n.value) })));
  const stats = $("co-stats");
  stats.replaceChildren(...tables.stats.map((s) => input(label(s.name), `stat-${s.name}`, "",
    { type: "number", inputmode: "numeric", ...(s.min === null ? {} : { min: String(s.min) }), ...(s.max === null ? {} : { max: String(s.max) }) }, s.hint)));
  fillPick($<HTMLSelectElement>("co-effect-pick"), EFFECT_KINDS);
  fillPick($<HTMLSelectElement>("co-ability-pick"), ABILITY_KINDS);
  showPicked();
  loadDrafts();
  showCard();
  renderGroup();
  storedCards.note();
  storedGroups.note();
  void storedCards.refresh();
  void storedGroups.refresh();
  void settled(Promise.all([recheck(), recheckGroup()]));
}

function showPicked(): void {
  $("co-effect-text").textContent = entryText(entry($<HTMLSelectElement>("co-effect-pick").value));
  $("co-ability-text").textContent = entryText(entry($<HTMLSelectElement>("co-ability-pick").value));
}

form.addEventListener("input", (e) => {
  const t = e.target as HTMLElement;
  if (t.closest("details") || ["co-ability-search", "co-example", "co-effect-pick", "co-ability-pick"].includes(t.id)) return;
  readForm();
  if (t.getAttribute("name") === "arcana") showTarot();
  cardChanged();
});
form.addEventListener("change", (e) => {
  const t = e.target as HTMLElement;
  if (t.id === "co-effect-pick" || t.id === "co-ability-pick") { showPicked(); return; }
  if (t.closest("details") || t.id === "co-example") return;
  readForm();
  showTarot();
  cardChanged();
});
$("co-ability-search").addEventListener("input", async () => {
  await ready;
  fillPick($<HTMLSelectElement>("co-ability-pick"), ABILITY_KINDS, $<HTMLInputElement>("co-ability-search").value);
  showPicked();
});
$("co-effect-add").addEventListener("click", async () => {
  await ready;
  readForm();
  card.effects = [...strings(card.effects), $<HTMLSelectElement>("co-effect-pick").value];
  showCard(); cardChanged();
});
$("co-ability-add").addEventListener("click", async () => {
  await ready;
  const name = $<HTMLSelectElement>("co-ability-pick").value;
  if (!name) return;
  readForm();
  card.abilities = [...strings(card.abilities), name];
  showCard(); cardChanged();
});
$("co-add-weapon").addEventListener("click", async () => {
  await ready;
  readForm();
  weapons().push({ name: `Weapon ${weapons().length + 1}`, ec: 1, type: "Mundane", "w-att": 3, "w-pow": 3 });
  showCard(); cardChanged();
});
$("co-new").addEventListener("click", async () => {
  await ready;
  card = blankCard();
  cardOrigin.stored = null; cardOrigin.version = null;
  showCard(); cardNote(); cardChanged();
});
$("co-card-json").addEventListener("click", () => {
  readForm();
  $<HTMLTextAreaElement>("co-card-text").value = JSON.stringify(cardData(), null, 2);
});
$("co-card-copy").addEventListener("click", async () => {
  try {
    await navigator.clipboard.writeText($<HTMLTextAreaElement>("co-card-text").value);
    status("Copied");
  } catch {
    $<HTMLTextAreaElement>("co-card-text").select();
    status("Select and copy the text (this browser does not let the page copy)");
  }
});
$("co-print-button").addEventListener("click", () => $<HTMLIFrameElement>("co-print").contentWindow?.print());
$("co-group-print-button").addEventListener("click", () => $<HTMLIFrameElement>("co-group-print").contentWindow?.print());
$("co-card-yaml").addEventListener("click", () => { void recheck(); });
$("co-card-load").addEventListener("click", async () => {
  await ready;
  try {
    const read = await api<{ kind: string; data: Data }>("POST", "/api/collision/read", { text: $<HTMLTextAreaElement>("co-card-text").value });
    if (read.kind === "group") {
      group = fromGroup(read.data);
      renderGroup(); groupChanged();
      status("That is a battle group: it is in the battle group below.");
      return;
    }
    card = read.data;
    showCard(); cardChanged();
    status("Card loaded");
  } catch (err) { status(message(err)); }
});
$("co-to-group").addEventListener("click", async () => {
  await ready;
  readForm();
  const data = cardData();
  const same = group.characters.find((m) => m.card.name === data.name);
  if (same) { same.card = data; status(`${String(data.name)} is updated in the battle group`); }
  else { group.characters.push({ card: data, count: 1 }); status(`${String(data.name)} is in the battle group`); }
  renderGroup(); groupChanged();
});
$("co-example-group").addEventListener("click", async () => {
  await ready;
  const g = examples.groups[0];
  if (g === undefined) return;
  group = fromGroup(structuredClone(g));
  groupOrigin.stored = null; groupOrigin.version = null;
  renderGroup(); storedGroups.note(); groupChanged();
});
$("co-clear-group").addEventListener("click", async () => {
  await ready;
  group.characters = [];
  renderGroup(); groupChanged();
});
for (const id of ["co-group-name", "co-group-limit"]) $(id).addEventListener("input", groupChanged);

/** The tables and examples, loaded once; handlers that need them wait for it. */
const ready: Promise<void> = start();
