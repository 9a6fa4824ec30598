// Factions and Armoury page: factions and their units (open one in the designer, export the
// faction as the CLI's unit file, remove a unit), import a unit file, the Armoury's weapons.
import { $, api, ApiFailure, el, status } from "./common.js";
import { draftFromUnit, DRAFT_KEY, UnitFile } from "./draft.js";

interface Listing { name: string; faction: string | null; models: number; weapons: string[] }
interface Faction { name: string; units: Listing[] }
interface Weapon { name: string; range: number; attacks: number; power: number; ap: string; type: string; perks: string[] }

const enc = encodeURIComponent;

function message(err: unknown): string {
  return err instanceof ApiFailure ? err.body.detail : String(err);
}

async function refresh(): Promise<void> {
  const factions = await api<Faction[]>("GET", "/api/factions");
  const box = $("faction-list");
  box.replaceChildren();
  const select = $<HTMLSelectElement>("import-faction");
  select.replaceChildren(...factions.map((f) => el("option", f.name)));
  if (!factions.length) box.appendChild(el("p", "No faction yet.", { class: "muted" }));
  for (const f of factions) {
    const section = el("div", "", { class: "faction" });
    const head = el("h3", f.name);
    const yaml = el("a", "export YAML", { href: `/api/factions/${enc(f.name)}/export?format=yaml`, download: `${f.name}.yaml` });
    const json = el("a", "JSON", { href: `/api/factions/${enc(f.name)}/export?format=json`, download: `${f.name}.json` });
    const links = el("p", "", { class: "muted" });
    links.append(yaml, document.createTextNode(" · "), json);
    const list = el("ul", "", { class: "plain" });
    for (const u of f.units) {
      const li = el("li", `${u.name} · ${u.models} models · ${u.weapons.join(", ") || "no weapons"} `);
      const open = el("button", "Open in the designer", { type: "button" });
      open.addEventListener("click", async () => {
        const unit = await api<UnitFile>("GET", `/api/factions/${enc(f.name)}/units/${enc(u.name)}`);
        localStorage.setItem(DRAFT_KEY, JSON.stringify(draftFromUnit(unit)));
        window.location.href = "/design";
      });
      const remove = el("button", "Remove", { type: "button", class: "danger" });
      remove.addEventListener("click", async () => {
        try {
          await api<void>("DELETE", `/api/factions/${enc(f.name)}/units/${enc(u.name)}`);
          await refresh();
        } catch (err) { status(message(err)); }
      });
      li.append(open, remove);
      list.appendChild(li);
    }
    section.append(head, links, list);
    box.appendChild(section);
  }
  const weapons = await api<Weapon[]>("GET", "/api/armoury");
  const armoury = $("armoury-list");
  armoury.replaceChildren();
  if (!weapons.length) armoury.appendChild(el("li", "The Armoury is empty.", { class: "muted" }));
  for (const w of weapons) {
    const li = el("li", `${w.name} · Range ${w.range}" · ${w.type} · A${w.attacks} P${w.power} AP ${w.ap}${w.perks.length ? " · " + w.perks.join(", ") : ""} `);
    const remove = el("button", "Remove", { type: "button", class: "danger" });
    remove.addEventListener("click", async () => {
      await api<void>("DELETE", `/api/armoury/${enc(w.name)}`);
      await refresh();
    });
    li.appendChild(remove);
    armoury.appendChild(li);
  }
}

$("new-faction").addEventListener("submit", async (e) => {
  e.preventDefault();
  const data = new FormData(e.target as HTMLFormElement);
  try {
    await api("POST", "/api/factions", { name: String(data.get("name") ?? "") });
    await refresh();
  } catch (err) { status(message(err)); }
});

$("import-units").addEventListener("submit", async (e) => {
  e.preventDefault();
  const form = e.target as HTMLFormElement;
  const data = new FormData(form);
  const file = data.get("file");
  let text = String(data.get("text") ?? "");
  let filename = "pasted text";
  if (file instanceof File && file.size > 0) {
    text = await file.text();
    filename = file.name;
  }
  const format = filename.toLowerCase().endsWith(".json") || text.trim().startsWith("{") ? "json" : "yaml";
  const faction = String(data.get("faction") ?? "");
  try {
    const result = await api<Faction>("POST", `/api/factions/${enc(faction)}/import`, {
      text, format, filename, replace: data.has("replace"),
    });
    $("import-result").textContent = `${result.name} now has ${result.units.length} unit(s).`;
    await refresh();
  } catch (err) {
    $("import-result").textContent = message(err);
  }
});

void refresh();
