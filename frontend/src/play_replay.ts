// The replay viewer: any record (uploaded, pasted, or a stored game) replayed and verified on the
// server, then stepped through here with the board and the event log of each step.
import { $, ApiFailure, ApiError, el, reach } from "./common.js";
import { Board, Scene, drawLegend, logItem, zoomButtons } from "./play_board.js";
import { svgById } from "./play_store.js";

interface Frame { step: number; actor: number | null; label: string; events: { kind: string; text: string; rule?: string }[]; view: unknown; scene: Scene | null }
interface ReplayOut { ruleset: string; seed: number; names: string[]; steps: Frame[]; result: { winner: number | null; scores: number[]; reason: string } | null }

const board = new Board(svgById("board"));
zoomButtons(board);
let data: ReplayOut | null = null;

async function post(path: string, body: unknown, token = ""): Promise<ReplayOut> {
  const response = await reach(path, {
    method: body === undefined ? "GET" : "POST",
    headers: { "Content-Type": "application/json", "X-Play-Token": token },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const out: unknown = await response.json();
  if (!response.ok) {
    const err = out as Partial<ApiError>;
    throw new ApiFailure(response.status, { detail: String(err.detail ?? response.statusText), field: err.field ?? null, error: String(err.error ?? "") });
  }
  return out as ReplayOut;
}

function show(k: number): void {
  if (data === null) return;
  const n = Math.max(0, Math.min(k, data.steps.length - 1));
  $<HTMLInputElement>("slider").value = String(n);
  const f = data.steps[n];
  const who = f.actor === null ? "" : f.actor === -1 ? "chance: " : `${data.names[f.actor] ?? f.actor}: `;
  // a label in words names its side already ("Red: Troopers: …"): not said twice
  $("step-label").textContent = `step ${f.step} of ${data.steps.length - 1} · ${who && f.label.startsWith(who) ? "" : who}${f.label}`;
  if (f.scene !== null) {
    board.draw(f.scene);
    drawLegend($("board-legend"), f.scene, data.names);
  }
  $("view-json").textContent = JSON.stringify(f.view, null, 1);
  const log = $("log");
  log.replaceChildren();
  for (const g of data.steps.slice(1, n + 1)) {
    const who2 = g.actor === -1 ? "chance" : data.names[g.actor ?? 0] ?? String(g.actor);
    const head = el("li", g.label.startsWith(`${who2}: `) ? `${g.step}. ${g.label}` : `${g.step}. ${who2}: ${g.label}`);
    head.style.fontWeight = "600";
    log.appendChild(head);
    for (const ev of g.events) log.appendChild(logItem(ev));
  }
  log.scrollTop = log.scrollHeight;
  document.body.dataset.step = String(n);
}

/** A side's score as the CLI prints it: whole, or to one decimal (811.6667 → 811.7). */
function score(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

function loaded(out: ReplayOut): void {
  data = out;
  $("replay").hidden = false;
  $<HTMLInputElement>("slider").max = String(out.steps.length - 1);
  const r = out.result;
  $("replay-result").textContent = `${out.ruleset}, seed ${out.seed}, verified. ` +
    (r === null ? "Unfinished." : `${r.winner === null ? "Draw" : `${out.names[r.winner]} won`} (${r.scores.map(score).join(" – ")}).`);
  show(0);
  document.body.dataset.ready = "1";
}

async function load(ev: Event): Promise<void> {
  ev.preventDefault();
  $("replay-error").textContent = "";
  const file = $<HTMLInputElement>("record-file").files?.[0];
  const text = file !== undefined ? await file.text() : $<HTMLTextAreaElement>("record-text").value;
  try {
    loaded(await post("/api/play/replay", { record: text }));
  } catch (e) {
    $("replay-error").textContent = e instanceof ApiFailure ? e.body.detail : String(e);
  }
}

$("replay-form").addEventListener("submit", (e) => void load(e));
$("slider").addEventListener("input", () => show(Number($<HTMLInputElement>("slider").value)));
$("first").addEventListener("click", () => show(0));
$("prev").addEventListener("click", () => show(Number($<HTMLInputElement>("slider").value) - 1));
$("next").addEventListener("click", () => show(Number($<HTMLInputElement>("slider").value) + 1));
$("last").addEventListener("click", () => show(data === null ? 0 : data.steps.length - 1));

const game = new URLSearchParams(window.location.search).get("game");
const token = new URLSearchParams(window.location.hash.slice(1)).get("t") ?? "";
if (game !== null) {
  post(`/api/play/games/${encodeURIComponent(game)}/replay`, undefined, token).then(loaded).catch((e: unknown) => {
    $("replay-error").textContent = e instanceof ApiFailure ? e.body.detail : String(e);
  });
} else {
  document.body.dataset.ready = "1";
}
