// Rosters page: list and create rosters; add, change in place (count, model groups and their
// weapons, Traits, Transport, Linked Profile set, name), copy and remove entries; change the
// Point Limit; Roster Perks; the total and every violation re-checked by the server after each
// change; share code and QR (shown, downloaded, imported by pasting or from a picture); the
// roster sheet as a PDF made on the server. No rule is decided here.
import { $, api, ApiFailure, bookNames, el, fillUnitSelect, status } from "./common.js";

interface Summary { name: string; point_limit: number; units: number; points_model: string }
interface Violation { code: string; entry: string; field: string; explanation: string; fix: string; rule: string }
interface Group { count: number; weapons: string[] }
interface EntryDoc {
  name: string; traits: string[]; embarked_in: string | null; link: string | null;
  designations: Record<string, string>;
  unit: { profile: { name: string; transport: number; perks?: string[] }; weapons: { name: string }[]; models: Group[] };
}
interface Report {
  roster: string; point_limit: number; total: number; points_model: string; valid: boolean;
  version: number | null;
  units: { entry: string; full: number; points: number; traits: string[] }[];
  lines: { entry: string; kind: string; label: string; points: number; method: string }[];
  violations: Violation[];
  document: { roster: { notes: string; roster_perks: { perk: string; unit: string | null }[]; units: EntryDoc[] } };
}
/** An entry change being edited (kept in localStorage, so a refresh loses nothing). */
interface EditDraft {
  roster: string; entry: string; name: string; groups: Group[]; traits: string;
  embarked_in: string; link: string;
  /** Perk -> designated entry (absent in drafts kept before designations had a form). */
  designations?: Record<string, string>;
}

/** The Unit Perks that designate another entry of the roster (Perks §12.4), what the
 * designated entry is to the unit, and the book line (as roster.py's _NAME_RULE). */
const DESIGNATED: { perk: string; what: string; rule: string; transports: boolean }[] = [
  { perk: "Controlled", what: "its controller", rule: "§12.4 Controlled, line 1178", transports: false },
  { perk: "Enslaved", what: "its Enslaver", rule: "§12.4 Enslaved, line 1254", transports: false },
  { perk: "Transport Link", what: "the other linked Transport", rule: "§12.4 Transport Link, lines 1420-1428", transports: true },
];

/** The designations an entry's form offers: each perk the unit has, and any already given. */
function designatable(doc: EntryDoc): typeof DESIGNATED {
  const perks = (doc.unit.profile.perks ?? []).map((p) => p.trim().toLowerCase());
  return DESIGNATED.filter((d) => perks.includes(d.perk.toLowerCase()) || d.perk in doc.designations);
}

const OPEN_KEY = "warbench.rosters.open";
const EDIT_KEY = "warbench.rosters.edit";
const enc = encodeURIComponent;
let current: Report | null = null;

function message(err: unknown): string {
  return err instanceof ApiFailure ? err.body.detail : String(err);
}

function base(report: Report): string {
  return `/api/rosters/${enc(report.roster)}`;
}

/** Send an edit made on the version shown; a roster changed elsewhere is reloaded. */
async function edit(method: string, path: string, body?: unknown): Promise<void> {
  if (current === null) return;
  const version = current.version !== null ? `?version=${current.version}` : "";
  try {
    render(await api<Report>(method, `${base(current)}${path}${version}`, body));
    void refreshList();
  } catch (err) {
    status(message(err));
    if (err instanceof ApiFailure && err.status === 409) void show(current.roster);
    throw err;
  }
}

async function refreshList(): Promise<void> {
  const rosters = await api<Summary[]>("GET", "/api/rosters");
  const list = $("roster-list");
  list.replaceChildren();
  for (const r of rosters) {
    const li = el("li");
    const open = el("button", `${r.name} · ${r.units} unit${r.units === 1 ? "" : "s"} · limit ${r.point_limit} pts`, { type: "button", "data-roster": r.name });
    open.addEventListener("click", () => void show(r.name));
    li.appendChild(open);
    list.appendChild(li);
  }
  if (!rosters.length) list.appendChild(el("li", "No roster yet.", { class: "muted" }));
  markOpen(localStorage.getItem(OPEN_KEY));
}

/** Mark the open roster in "Your rosters" (every button looked the same, session 32). */
function markOpen(name: string | null): void {
  $("roster-list").querySelectorAll<HTMLButtonElement>("button[data-roster]").forEach((b) => {
    if (b.dataset.roster === name) b.setAttribute("aria-current", "true");
    else b.removeAttribute("aria-current");
  });
}

async function show(name: string): Promise<void> {
  localStorage.setItem(OPEN_KEY, name);
  try {
    render(await api<Report>("GET", `/api/rosters/${enc(name)}`));
  } catch (err) {
    localStorage.removeItem(OPEN_KEY);
    status(message(err));
  }
}

function entryDoc(report: Report, name: string): EntryDoc | undefined {
  return report.document.roster.units.find((u) => u.name === name);
}

function render(report: Report): void {
  current = report;
  markOpen(report.roster);
  const view = $("roster-view");
  // the total looks fine (green) only when the roster is legal: a roster under its Point Limit
  // with a violation (a unit under the Minimum Unit Cost, §3.2) is not fine (session 32)
  const fine = report.valid && report.total <= report.point_limit;
  view.replaceChildren(
    el("h2", report.roster),
    el("p", `${report.total} / ${report.point_limit} pts`, { class: `big ${fine ? "ok" : "bad"}`, id: "roster-total" }),
    el("p", `points model ${report.points_model}`, { class: "muted" }),
  );
  // The Point Limit can change after the roster is made (Core Rules §3.1).
  const limit = el("form", "", { class: "row", id: "limit-form" });
  const limitInput = el("input", "", {
    type: "number", min: "1", max: "1000000", value: String(report.point_limit), "aria-label": "Point Limit of this roster", name: "point_limit",
  });
  limit.append(el("label", "Point Limit"), limitInput, el("button", "Set limit", { type: "submit" }));
  limit.firstElementChild?.appendChild(limitInput);
  limit.addEventListener("submit", (e) => {
    e.preventDefault();
    void edit("PATCH", "", { point_limit: Number(limitInput.value) }).catch(() => undefined);
  });
  view.appendChild(limit);

  const table = el("table", "", { id: "entries" });
  const head = el("tr");
  head.append(el("th", "Entry"), el("th", "Points", { class: "num" }), el("th", ""));
  table.appendChild(head);
  const saved = loadEditDraft(report);
  for (const u of report.units) {
    const doc = entryDoc(report, u.entry);
    const row = el("tr", "", { "data-entry": u.entry });
    const who = el("td");
    who.appendChild(el("strong", u.entry));
    if (doc) who.appendChild(el("div", describe(doc), { class: "muted" }));
    const actions = el("td", "", { class: "actions" });
    const editBtn = el("button", "Edit", { type: "button", class: "edit" });
    const copy = el("button", "Copy", { type: "button", class: "copy" });
    const remove = el("button", "Remove", { type: "button", class: "danger" });
    actions.append(editBtn, copy, remove);
    row.append(who, el("td", String(u.points), { class: "num" }), actions);
    table.appendChild(row);
    const panelRow = el("tr", "", { class: "edit-row", hidden: "" });
    const panelCell = el("td", "", { colspan: "3" });
    panelRow.appendChild(panelCell);
    table.appendChild(panelRow);
    const open = (draft?: EditDraft): void => {
      if (doc === undefined) return;
      panelRow.hidden = false;
      void editPanel(report, doc, panelCell, draft);
    };
    editBtn.addEventListener("click", () => (panelRow.hidden ? open() : (panelRow.hidden = true)));
    copy.addEventListener("click", () => void edit("POST", `/entries/${enc(u.entry)}/copy`).catch(() => undefined));
    remove.addEventListener("click", () => void edit("DELETE", `/entries/${enc(u.entry)}`).catch(() => undefined));
    if (saved !== null && saved.entry === u.entry) open(saved);
  }
  view.appendChild(table);
  // Every line that costs points (unit, table-priced perks, Traits, Roster Perks): they add up
  // to the total (issue 18), so a Roster Perk's price is never hidden.
  const priced = el("ul", "", { id: "priced-lines", class: "muted" });
  for (const line of report.lines) {
    const who = line.entry && !line.label.startsWith(line.entry) ? `${line.entry}: ` : "";
    const how = line.method ? ` (${line.method})` : "";
    priced.appendChild(el("li", `${who}${line.label} ${line.points} pts${how}`));
  }
  view.appendChild(el("h3", "Priced lines"));
  view.appendChild(priced);
  const violations = el("ul", "", { id: "violations" });
  for (const v of report.violations) {
    violations.appendChild(el("li", bookNames(`${v.entry || "roster"}: ${v.explanation} Fix: ${v.fix} [${v.rule}]`), { class: "bad" }));
  }
  view.appendChild(el("h3", report.valid ? "No violations" : `${report.violations.length} violation${report.violations.length === 1 ? "" : "s"}`));
  view.appendChild(violations);

  view.appendChild(el("h3", "Add a unit"));
  view.appendChild(addForm(report));
  view.appendChild(el("h3", "Roster Perks (§12.6)"));
  perkSection(report, view);
  shareSection(report, view);
}

/** One line about an entry: its models and weapons, Transport, link. */
function describe(doc: EntryDoc): string {
  const groups = doc.unit.models.map((g) => `${g.count}× ${g.weapons.join(" + ") || "no weapon"}`);
  const parts = [groups.join("; ")];
  if (doc.traits.length) parts.push(`Traits: ${doc.traits.join(", ")}`);
  if (doc.embarked_in) parts.push(`in ${doc.embarked_in}`);
  if (doc.link) parts.push(`linked set ${doc.link}`);
  for (const [perk, target] of Object.entries(doc.designations ?? {})) parts.push(`${perk}: ${target}`);
  return parts.join(" · ");
}

function loadEditDraft(report: Report): EditDraft | null {
  try {
    const d = JSON.parse(localStorage.getItem(EDIT_KEY) ?? "null") as EditDraft | null;
    return d !== null && d.roster === report.roster ? d : null;
  } catch {
    return null;
  }
}

/** The in-place editor of one entry: name, model groups with their weapons, Traits,
 * Transport, Linked Profile set. Saved with PATCH /api/rosters/{name}/entries/{entry}. */
async function editPanel(report: Report, doc: EntryDoc, cell: HTMLElement, draft?: EditDraft): Promise<void> {
  const options = await api<string[]>("GET", `${base(report)}/entries/${enc(doc.name)}/weapons`);
  const state: EditDraft = draft ?? {
    roster: report.roster, entry: doc.name, name: doc.name,
    groups: doc.unit.models.map((g) => ({ count: g.count, weapons: [...g.weapons] })),
    traits: doc.traits.join(", "), embarked_in: doc.embarked_in ?? "", link: doc.link ?? "",
    designations: { ...doc.designations },
  };
  state.designations ??= { ...doc.designations };
  const keep = (): void => localStorage.setItem(EDIT_KEY, JSON.stringify(state));
  const form = el("form", "", { class: "edit-entry", "aria-label": `Edit ${doc.name}` });
  const name = el("input", "", { value: state.name, "aria-label": "Entry name", maxlength: "80" });
  name.addEventListener("input", () => { state.name = name.value; keep(); });
  form.appendChild(labelled("Name", name));

  const groupsBox = el("div", "", { class: "groups" });
  const renderGroups = (): void => {
    groupsBox.replaceChildren(el("strong", "Models and their weapons (§1.2)"));
    state.groups.forEach((g, i) => {
      const box = el("fieldset", "", { class: "group" });
      box.appendChild(el("legend", `Group ${i + 1}`));
      const count = el("input", "", { type: "number", min: "1", max: "500", value: String(g.count), "aria-label": `Models in group ${i + 1}` });
      count.addEventListener("input", () => { g.count = Number(count.value); keep(); });
      box.appendChild(labelled("Models", count));
      for (const w of options) {
        const tick = el("input", "", { type: "checkbox", "aria-label": `${w} (group ${i + 1})` });
        tick.checked = g.weapons.includes(w);
        tick.addEventListener("change", () => {
          g.weapons = tick.checked ? [...g.weapons, w] : g.weapons.filter((x) => x !== w);
          keep();
        });
        const label = el("label", "", { class: "tick" });
        label.append(tick, document.createTextNode(` ${w}`));
        box.appendChild(label);
      }
      if (state.groups.length > 1) {
        const drop = el("button", "Remove group", { type: "button", class: "danger" });
        drop.addEventListener("click", () => { state.groups.splice(i, 1); keep(); renderGroups(); });
        box.appendChild(drop);
      }
      groupsBox.appendChild(box);
    });
    const add = el("button", "Add a model group", { type: "button", class: "add-group" });
    add.addEventListener("click", () => { state.groups.push({ count: 1, weapons: [] }); keep(); renderGroups(); });
    groupsBox.appendChild(add);
  };
  renderGroups();
  form.appendChild(groupsBox);

  const traits = el("input", "", { value: state.traits, placeholder: "Traits, comma separated", "aria-label": "Traits" });
  traits.addEventListener("input", () => { state.traits = traits.value; keep(); });
  form.appendChild(labelled("Traits (§12.6)", traits));
  const embark = el("select", "", { "aria-label": "Embarked in" });
  embark.appendChild(el("option", "not embarked", { value: "" }));
  for (const u of report.document.roster.units) {
    if (u.name !== doc.name && u.unit.profile.transport > 0) embark.appendChild(el("option", u.name, { value: u.name }));
  }
  embark.value = state.embarked_in;
  embark.addEventListener("change", () => { state.embarked_in = embark.value; keep(); });
  form.appendChild(labelled("Deploys in (Transport, §6.1)", embark));
  const link = el("input", "", { value: state.link, placeholder: "none", "aria-label": "Linked Profile set", list: "link-names" });
  const names = el("datalist", "", { id: "link-names" });
  for (const l of new Set(report.document.roster.units.map((u) => u.link).filter((x): x is string => !!x))) {
    names.appendChild(el("option", "", { value: l }));
  }
  link.addEventListener("input", () => { state.link = link.value; keep(); });
  form.append(labelled("Linked Profile set (§12.2: same name = one set)", link), names);
  form.appendChild(designationsBox(report, doc, state, keep));
  const save = el("button", "Save changes", { type: "submit" });
  const cancel = el("button", "Cancel", { type: "button", class: "danger" });
  const error = el("p", "", { class: "error", role: "alert" });
  form.append(save, cancel, error);
  cancel.addEventListener("click", () => {
    localStorage.removeItem(EDIT_KEY);
    (cell.parentElement as HTMLElement).hidden = true;
  });
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const body = {
      name: state.name.trim() || doc.name,
      groups: state.groups,
      traits: state.traits.split(",").map((t) => t.trim()).filter(Boolean),
      embarked_in: state.embarked_in || null,
      link: state.link.trim() || null,
      designations: Object.fromEntries(Object.entries(state.designations ?? {}).filter(([, v]) => v)),
    };
    // The draft is dropped before the answer is drawn (else the fresh table re-opens this
    // editor from it), and put back when the change is refused, so nothing typed is lost.
    localStorage.removeItem(EDIT_KEY);
    void edit("PATCH", `/entries/${enc(doc.name)}`, body)
      .catch((err: unknown) => { keep(); error.textContent = message(err); });
  });
  cell.replaceChildren(form);
}

/** The designations of an entry (Controlled, Enslaved, Transport Link: Perks §12.4): for each
 * perk the unit has, the entry it designates, chosen from the roster's other entries. The
 * server checks them (an unknown entry is refused, a missing or wrong one is a violation). */
function designationsBox(report: Report, doc: EntryDoc, state: EditDraft, keep: () => void): HTMLElement {
  const box = el("fieldset", "", { class: "designations" });
  box.appendChild(el("legend", "Designations (Perks §12.4)"));
  const offered = designatable(doc);
  if (!offered.length) {
    box.appendChild(el("p", "None of this unit's perks designates another unit (Controlled, Enslaved, Transport Link).", { class: "muted" }));
    return box;
  }
  const designations = state.designations ?? {};
  for (const d of offered) {
    const pick = el("select", "", { "aria-label": `${d.perk}: ${d.what}` });
    pick.appendChild(el("option", "not designated yet", { value: "" }));
    for (const u of report.document.roster.units) {
      if (u.name === doc.name || (d.transports && u.unit.profile.transport <= 0)) continue;
      pick.appendChild(el("option", u.name, { value: u.name }));
    }
    const chosen = designations[d.perk] ?? "";
    if (chosen && ![...pick.options].some((o) => o.value === chosen)) pick.appendChild(el("option", chosen, { value: chosen }));
    pick.value = chosen;
    pick.addEventListener("change", () => { designations[d.perk] = pick.value; state.designations = designations; keep(); });
    const label = labelled(`${d.perk}: ${d.what} `, pick);
    label.appendChild(el("small", d.rule, { class: "hint" }));
    box.appendChild(label);
  }
  return box;
}

function labelled(text: string, input: HTMLElement): HTMLLabelElement {
  const label = el("label", text);
  label.appendChild(input);
  return label;
}

function addForm(report: Report): HTMLFormElement {
  const add = el("form", "", { class: "row", id: "add-entry" });
  const select = el("select", "", { "aria-label": "Unit to add" });
  const entryName = el("input", "", { placeholder: "Entry name (optional)", "aria-label": "Entry name" });
  const traits = el("input", "", { placeholder: "Traits, comma separated", "aria-label": "Traits" });
  const embark = el("select", "", { "aria-label": "Deploys embarked in" });
  embark.appendChild(el("option", "not embarked", { value: "" }));
  for (const u of report.document.roster.units) {
    if (u.unit.profile.transport > 0) embark.appendChild(el("option", `embarked in ${u.name}`, { value: u.name }));
  }
  add.append(select, entryName, traits, embark, el("button", "Add unit", { type: "submit" }));
  add.addEventListener("submit", (e) => {
    e.preventDefault();
    void edit("POST", "/entries", {
      unit: JSON.parse(select.value) as unknown,
      name: entryName.value.trim() || null,
      traits: traits.value.split(",").map((t) => t.trim()).filter(Boolean),
      embarked_in: embark.value || null,
    }).catch(() => undefined);
  });
  void fillUnitSelect(select);
  return add;
}

function perkSection(report: Report, view: HTMLElement): void {
  const perkList = el("ul", "", { class: "plain", id: "roster-perks" });
  report.document.roster.roster_perks.forEach((p, i) => {
    const li = el("li", `${p.perk}${p.unit ? ` → ${p.unit}` : ""} `);
    const remove = el("button", "Remove", { type: "button", class: "danger" });
    remove.addEventListener("click", () => void edit("DELETE", `/perks/${i}`).catch(() => undefined));
    li.appendChild(remove);
    perkList.appendChild(li);
  });
  view.appendChild(perkList);
  const perkForm = el("form", "", { class: "row", id: "add-perk" });
  const perkName = el("input", "", { placeholder: "Roster Perk (e.g. Inspiring)", "aria-label": "Roster Perk" });
  const designated = el("select", "", { "aria-label": "Designated entry" });
  designated.appendChild(el("option", "no designated unit", { value: "" }));
  for (const u of report.units) designated.appendChild(el("option", u.entry, { value: u.entry }));
  perkForm.append(perkName, designated, el("button", "Add perk", { type: "submit" }));
  perkForm.addEventListener("submit", (e) => {
    e.preventDefault();
    void edit("POST", "/perks", { perk: perkName.value, unit: designated.value || null }).catch(() => undefined);
  });
  view.appendChild(perkForm);
}

function shareSection(report: Report, view: HTMLElement): void {
  const root = base(report);
  view.appendChild(el("h3", "Share and print"));
  const share = el("button", "Share code and QR", { type: "button", id: "share" });
  const shareBox = el("div", "", { id: "share-box" });
  share.addEventListener("click", async () => {
    const { code } = await api<{ code: string }>("GET", `${root}/share`);
    const img = el("img", "", { src: `${root}/qr.svg`, alt: "QR code of the share code", class: "qr" });
    const links = el("p", "", { class: "row" });
    links.append(
      el("a", "Download the QR (SVG)", { href: `${root}/qr.svg`, download: `${report.roster}.svg` }),
      el("a", "Download the QR (PNG)", { href: `${root}/qr.png`, download: `${report.roster}.png`, id: "qr-png" }),
    );
    shareBox.replaceChildren(el("p", code, { class: "code", id: "share-code" }), img, links);
  });
  view.append(share, shareBox);
  // The sheet: a PDF typeset on the server (shown here, or downloaded), or the HTML to print.
  const pdf = el("button", "Show the PDF sheet", { type: "button", id: "show-pdf" });
  const pdfBox = el("div", "", { id: "pdf-box" });
  pdf.addEventListener("click", () => {
    const frame = el("object", "", { data: `${root}/sheet.pdf`, type: "application/pdf", class: "sheet", id: "sheet-pdf", "aria-label": "Roster sheet (PDF)" });
    frame.appendChild(el("a", "Open the PDF sheet", { href: `${root}/sheet.pdf`, target: "_blank" }));
    pdfBox.replaceChildren(frame);
  });
  const links = el("p", "", { class: "row" });
  links.append(
    el("a", "Download the PDF sheet", { href: `${root}/sheet.pdf?download=true`, id: "download-pdf", download: `${report.roster}.pdf` }),
    el("a", "Print sheet (HTML)", { href: `${root}/sheet.html`, target: "_blank", id: "print-sheet" }),
  );
  view.append(pdf, links, pdfBox);
}

$("new-roster").addEventListener("submit", async (e) => {
  e.preventDefault();
  const data = new FormData(e.target as HTMLFormElement);
  try {
    const report = await api<Report>("POST", "/api/rosters", {
      name: String(data.get("name") ?? ""), point_limit: Number(data.get("point_limit")),
    });
    localStorage.setItem(OPEN_KEY, report.roster);
    render(report);
    (e.target as HTMLFormElement).reset(); // the name is taken now: ready for the next roster
    await refreshList();
  } catch (err) { status(message(err)); }
});

$("import-roster").addEventListener("submit", async (e) => {
  e.preventDefault();
  const data = new FormData(e.target as HTMLFormElement);
  // a new name imports a copy beside a roster of the same name (session 34: a code of a roster
  // already here could not be imported at all, only refused)
  const name = String(data.get("name") ?? "").trim() || null;
  try {
    const report = await api<Report>("POST", "/api/rosters/import", { code: String(data.get("code") ?? "").trim(), name });
    localStorage.setItem(OPEN_KEY, report.roster);
    render(report);
    (e.target as HTMLFormElement).reset(); // imported: ready for the next code
    await refreshList();
  } catch (err) {
    const taken = err instanceof ApiFailure && err.status === 409 && name === null;
    status(taken ? `${message(err)}; give the import a new name to keep both` : message(err));
  }
});

/** A picture as a data: URL (the API reads the QR in it). */
function readPicture(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(new Error(`cannot read ${file.name}`));
    reader.readAsDataURL(file);
  });
}

$("import-qr").addEventListener("submit", async (e) => {
  e.preventDefault();
  const input = $<HTMLInputElement>("qr-file");
  const file = input.files?.[0];
  const result = $("import-qr-result");
  if (file === undefined) {
    result.textContent = "Choose a picture of a roster's QR code first.";
    return;
  }
  try {
    const name = $<HTMLInputElement>("qr-name").value.trim() || null;
    const report = await api<Report>("POST", "/api/rosters/import-image", { image: await readPicture(file), name });
    result.textContent = `Imported ${report.roster}.`;
    localStorage.setItem(OPEN_KEY, report.roster);
    render(report);
    await refreshList();
  } catch (err) {
    result.textContent = message(err);
  }
});

void refreshList();
const open = localStorage.getItem(OPEN_KEY);
if (open !== null) void show(open);
