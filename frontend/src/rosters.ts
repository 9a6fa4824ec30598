// Rosters page: list and create rosters, add and remove entries with the total and every
// violation re-checked by the server, share code and QR, import a pasted code.
import { $, api, ApiFailure, el, fillUnitSelect, status } from "./common.js";

interface Summary { name: string; point_limit: number; units: number; points_model: string }
interface Violation { code: string; entry: string; field: string; explanation: string; fix: string; rule: string }
interface Report {
  roster: string; point_limit: number; total: number; points_model: string; valid: boolean;
  units: { entry: string; full: number; points: number; traits: string[] }[];
  violations: Violation[];
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
    const open = el("button", `${r.name} · ${r.units} unit${r.units === 1 ? "" : "s"} · ${r.point_limit} pts`, { type: "button" });
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
  add.append(select, entryName, traits, el("button", "Add unit", { type: "submit" }));
  add.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      render(await api<Report>("POST", `/api/rosters/${enc(report.roster)}/entries`, {
        unit: JSON.parse(select.value) as unknown,
        name: entryName.value.trim() || null,
        traits: traits.value.split(",").map((t) => t.trim()).filter(Boolean),
      }));
      void refreshList();
    } catch (err) { status(message(err)); }
  });
  view.appendChild(el("h3", "Add a unit"));
  view.appendChild(add);
  void fillUnitSelect(select);

  const share = el("button", "Share code and QR", { type: "button", id: "share" });
  const shareBox = el("div");
  share.addEventListener("click", async () => {
    const { code } = await api<{ code: string }>("GET", `/api/rosters/${enc(report.roster)}/share`);
    const img = el("img", "", { src: `/api/rosters/${enc(report.roster)}/qr.svg`, alt: "QR code of the share code", class: "qr" });
    const download = el("a", "Download the QR (SVG)", { href: img.getAttribute("src") ?? "", download: `${report.roster}.svg` });
    shareBox.replaceChildren(el("p", code, { class: "code", id: "share-code" }), img, download);
  });
  view.append(share, shareBox);
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
