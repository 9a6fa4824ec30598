// Rules page: search the core-rule sections (GET /api/rules/sections) and the perk catalog
// (GET /api/perks) by name, number or text; a section opens to its full text.
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

async function search(): Promise<void> {
  const q = $<HTMLInputElement>("rules-q").value;
  await Promise.all([searchSections(q), searchPerks(q)]);
}

const later = debounce(() => void search(), 150);
$("rules-q").addEventListener("input", later);
$("rules-kind").addEventListener("change", later);
$("rules-form").addEventListener("submit", (e) => { e.preventDefault(); void search(); });
void search();
