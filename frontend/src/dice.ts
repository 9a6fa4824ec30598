// Dice page: the Dice Generator (POST /api/dice/roll) and the Scatter Arrow
// (POST /api/dice/scatter). The seed of every roll is shown and kept in the history.
import { $, api, ApiFailure, el } from "./common.js";

interface Roll {
  expr: string; seed: number; sides: number; faces: number[]; before_reroll: number[] | null;
  total: number; counts: Record<string, number>; need?: number; successes?: number;
}
interface Scatter { seed: number; hit: boolean; direction: string | null; degrees: number | null; distance: number }

const form = $<HTMLFormElement>("dice-form");
const HISTORY_KEY = "warbench.dice.history";
const history: string[] = JSON.parse(localStorage.getItem(HISTORY_KEY) ?? "[]") as string[];

function remember(line: string): void {
  history.unshift(line);
  history.splice(50);
  localStorage.setItem(HISTORY_KEY, JSON.stringify(history));
  renderHistory();
}

function renderHistory(): void {
  $("dice-history").replaceChildren(...history.map((h) => el("li", h)));
}

function seedValue(): number | null {
  const text = String(new FormData(form).get("seed") ?? "").trim();
  return text === "" ? null : Number(text);
}

function fail(err: unknown): void {
  $("dice-result").replaceChildren(el("p", err instanceof ApiFailure ? err.body.detail : String(err), { class: "error" }));
}

async function roll(): Promise<void> {
  const data = new FormData(form);
  const kind = String(data.get("kind"));
  const count = String(data.get("count") ?? "1");
  const expr = kind === "2D6" ? "2D6" : `${count}${kind}`;
  const need = String(data.get("need") ?? "");
  const reroll = String(data.get("reroll") ?? "").trim();
  try {
    const r = await api<Roll>("POST", "/api/dice/roll", {
      expr, need: need === "" ? null : Number(need), reroll: reroll === "" ? null : reroll, seed: seedValue(),
    });
    const box = $("dice-result");
    const faces = el("ul", "", { class: "dice", id: "faces" });
    for (const f of r.faces) faces.appendChild(el("li", String(f), r.need !== undefined && f >= r.need ? { class: "success" } : {}));
    const summary = r.need !== undefined
      ? `${r.successes} of ${r.faces.length} succeed on ${r.need}+ · total ${r.total}`
      : `total ${r.total}`;
    box.replaceChildren(el("h2", r.expr), faces, el("p", summary, { class: "big", id: "dice-summary" }));
    if (r.before_reroll) box.appendChild(el("p", `before rerolls: ${r.before_reroll.join(" ")}`, { class: "muted" }));
    box.appendChild(el("p", `seed ${r.seed}`, { class: "muted", id: "dice-seed" }));
    remember(`${r.expr}: ${r.faces.length <= 20 ? r.faces.join(" ") + " · " : ""}${summary} (seed ${r.seed})`);
  } catch (err) {
    fail(err);
  }
}

async function scatter(): Promise<void> {
  try {
    const s = await api<Scatter>("POST", "/api/dice/scatter", { seed: seedValue() });
    const box = $("dice-result");
    const ns = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("viewBox", "-50 -50 100 100");
    svg.setAttribute("class", "chart");
    svg.setAttribute("style", "max-width: 12rem");
    const circle = document.createElementNS(ns, "circle");
    circle.setAttribute("r", "45");
    circle.setAttribute("fill", "none");
    circle.setAttribute("stroke", "#8a2c2c");
    svg.appendChild(circle);
    if (!s.hit) {
      const arrow = document.createElementNS(ns, "path");
      arrow.setAttribute("d", "M0 35 L0 -35 M-10 -22 L0 -35 L10 -22");
      arrow.setAttribute("stroke", "#1d1b19");
      arrow.setAttribute("stroke-width", "5");
      arrow.setAttribute("fill", "none");
      arrow.setAttribute("transform", `rotate(${s.degrees ?? 0})`);
      svg.appendChild(arrow);
    }
    const text = s.hit ? "Hit: it lands where it was aimed" : `${s.direction} ${s.distance}"`;
    box.replaceChildren(el("h2", "Scatter Arrow"), svg, el("p", text, { class: "big", id: "scatter-summary" }), el("p", `seed ${s.seed}`, { class: "muted" }));
    remember(`scatter: ${text} (seed ${s.seed})`);
  } catch (err) {
    fail(err);
  }
}

form.addEventListener("submit", (e) => { e.preventDefault(); void roll(); });
$("scatter").addEventListener("click", () => void scatter());
$("clear-history").addEventListener("click", () => { history.splice(0); localStorage.removeItem(HISTORY_KEY); renderHistory(); });
renderHistory();
