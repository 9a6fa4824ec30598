// Rules page: search the core-rule sections (GET /api/rules/sections) and the perk catalog
// (GET /api/perks) by name, number or text; a section opens to its full text. It also lists the
// Godslayer special abilities (GET /api/rules/godslayer, 002_bb37dae35014233a.txt L1-119).
import { $, api, debounce, el, Perk, perkItem } from "./common.js";

interface SectionHit {
  book: string; book_name: string; number: string; title: string; lines: number[];
  snippet: string; matches: number;
}
interface Section extends SectionHit { text: string }

function sectionItem(s: SectionHit): HTMLLIElement {
  const li = el("li", "", { "data-section": s.number });
  const head = el("button", `§${s.number} ${s.title}`, { type: "button", class: "section-open", "aria-expanded": "false" });
  li.appendChild(head);
  li.appendChild(el("div", `${s.book_name} (${s.book}), lines ${s.lines[0]}-${s.lines[1]}`, { class: "muted" }));
  const snippet = el("p", s.snippet, { class: "snippet" });
  li.appendChild(snippet);
  head.addEventListener("click", async () => {
    const open = li.querySelector(".full");
    if (open !== null) {
      open.remove();
      snippet.hidden = false;
      head.setAttribute("aria-expanded", "false");
      return;
    }
    const params = new URLSearchParams({ book: s.book_name });
    const full = await api<Section>("GET", `/api/rules/sections/${encodeURIComponent(s.number)}?${params.toString()}`);
    snippet.hidden = true;
    head.setAttribute("aria-expanded", "true");
    li.appendChild(el("div", full.text, { class: "full" }));
  });
  return li;
}

async function searchSections(q: string): Promise<void> {
  const params = new URLSearchParams({ q, limit: "30" });
  const hits = await api<SectionHit[]>("GET", `/api/rules/sections?${params.toString()}`);
  $("sections-count").textContent = `${hits.length} section${hits.length === 1 ? "" : "s"}`;
  $("section-results").replaceChildren(...hits.map(sectionItem));
}

async function searchPerks(q: string): Promise<void> {
  const kind = $<HTMLSelectElement>("rules-kind").value;
  const params = new URLSearchParams({ q, limit: "400" });
  if (kind) params.set("kind", kind);
  const perks = await api<Perk[]>("GET", `/api/perks?${params.toString()}`);
  $("rules-count").textContent = `${perks.length} perk${perks.length === 1 ? "" : "s"}`;
  $("rules-results").replaceChildren(...perks.map(perkItem));
}

interface GodslayerLink { kind: string; target: string; relation: string; note: string }
interface GodslayerAbility {
  name: string; book_name: string; category: string; text: string; lines: number[]; source: string;
  parameters: Record<string, unknown>; links: GodslayerLink[];
}

function abilityItem(a: GodslayerAbility): HTMLLIElement {
  const li = el("li", "", { "data-ability": a.name, "data-category": a.category });
  li.appendChild(el("strong", a.book_name));
  li.appendChild(el("span", ` ${a.category}`, { class: "tags" }));
  li.appendChild(el("p", a.text));
  const params = Object.entries(a.parameters).map(([k, v]) => `${k} ${JSON.stringify(v)}`).join(", ");
  if (params) li.appendChild(el("div", `parameters: ${params}`, { class: "muted" }));
  for (const link of a.links) {
    const label = link.kind === "warsurge-perk" ? "WARSURGE perk" : "Collision";
    li.appendChild(el("div", `${link.relation} as ${label} ${link.target}${link.note ? `: ${link.note}` : ""}`, { class: "muted ability-link" }));
  }
  li.appendChild(el("div", a.source, { class: "muted" }));
  return li;
}

async function searchGodslayer(q: string): Promise<void> {
  const params = new URLSearchParams({ q });
  const cat = $<HTMLSelectElement>("godslayer-category").value;
  if (cat) params.set("category", cat);
  const rows = await api<GodslayerAbility[]>("GET", `/api/rules/godslayer?${params.toString()}`);
  $("godslayer-count").textContent = `${rows.length} abilit${rows.length === 1 ? "y" : "ies"}`;
  $("godslayer-results").replaceChildren(...rows.map(abilityItem));
}

async function search(): Promise<void> {
  const q = $<HTMLInputElement>("rules-q").value;
  await Promise.all([searchSections(q), searchPerks(q), searchGodslayer(q)]);
}

const later = debounce(() => void search(), 150);
$("rules-q").addEventListener("input", later);
$("rules-kind").addEventListener("change", later);
$("godslayer-category").addEventListener("change", later);
$("rules-form").addEventListener("submit", (e) => { e.preventDefault(); void search(); });
void search();
