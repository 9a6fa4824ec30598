// Design page: a unit profile, its weapons and perks, validated and costed by the server as
// the player types (POST /api/units/cost). The draft is kept in localStorage, so a refresh
// loses nothing.
import { $, api, ApiFailure, debounce, el, Perk, perkItem, status } from "./common.js";
import { Draft, DRAFT_KEY, GroupDraft, WeaponDraft, weaponDraft } from "./draft.js";

interface CostItem { label: string; points: number; factor?: number; reason: string }
interface CostGroup { models: number; weapons: string[]; per_model: number; items: CostItem[] }
interface UnitCost {
  unit: string; points: number; exact: number; points_model: string;
  groups: CostGroup[]; unit_items: CostItem[]; notes: string[];
}
interface UnitCheck { unit: unknown; cost: UnitCost; warnings: string[] }

const form = $<HTMLFormElement>("unit-form");
const weaponsBox = $("weapons");
const unitPerks: string[] = [];
/** Model groups (Core Rules §1.2): a count and the weapons (card ids) each model carries. */
let groups: { count: string; weapons: number[] }[] = [{ count: "5", weapons: [] }];
let nextWeaponId = 0;
let pickerTarget: { list: string[]; render: () => void } | null = null;

function numberOrText(value: string): number | string {
  return value.trim() !== "" && !Number.isNaN(Number(value)) ? Number(value) : value;
}

function readFields(root: ParentNode, prefix: string): Record<string, string> {
  const out: Record<string, string> = {};
  root.querySelectorAll<HTMLInputElement | HTMLSelectElement>("input[name], select[name]").forEach((input) => {
    if (!input.name.startsWith(prefix) || input.closest("template")) return;
    if (prefix === "" && input.name.startsWith("w-")) return;
    out[input.name.slice(prefix.length)] = input.value;
  });
  return out;
}

function weaponCards(): HTMLFieldSetElement[] {
  return Array.from(weaponsBox.querySelectorAll<HTMLFieldSetElement>("fieldset.weapon"));
}

function weaponIds(): number[] {
  return weaponCards().map((card) => Number(card.dataset.wid));
}

function draft(): Draft {
  const ids = weaponIds();
  return {
    fields: readFields(form, ""),
    perks: [...unitPerks],
    weapons: weaponCards().map((card) => ({
      fields: readFields(card, "w-"),
      perks: JSON.parse(card.dataset.perks ?? "[]") as string[],
    })),
    groups: groups.map((g) => ({ count: g.count, weapons: g.weapons.map((id) => ids.indexOf(id)).filter((i) => i >= 0) })),
  };
}

/** The unit in the CLI's unit file format (the API validates every field). */
function unitData(d: Draft): Record<string, unknown> {
  const { count, ...stats } = d.fields;
  const unit: Record<string, unknown> = { perks: d.perks };
  for (const [k, v] of Object.entries(stats)) unit[k] = k === "name" || k === "armour" || k === "aegis" ? v : numberOrText(v);
  const weapons = d.weapons.map(weaponData);
  const drafted: GroupDraft[] = d.groups ?? [{ count: count ?? "1", weapons: weapons.map((_, i) => i) }];
  return {
    unit,
    weapons,
    models: drafted.map((g) => ({ count: numberOrText(g.count), weapons: g.weapons.map((i) => weapons[i]?.name) })),
  };
}

/** The model groups: each a count and a tick for every weapon of the unit. */
function renderGroups(): void {
  const box = $("groups");
  box.replaceChildren();
  const cards = weaponCards();
  groups.forEach((g, i) => {
    const row = el("fieldset", "", { class: "group", "data-field": `unit.models[${i}]` });
    row.appendChild(el("legend", `Group ${i + 1}`));
    const label = el("label", "Models", { "data-field": `unit.models[${i}].count` });
    const count = el("input", "", { type: "number", min: "1", max: "500", inputmode: "numeric", value: g.count, "aria-label": `Models in group ${i + 1}` });
    count.addEventListener("input", () => { g.count = count.value; });
    label.appendChild(count);
    row.appendChild(label);
    for (const card of cards) {
      const id = Number(card.dataset.wid);
      const tick = el("input", "", { type: "checkbox", "data-wid": String(id) });
      tick.checked = g.weapons.includes(id);
      tick.addEventListener("change", () => {
        g.weapons = tick.checked ? [...g.weapons, id] : g.weapons.filter((x) => x !== id);
      });
      const name = card.querySelector<HTMLInputElement>('[name="w-name"]')?.value ?? "";
      const wrap = el("label", "", { class: "tick" });
      wrap.append(tick, el("span", name, { class: "wname", "data-wid": String(id) }));
      tick.setAttribute("aria-label", `${name} (group ${i + 1})`);
      row.appendChild(wrap);
    }
    if (groups.length > 1) {
      const drop = el("button", "Remove group", { type: "button", class: "danger" });
      drop.addEventListener("click", () => { groups.splice(i, 1); renderGroups(); changed(); });
      row.appendChild(drop);
    }
    box.appendChild(row);
  });
}

/** One weapon in the weapon file format. */
function weaponData(w: WeaponDraft): Record<string, unknown> {
  const out: Record<string, unknown> = { perks: w.perks };
  for (const [k, v] of Object.entries(w.fields)) out[k] = k === "name" || k === "ap" || k === "type" ? v : numberOrText(v);
  return out;
}

function renderChips(ul: HTMLElement, list: string[], onChange: () => void): void {
  ul.replaceChildren();
  list.forEach((name, i) => {
    const li = el("li", name);
    const x = el("button", "×", { type: "button", "aria-label": `Remove ${name}` });
    x.addEventListener("click", () => {
      list.splice(i, 1);
      onChange();
    });
    li.appendChild(x);
    ul.appendChild(li);
  });
}

function renderUnitPerks(): void {
  renderChips($("unit-perks"), unitPerks, () => { renderUnitPerks(); changed(); });
}

/** Add a weapon card; a new weapon (``fresh``) is carried by every model group. */
function addWeapon(w?: WeaponDraft, fresh = true): void {
  const template = $<HTMLTemplateElement>("weapon-template");
  const card = (template.content.firstElementChild as HTMLFieldSetElement).cloneNode(true) as HTMLFieldSetElement;
  const perks: string[] = w?.perks ?? [];
  card.dataset.perks = JSON.stringify(perks);
  const wid = nextWeaponId++;
  card.dataset.wid = String(wid);
  if (w) {
    for (const [k, v] of Object.entries(w.fields)) {
      const input = card.querySelector<HTMLInputElement | HTMLSelectElement>(`[name="w-${k}"]`);
      if (input) input.value = v;
    }
  } else {
    const input = card.querySelector<HTMLInputElement>('[name="w-name"]');
    if (input) input.value = `Weapon ${weaponCards().length + 1}`;
  }
  const render = (): void => {
    card.dataset.perks = JSON.stringify(perks);
    renderChips(card.querySelector<HTMLElement>(".w-perks") as HTMLElement, perks, () => { render(); changed(); });
  };
  render();
  card.querySelector(".pick")?.addEventListener("click", () => openPicker("Weapon Perk", { list: perks, render }));
  card.querySelector(".remove-weapon")?.addEventListener("click", () => {
    card.remove();
    for (const g of groups) g.weapons = g.weapons.filter((x) => x !== wid);
    renderGroups();
    changed();
  });
  card.querySelector('[name="w-name"]')?.addEventListener("input", (e) => {
    const name = (e.target as HTMLInputElement).value;
    document.querySelectorAll(`#groups .wname[data-wid="${wid}"]`).forEach((n) => { n.textContent = name; });
    document.querySelectorAll(`#groups input[data-wid="${wid}"]`).forEach((n, i) => n.setAttribute("aria-label", `${name} (group ${i + 1})`));
  });
  card.querySelector(".to-armoury")?.addEventListener("click", async () => {
    const data = weaponData({ fields: readFields(card, "w-"), perks });
    try {
      await api("POST", "/api/armoury", { weapon: data, replace: true });
      status(`${String(data.name)} is in the Armoury`);
      void fillArmoury();
    } catch (err) {
      status(err instanceof ApiFailure ? err.body.detail : String(err));
    }
  });
  weaponsBox.appendChild(card);
  if (fresh) for (const g of groups) g.weapons.push(wid);
  renderGroups();
}

function clearErrors(): void {
  document.querySelectorAll(".invalid").forEach((n) => n.classList.remove("invalid"));
  const box = $("unit-error");
  box.hidden = true;
  box.textContent = "";
}

/** Mark the input the server's error names (unit.unit.defence, unit.weapons[1].power …). */
function showError(err: ApiFailure): void {
  const box = $("unit-error");
  box.hidden = false;
  box.textContent = err.body.detail.replace(/^request: /, "");
  const field = err.body.field ?? "";
  const weapon = /^unit\.weapons\[(\d+)\]\.?([a-z_]*)/.exec(field);
  let target: Element | null = null;
  if (weapon) {
    const card = weaponCards()[Number(weapon[1])];
    target = card?.querySelector(`[data-field="${weapon[2] || "name"}"]`) ?? card ?? null;
  } else if (field.startsWith("unit.models")) {
    target = form.querySelector(`[data-field="${field}"]`) ?? form.querySelector(`[data-field="${field.replace(/\.[a-z_]+$/, "")}"]`);
  } else {
    target = form.querySelector(`[data-field="${field.replace(/\[\d+\]$/, "")}"]`);
  }
  target?.classList.add("invalid");
}

function renderCost(check: UnitCheck): void {
  const cost = check.cost;
  $("cost-total").textContent = `${cost.points} pts`;
  // the phone's cost bar, kept in sight at the top of the form while a field is edited
  $("cost-bar-total").textContent = `${cost.points} pts`;
  $("cost-bar-state").textContent = check.warnings.length ? `${check.warnings.length} warning${check.warnings.length === 1 ? "" : "s"}` : "";
  $("cost-bar").classList.remove("invalid");
  const table = el("table");
  const head = el("tr");
  head.append(el("th", "Item"), el("th", "Points", { class: "num" }), el("th", "Why"));
  table.appendChild(head);
  for (const g of cost.groups) {
    const row = el("tr");
    const what = `${g.models} model${g.models === 1 ? "" : "s"}${g.weapons.length ? ` with ${g.weapons.join(", ")}` : ""}`;
    row.append(el("th", what), el("th", `${g.per_model.toFixed(2)} each`, { class: "num" }), el("th", ""));
    table.appendChild(row);
    for (const item of [...g.items]) table.appendChild(itemRow(item));
  }
  if (cost.unit_items.length) {
    const row = el("tr");
    row.append(el("th", "Per unit"), el("th", ""), el("th", ""));
    table.appendChild(row);
    for (const item of cost.unit_items) table.appendChild(itemRow(item));
  }
  $("cost-items").replaceChildren(table);
  $("cost-version").textContent = `exact ${cost.exact} → ${cost.points} pts · points model ${cost.points_model}`;
  const warnings = $("cost-warnings");
  warnings.replaceChildren(...[...check.warnings, ...cost.notes].map((w) => el("li", w)));
}

function itemRow(item: CostItem): HTMLTableRowElement {
  const row = el("tr");
  const value = item.factor !== undefined ? `×${item.factor}` : item.points.toFixed(2);
  row.append(el("td", item.label), el("td", value, { class: "num" }), el("td", item.reason, { class: "muted" }));
  return row;
}

// ------------------------------------------------------------------ §3.5 guidelines
// Core Rules §3.5 recommends values for each stat ("3: the recommended value for humans and
// beasts"); each input shows the bands its value falls in, as it changes. They are hints:
// the server's §1.5-1.6 ranges decide what is allowed.
interface Band { value: string; text: string; line: number; min?: number; max?: number; save?: string; choice?: string }
const guidelines = (JSON.parse($("guidelines").textContent ?? "{}") as { stats?: Record<string, { bands: Band[] }> }).stats ?? {};

function bandsFor(stat: string, value: string): Band[] {
  const bands = guidelines[stat]?.bands ?? [];
  return bands.filter((b) => {
    if (b.save !== undefined) return b.save === value;
    if (b.choice !== undefined) return b.choice === value;
    const n = Number(value);
    if (value.trim() === "" || Number.isNaN(n)) return false;
    return n >= (b.min ?? -Infinity) && n <= (b.max ?? Infinity);
  });
}

/** Show, under every stat input of the form, the §3.5 guideline bands of its value. */
function showGuidelines(): void {
  form.querySelectorAll<HTMLInputElement | HTMLSelectElement>("input[name], select[name]").forEach((input) => {
    if (input.closest("template")) return;
    const stat = input.name.replace(/^w-/, "");
    if (!(stat in guidelines)) return;
    const label = input.closest("label");
    if (label === null) return;
    let guide = label.querySelector<HTMLElement>("small.guide");
    if (guide === null) {
      guide = el("small", "", { class: "guide" });
      label.appendChild(guide);
    }
    const found = bandsFor(stat, input.value);
    guide.textContent = found.length ? `§3.5: ${found.map((b) => `${b.value} ${b.text}`).join(" / ")}` : "";
    guide.title = found.length ? `Core Rules §3.5, line ${found.map((b) => b.line).join(", ")}` : "";
  });
}

let generation = 0;
async function recost(): Promise<void> {
  const mine = ++generation;
  showGuidelines();
  const d = draft();
  localStorage.setItem(DRAFT_KEY, JSON.stringify(d));
  try {
    const check = await api<UnitCheck>("POST", "/api/units/cost", unitData(d));
    if (mine !== generation) return;
    clearErrors();
    renderCost(check);
  } catch (err) {
    if (mine !== generation) return;
    clearErrors();
    $("cost-bar-state").textContent = "not costed: see the error";
    $("cost-bar").classList.add("invalid");
    if (err instanceof ApiFailure) showError(err);
    else status(String(err));
  }
}

const changed = debounce(() => void recost(), 200);

// ------------------------------------------------------------------ perk picker
const dialog = $<HTMLDialogElement>("perk-dialog");
let pickerKind = "Unit Perk";

function openPicker(kind: string, target: { list: string[]; render: () => void }): void {
  pickerKind = kind;
  pickerTarget = target;
  $("picker-kind").textContent = kind;
  $<HTMLInputElement>("perk-search").value = "";
  dialog.showModal();
  void searchPerks();
}

async function searchPerks(): Promise<void> {
  const q = $<HTMLInputElement>("perk-search").value;
  const kinds = pickerKind === "Unit Perk" ? ["Unit Perk", "Trait"] : [pickerKind];
  const found: Perk[] = [];
  for (const kind of kinds) {
    const params = new URLSearchParams({ q, kind, limit: "60" });
    found.push(...(await api<Perk[]>("GET", `/api/perks?${params.toString()}`)));
  }
  const list = $("perk-results");
  list.replaceChildren();
  for (const p of found) {
    const li = perkItem(p);
    const add = el("button", `Add ${p.name}`, { type: "button" });
    add.addEventListener("click", () => {
      if (pickerTarget && !pickerTarget.list.includes(p.name)) {
        pickerTarget.list.push(p.name);
        pickerTarget.render();
        changed();
      }
      dialog.close();
    });
    li.appendChild(add);
    list.appendChild(li);
  }
}

$("perk-search").addEventListener("input", debounce(() => void searchPerks(), 150));
form.querySelector('.pick[data-target="unit"]')?.addEventListener("click", () =>
  openPicker("Unit Perk", { list: unitPerks, render: renderUnitPerks }),
);

// ------------------------------------------------------------------ saving
$("save-unit").addEventListener("click", async () => {
  const faction = $<HTMLInputElement>("faction").value;
  try {
    const saved = await api<{ name: string; faction: string }>("POST", "/api/units", {
      faction,
      unit: unitData(draft()),
      replace: true,
    });
    $("save-result").textContent = `Saved ${saved.name} in ${saved.faction}.`;
  } catch (err) {
    $("save-result").textContent = err instanceof ApiFailure ? err.body.detail : String(err);
  }
});

// ------------------------------------------------------------------ the Armoury
let armouryWeapons: Record<string, unknown>[] = [];

async function fillArmoury(): Promise<void> {
  armouryWeapons = await api<Record<string, unknown>[]>("GET", "/api/armoury");
  const select = $<HTMLSelectElement>("armoury-pick");
  select.replaceChildren(el("option", "from the Armoury…", { value: "" }));
  armouryWeapons.forEach((w, i) => select.appendChild(el("option", String(w.name), { value: String(i) })));
}

$("add-armoury").addEventListener("click", () => {
  const index = $<HTMLSelectElement>("armoury-pick").value;
  const weapon = armouryWeapons[Number(index)];
  if (index === "" || weapon === undefined) return;
  addWeapon(weaponDraft(weapon));
  changed();
});

// ------------------------------------------------------------------ start
function restore(): void {
  const raw = localStorage.getItem(DRAFT_KEY);
  if (raw === null) {
    addWeapon();
    return;
  }
  try {
    const d = JSON.parse(raw) as Draft;
    for (const [k, v] of Object.entries(d.fields)) {
      const input = form.querySelector<HTMLInputElement | HTMLSelectElement>(`[name="${k}"]`);
      if (input && !input.closest("template")) input.value = v;
    }
    unitPerks.push(...d.perks);
    groups = [];
    d.weapons.forEach((w) => addWeapon(w, false));
    const ids = weaponIds();
    const saved = d.groups ?? [{ count: d.fields.count ?? "1", weapons: ids.map((_, i) => i) }];
    groups = saved.map((g) => ({ count: g.count, weapons: g.weapons.map((i) => ids[i]).filter((x) => x !== undefined) }));
    if (!groups.length) groups = [{ count: "1", weapons: ids }];
    renderGroups();
  } catch {
    groups = [{ count: "5", weapons: [] }];
    addWeapon();
  }
}

form.addEventListener("input", changed);
form.addEventListener("change", changed);
$("add-weapon").addEventListener("click", () => { addWeapon(); changed(); });
$("add-group").addEventListener("click", () => {
  groups.push({ count: "1", weapons: [] });
  renderGroups();
  changed();
});
restore();
renderUnitPerks();
// The first cost goes first: the Armoury's list is asked for once it is shown (on a cold start
// the server answers one request at a time, and the cost is what makes the page useful).
void recost().finally(() => void fillArmoury());
