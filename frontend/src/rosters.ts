// Rosters page: list and create rosters, add and remove entries with the total and every
// violation re-checked by the server, share code and QR, import a pasted code.
import { $, api, ApiFailure, el, fillUnitSelect, status } from "./common.js";

interface Summary { name: string; point_limit: number; units: number; points_model: string }
interface Violation { code: string; entry: string; field: string; explanation: string; fix: string; rule: string }
interface Report {
  roster: string; point_limit: number; total: number; points_model: string; valid: boolean;
  units: { entry: string; full: number; points: number; traits: string[] }[];
  lines: { entry: string; kind: string; label: string; points: number; method: string }[];
  violations: Violation[];
  document: { roster: { roster_perks: { perk: string; unit: string | null }[] } };
}

const OPEN_KEY = "warbench.rosters.open";
const enc = encodeURIComponent;

function message(err: unknown): string {
  return err instanceof ApiFailure ? err.body.detail : String(err);
}

async function refreshList(): Promise<void> {
  const rosters = await api<Summary[]>("GET", "/api/rosters");
  const list = $("roster-list");
  list.replaceChildren();
  for (const r of rosters) {
    const li = el("li");
    const open = el("button", `${r.name} · ${r.units} unit${r.units === 1 ? "" : "s"} · limit ${r.point_limit} pts`, { type: "button" });
    open.addEventListener("click", () => void show(r.name));
    li.appendChild(open);
    list.appendChild(li);
  }
  if (!rosters.length) list.appendChild(el("li", "No roster yet.", { class: "muted" }));
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

function render(report: Report): void {
  const view = $("roster-view");
  const over = report.total > report.point_limit;
  view.replaceChildren(
    el("h2", report.roster),
    el("p", `${report.total} / ${report.point_limit} pts`, { class: `big ${over ? "bad" : "ok"}`, id: "roster-total" }),
    el("p", `points model ${report.points_model}`, { class: "muted" }),
  );
  const table = el("table");
  const head = el("tr");
  head.append(el("th", "Entry"), el("th", "Traits"), el("th", "Points", { class: "num" }), el("th", ""));
  table.appendChild(head);
  for (const u of report.units) {
    const row = el("tr");
    const remove = el("button", "Remove", { type: "button", class: "danger" });
    remove.addEventListener("click", async () => {
      try {
        render(await api<Report>("DELETE", `/api/rosters/${enc(report.roster)}/entries/${enc(u.entry)}`));
      } catch (err) { status(message(err)); }
    });
    const cell = el("td");
    cell.appendChild(remove);
    row.append(el("td", u.entry), el("td", u.traits.join(", ")), el("td", String(u.points), { class: "num" }), cell);
    table.appendChild(row);
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
    violations.appendChild(el("li", `${v.entry || "roster"}: ${v.explanation} Fix: ${v.fix} [${v.rule}]`, { class: "bad" }));
  }
  view.appendChild(el("h3", report.valid ? "No violations" : `${report.violations.length} violation(s)`));
  view.appendChild(violations);

  const add = el("form", "", { class: "row", id: "add-entry" });
  const select = el("select", "", { "aria-label": "Unit to add" });
  const entryName = el("input", "", { placeholder: "Entry name (optional)", "aria-label": "Entry name" });
  const traits = el("input", "", { placeholder: "Traits, comma separated", "aria-label": "Traits" });
  const embark = el("select", "", { "aria-label": "Deploys embarked in" });
  embark.appendChild(el("option", "not embarked", { value: "" }));
  for (const u of report.units) embark.appendChild(el("option", `embarked in ${u.entry}`, { value: u.entry }));
  add.append(select, entryName, traits, embark, el("button", "Add unit", { type: "submit" }));
  add.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      render(await api<Report>("POST", `/api/rosters/${enc(report.roster)}/entries`, {
        unit: JSON.parse(select.value) as unknown,
        name: entryName.value.trim() || null,
        traits: traits.value.split(",").map((t) => t.trim()).filter(Boolean),
        embarked_in: embark.value || null,
      }));
      void refreshList();
    } catch (err) { status(message(err)); }
  });
  view.appendChild(el("h3", "Add a unit"));
  view.appendChild(add);
  void fillUnitSelect(select);

  view.appendChild(el("h3", "Roster Perks (§12.6)"));
  const perkList = el("ul", "", { class: "plain", id: "roster-perks" });
  report.document.roster.roster_perks.forEach((p, i) => {
    const li = el("li", `${p.perk}${p.unit ? ` → ${p.unit}` : ""} `);
    const remove = el("button", "Remove", { type: "button", class: "danger" });
    remove.addEventListener("click", async () => {
      try {
        render(await api<Report>("DELETE", `/api/rosters/${enc(report.roster)}/perks/${i}`));
      } catch (err) { status(message(err)); }
    });
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
  perkForm.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      render(await api<Report>("POST", `/api/rosters/${enc(report.roster)}/perks`, {
        perk: perkName.value, unit: designated.value || null,
      }));
    } catch (err) { status(message(err)); }
  });
  view.appendChild(perkForm);

  const share = el("button", "Share code and QR", { type: "button", id: "share" });
  const shareBox = el("div");
  share.addEventListener("click", async () => {
    const { code } = await api<{ code: string }>("GET", `/api/rosters/${enc(report.roster)}/share`);
    const img = el("img", "", { src: `/api/rosters/${enc(report.roster)}/qr.svg`, alt: "QR code of the share code", class: "qr" });
    const download = el("a", "Download the QR (SVG)", { href: img.getAttribute("src") ?? "", download: `${report.roster}.svg` });
    shareBox.replaceChildren(el("p", code, { class: "code", id: "share-code" }), img, download);
  });
  const sheet = el("a", "Print sheet (save as PDF from the print dialog)", {
    href: `/api/rosters/${enc(report.roster)}/sheet.html`, target: "_blank", id: "print-sheet",
  });
  view.append(share, el("p", "", {}), shareBox);
  view.appendChild(el("p")).appendChild(sheet);
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
    await refreshList();
  } catch (err) { status(message(err)); }
});

$("import-roster").addEventListener("submit", async (e) => {
  e.preventDefault();
  const data = new FormData(e.target as HTMLFormElement);
  try {
    const report = await api<Report>("POST", "/api/rosters/import", { code: String(data.get("code") ?? "").trim() });
    render(report);
    await refreshList();
  } catch (err) { status(message(err)); }
});

void refreshList();
const open = localStorage.getItem(OPEN_KEY);
if (open !== null) void show(open);
