// Rules page: search the perk catalog (GET /api/perks) by name or text.
import { $, api, debounce, Perk, perkItem } from "./common.js";

async function search(): Promise<void> {
  const q = $<HTMLInputElement>("rules-q").value;
  const kind = $<HTMLSelectElement>("rules-kind").value;
  const params = new URLSearchParams({ q, limit: "400" });
  if (kind) params.set("kind", kind);
  const perks = await api<Perk[]>("GET", `/api/perks?${params.toString()}`);
  $("rules-count").textContent = `${perks.length} perk${perks.length === 1 ? "" : "s"}`;
  $("rules-results").replaceChildren(...perks.map(perkItem));
}

const later = debounce(() => void search(), 150);
$("rules-q").addEventListener("input", later);
$("rules-kind").addEventListener("change", later);
$("rules-form").addEventListener("submit", (e) => { e.preventDefault(); void search(); });
void search();
