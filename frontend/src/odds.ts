// Odds page: pick an attacker and a target, set the situation, and show the exact
// distribution the server computes (POST /api/odds), with a Monte Carlo check on demand.
import { $, api, ApiFailure, barChart, el, fillUnitSelect, pct, status, UnitRef } from "./common.js";

interface Odds {
  exact: boolean; trials: number; confidence_95: number; weapons: string[];
  weapons_not_used: { weapon: string; reason: string }[];
  expected_hp_lost: number; expected_models_slain: number; wipe_chance: number;
  eligible_models: number; expected_attacker_hp_lost: number;
  hp_lost: Record<string, number>; models_slain: Record<string, number>;
  per_weapon_expected_hp_lost: Record<string, number>; explanations: string[];
}
interface OddsAnswer extends Odds { attacker: string; target: string; seed: number; ruleset: string; monte_carlo?: Odds }

const form = $<HTMLFormElement>("odds-form");
const attacker = $<HTMLSelectElement>("attacker");
const target = $<HTMLSelectElement>("target");
const SITUATION_KEY = "warbench.odds.situation";

function request(monteCarlo = 0, seed: number | null = null): Record<string, unknown> {
  const data = new FormData(form);
  const inSight = String(data.get("in_sight") ?? "").trim();
  return {
    attacker: JSON.parse(attacker.value) as UnitRef,
    target: JSON.parse(target.value) as UnitRef,
    melee: data.has("melee"),
    cover: data.has("cover"),
    stationary: data.has("stationary"),
    within_half_range: data.has("within_half_range"),
    target_airborne: data.has("target_airborne"),
    advanced: data.has("advanced"),
    cover_bonus: Number(data.get("cover_bonus") ?? 1),
    in_sight: inSight === "" ? null : Number(inSight),
    monte_carlo: monteCarlo,
    seed,
  };
}

function stat(label: string, value: string, id: string): HTMLElement {
  const box = el("div", "", { class: "stat", id });
  box.append(el("b", value), el("span", label));
  return box;
}

function render(answer: OddsAnswer): void {
  const box = $("odds-result");
  const method = answer.exact ? "exact" : `Monte Carlo, ${answer.trials} trials, ±${answer.confidence_95.toFixed(3)}`;
  box.replaceChildren(el("h2", `${answer.attacker} → ${answer.target}`), el("p", `${method} · ${answer.weapons.join(", ") || "no weapon"}`, { class: "muted" }));
  const stats = el("div", "", { class: "stats" });
  stats.append(
    stat("expected HP lost", answer.expected_hp_lost.toFixed(3), "expected-hp"),
    stat("expected models lost", answer.expected_models_slain.toFixed(3), "expected-models"),
    stat(`chance to wipe (${answer.eligible_models} in sight)`, pct(answer.wipe_chance), "wipe"),
    stat("attacker HP lost", answer.expected_attacker_hp_lost.toFixed(3), "self-harm"),
  );
  box.appendChild(stats);
  box.appendChild(barChart(answer.hp_lost, "P(HP lost = k)"));
  box.appendChild(barChart(answer.models_slain, "P(models lost = k)"));
  for (const w of answer.weapons_not_used) box.appendChild(el("p", `${w.weapon} not used: ${w.reason}`, { class: "warnings" }));
  if (answer.explanations.length) {
    const ul = el("ul", "", { class: "muted" });
    for (const note of answer.explanations.slice(0, 12)) ul.appendChild(el("li", note));
    box.appendChild(ul);
  }
}

// the odds are asked again whenever the attack changes; only the latest question's answer is shown
let asked = 0;

async function compute(): Promise<void> {
  if (attacker.value === "" || target.value === "") return;
  localStorage.setItem(SITUATION_KEY, JSON.stringify({ ...request(), attackerValue: attacker.value, targetValue: target.value }));
  const mine = ++asked;
  try {
    const answer = await api<OddsAnswer>("POST", "/api/odds", request());
    if (mine === asked) render(answer);
  } catch (err) {
    if (mine === asked) $("odds-result").replaceChildren(el("p", err instanceof ApiFailure ? err.body.detail : String(err), { class: "error" }));
  }
}

/** Exact against sampled P(HP lost = k), row by row, so the check can be read without hovering
 * over bars (a phone cannot; session 34, s34-user: the two charts were only drawn apart). */
function compareTable(exact: Record<string, number>, sampled: Record<string, number>): HTMLElement {
  const keys = [...new Set([...Object.keys(exact), ...Object.keys(sampled)].map(Number))].sort((a, b) => a - b);
  const table = el("table", "", { id: "mc-table" });
  const head = el("tr", "");
  head.append(el("th", "HP lost"), el("th", "exact"), el("th", "Monte Carlo"));
  table.appendChild(head);
  for (const k of keys) {
    const row = el("tr", "");
    row.append(el("td", String(k)), el("td", pct(exact[String(k)] ?? 0)), el("td", pct(sampled[String(k)] ?? 0)));
    table.appendChild(row);
  }
  return table;
}

async function monteCarlo(): Promise<void> {
  const trials = Number($<HTMLInputElement>("mc-trials").value);
  const seedText = $<HTMLInputElement>("mc-seed").value.trim();
  const box = $("mc-result");
  box.replaceChildren(el("p", "sampling…", { class: "muted" }));
  try {
    const answer = await api<OddsAnswer>("POST", "/api/odds", request(trials, seedText === "" ? null : Number(seedText)));
    const mc = answer.monte_carlo as Odds;
    box.replaceChildren(
      el("p", `Exact: ${answer.expected_hp_lost.toFixed(3)} HP expected. Monte Carlo (${mc.trials} trials, seed ${answer.seed}): ${mc.expected_hp_lost.toFixed(3)} ± ${mc.confidence_95.toFixed(3)} (95%).`, { id: "mc-summary" }),
      barChart(mc.hp_lost, "sampled P(HP lost = k)"),
      compareTable(answer.hp_lost, mc.hp_lost),
    );
  } catch (err) {
    box.replaceChildren(el("p", err instanceof ApiFailure ? err.body.detail : String(err), { class: "error" }));
  }
}

async function start(): Promise<void> {
  await Promise.all([fillUnitSelect(attacker), fillUnitSelect(target)]);
  if (target.options.length > 1) target.selectedIndex = 1;
  const saved = localStorage.getItem(SITUATION_KEY);
  if (saved !== null) {
    try {
      const s = JSON.parse(saved) as Record<string, unknown>;
      for (const [sel, key] of [[attacker, "attackerValue"], [target, "targetValue"]] as const) {
        const v = String(s[key] ?? "");
        if (Array.from(sel.options).some((o) => o.value === v)) sel.value = v;
      }
      form.querySelectorAll<HTMLInputElement>('input[type="checkbox"]').forEach((box) => { box.checked = s[box.name] === true; });
    } catch {
      status("could not restore the last situation");
    }
  }
  // the page opens with an attacker and a target chosen: show their odds at once
  await compute();
}

form.addEventListener("submit", (e) => { e.preventDefault(); void compute(); });
form.addEventListener("change", () => void compute());
$("mc-run").addEventListener("click", () => void monteCarlo());
void start();
