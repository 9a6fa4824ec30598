// A game in the browser: the board, the decision this link must answer (its legal actions from
// the protocol), placement with the server's refusal shown live, attack odds, the event log,
// undo, the record download, and live updates (server-sent events). The token stays in the URL's
// fragment and this browser's storage; every request sends it, and the server checks every
// action for the seat it plays (STYLE.md principle 15).
import { $, ApiFailure, ApiError, bookNames, el, pct, debounce, reach } from "./common.js";
import { Board, GhostBase, PreviewOpts, Scene, Spot, drawLegend, logItem, zoomButtons } from "./play_board.js";
import { remembered, svgById } from "./play_store.js";

type Json = unknown;
type Action = Record<string, Json>;

// preview: the server may draw where this action puts models (checked first, shown to confirm)
interface Listed { action: Action; label: string; spot?: Spot; preview?: boolean }
interface Domain { type: string; name: string; low?: number; high?: number; x0?: number; y0?: number; x1?: number; y1?: number; values?: Json[] }
// label: the family in a player's words from the server ("StormReavers (1): Reaver #10 moves to
// a point you choose"); its name ("move #10") is the form's key (session 36)
// example: one action of it the rules accept where the server found one, the form's start
interface Family { name: string; params: Domain[]; label?: string; example?: Action }
interface DecisionOut { player: number; kind: string; rule: string; prompt: string; default: Action | null; actions: Listed[]; finite: boolean; families: Family[]; rest?: string }
interface Snapshot {
  id: string; ruleset: string; mode: string; seats: string[]; names: string[];
  you: { role: string; seats: number[]; label: string };
  viewer: number | null; revision: number; steps: number;
  pending: { player: number; kind: string; prompt: string; rule: string }[];
  decision: DecisionOut | null; view: Json; scene: Scene | null;
  events: { step: number; kind: string; text: string; rule?: string }[];
  result: { winner: number | null; scores: number[]; reason: string } | null;
  can_undo: boolean;
  can_download: boolean;
}
// where a legal action would put each model (the server's plan; start null: off the table)
interface Placement { unit: number; model: number; start: number[] | null; end: number[]; facing?: number }
// note: what the plan does not hold (a roll after it, Dangerous Ground's losses); why_short: why
// a Move toward a point ends short of it, the server's words with their rules
interface PreviewOut { placements: Placement[]; note?: string; why_short?: string[] }
interface CheckOut { ok: boolean; reason?: string; rule?: string; preview?: PreviewOut }
interface Situation { melee?: boolean; cover?: boolean; cover_bonus?: number; within_half_range?: boolean; distance?: number | null }
interface OddsTarget {
  target: number; label?: string; error?: string; weapons?: string[]; models?: number; situation?: Situation & { cover_kind?: string };
  expected_hp_lost?: number; expected_models_slain?: number; wipe_chance?: number; exact?: boolean;
  hit?: number; crit?: number; cover_miss?: number; expected_injury?: number; defeated?: number; // a grid game's attack
}

const gameId = $("game").dataset.game ?? "";
const tokenKey = `warbench.play.token.${gameId}`;
const fromHash = new URLSearchParams(window.location.hash.slice(1)).get("t");
if (fromHash) localStorage.setItem(tokenKey, fromHash);
const token = fromHash ?? localStorage.getItem(tokenKey) ?? "";

const board = new Board(svgById("board"));
zoomButtons(board);
let snap: Snapshot | null = null;
let busy = false;
let placing: { action: Action; param: string } | null = null;
// a positions decision (coherency, survivors, contact) or a Deploy/Move/Disembark that names
// every model's place: one ring per model, dragged on the board or typed in the form
let placingModels: { action: Action; points: number[][]; start: number[][] } | null = null;
// an action that names no point (a charge naming its target, a Disembark the engine places)
// whose preview is drawn and waits for the player to make it or cancel it
// (for the snapshot it was checked on: a new revision drops it)
let confirming: { action: Action; preview: PreviewOut; revision: number } | null = null;
// the board point whose actions are listed (a tap on a highlighted square or point)
let spotPick: string | null = null;
// the board points of the pending decision's actions: key -> the actions there (points of a
// table closer than a tap's width are one group, listed together)
let spotGroups = new Map<string, Listed[]>();

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json", "X-Play-Token": token };
  const init: RequestInit = { method, headers };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    headers["Content-Type"] = "application/json";
  }
  const response = await reach(path, init);
  const data: unknown = await response.json();
  if (!response.ok) {
    const err = data as Partial<ApiError>;
    throw new ApiFailure(response.status, { detail: String(err.detail ?? response.statusText), field: err.field ?? null, error: String(err.error ?? "error") });
  }
  return data as T;
}

function seatName(p: number): string {
  return p === -1 ? "chance" : snap?.names[p] ?? `seat ${p}`;
}

function pointParam(a: Action): string | null {
  if (snap?.scene?.grid) return null; // a board of squares: its squares are tapped, not dragged
  if (typeof a.x === "number" && typeof a.y === "number") return "xy";
  for (const key of ["to", "at"]) {
    const v = a[key];
    if (Array.isArray(v) && v.length === 2 && v.every((n) => typeof n === "number")) return key;
  }
  return null;
}

/** The model positions an action names (`positions`: one [x, y] per model), if any. */
function modelPositions(a: Action | null): number[][] | null {
  if (a === null || snap?.scene?.grid) return null;
  const v = a.positions;
  if (!Array.isArray(v) || !v.length) return null;
  const ok = v.every((p) => Array.isArray(p) && p.length === 2 && p.every((n) => typeof n === "number"));
  return ok ? (v as number[][]).map((p) => [p[0], p[1]]) : null;
}

function unitLabel(uid: number): string {
  const named = snap?.scene?.labels?.[String(uid)];
  if (named !== undefined) return named;
  const view = snap?.view as { units?: { uid?: number; id?: number; label?: string; name?: string }[] } | undefined;
  const u = view?.units?.find((v) => (v.uid ?? v.id) === uid);
  return u?.label ?? u?.name ?? `unit ${uid}`;
}

function actorOf(a: Listed): number | null {
  const actor = a.spot?.actor ?? a.action.unit;
  return typeof actor === "number" ? actor : null;
}

function spotKey(s: Spot): string {
  return `${Math.round(s.x * 100) / 100},${Math.round(s.y * 100) / 100}`;
}

function pointOf(a: Action, param: string): number[] {
  return param === "xy" ? [a.x as number, a.y as number] : (a[param] as number[]);
}

function withPoint(a: Action, param: string, x: number, y: number): Action {
  const px = Math.round(x * 1e4) / 1e4;
  const py = Math.round(y * 1e4) / 1e4;
  return param === "xy" ? { ...a, x: px, y: py } : { ...a, [param]: [px, py] };
}

function unitRadius(uid: number): number {
  return snap?.scene?.pieces.find((p) => p.unit === uid)?.r ??
    (snap?.view as { units?: { uid: number; radius?: number }[] })?.units?.find((u) => u.uid === uid)?.radius ?? 0.6;
}

// The event log is fetched once and then only from the last step known (an undo, which
// shortens the game, fetches it whole again).
let known = 0;
let events: Snapshot["events"] = [];

// One refresh at a time: the live stream and an action's answer both ask for one, and two
// overlapping fetches from the same step would add the same events twice and could leave the
// older snapshot on screen. A request made while one runs makes it run once more.
let refreshing: Promise<void> | null = null;
let again = false;

function refresh(): Promise<void> {
  if (refreshing !== null) {
    again = true;
    return refreshing;
  }
  refreshing = (async () => {
    do {
      again = false;
      await refreshOnce();
    } while (again);
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

async function refreshOnce(): Promise<void> {
  try {
    let next = await call<Snapshot>("GET", `/api/play/games/${gameId}?since=${known}`);
    if (next.steps < known) {
      next = await call<Snapshot>("GET", `/api/play/games/${gameId}?since=0`);
      events = [];
    }
    // Nothing new (the live stream's echo of an action this page already fetched): keep the
    // page as it is, so a button being pressed is not replaced under the pointer.
    if (snap !== null && next.revision === snap.revision && next.steps === known && next.events.length === 0) return;
    events = events.concat(next.events);
    known = next.steps;
    snap = next;
  } catch (e) {
    if (e instanceof ApiFailure && e.status === 0 && snap !== null) {
      // the server is away: keep the game on screen, the live mark says it (session 37)
      $("live").textContent = "○ the server does not answer: reconnecting";
      return;
    }
    $("decision-title").textContent = e instanceof ApiFailure ? bookNames(e.body.detail) : String(e);
    return;
  }
  render();
}

/** Whose move it is, in the bar at the top and the tab's title: on a phone the decision card
 * is below the board, out of sight, and a tab in the background said nothing (session 37's
 * walk). "Your move ↓" goes to the card. */
function showWhoseMove(s: Snapshot, d: Snapshot["decision"]): void {
  const mark = $<HTMLAnchorElement>("your-move");
  const base = `warbench · Game ${gameId}`;
  if (s.result !== null || s.you.role === "spectator" && s.pending.length === 0) {
    mark.hidden = true;
    document.title = s.result !== null ? `Game over · ${base}` : base;
    return;
  }
  mark.hidden = false;
  if (d !== null) {
    const many = s.you.seats.length > 1;
    mark.textContent = many ? `${seatName(d.player)} to decide ↓` : "Your move ↓";
    mark.className = "mine";
    document.title = `● ${many ? `${seatName(d.player)} to decide` : "Your move"} · ${base}`;
  } else {
    const who = s.pending.map((p) => seatName(p.player)).join(", ");
    mark.textContent = who ? `waiting for ${who}` : "";
    mark.hidden = !who;
    mark.className = "theirs";
    document.title = base;
  }
}

function render(): void {
  if (snap === null) return;
  const s = snap;
  const you = s.you.role === "spectator" ? "spectating" : `you play ${s.you.seats.map(seatName).join(" and ")}`;
  $("who").textContent = `${s.ruleset} · ${s.mode} · ${you}`;
  const v = s.view as Record<string, Json>;
  const bits: string[] = [];
  // a turn limit and a numbered phase (Collision: "Game Turn 2 of 5 · phase 3", L756-790)
  if (typeof v?.turn === "number") bits.push(`Game Turn ${v.turn}${typeof v?.turn_limit === "number" ? ` of ${v.turn_limit}` : ""}`);
  if (typeof v?.round === "number") bits.push(`round ${v.round}`);
  if (typeof v?.phase === "string") bits.push(`${v.phase}`);
  else if (typeof v?.phase === "number" && typeof v?.turn === "number" && v.turn > 0) bits.push(`phase ${v.phase}`);
  bits.push(`step ${s.steps}`);
  // the objectives the battle is scored by (Collision L1108-1114): named from the start, not
  // only in the score at the end (session 35's walk)
  const obj = v?.objectives as { major?: Json; minors?: Json } | undefined;
  if (obj !== undefined && obj !== null && typeof obj.major === "string") {
    const minors = Array.isArray(obj.minors) ? obj.minors.filter((m): m is string => typeof m === "string") : [];
    bits.push(`objectives: ${obj.major} (major)${minors.length ? `; ${minors.join(", ")} (minor)` : ""}`);
  }
  $("turn").textContent = bits.join(" · ");
  $("result").textContent = s.result === null ? "" :
    // "Red wins, 150 – 138: values on the battlefield after Game Turn 4 (Core Rules §2.2 step
    // 8)": one pair of brackets, the reason's own (session 34)
    `${s.result.winner === null ? "Draw" : `${seatName(s.result.winner)} wins`}, ${s.result.scores.join(" – ")}: ${bookNames(s.result.reason)}`;
  $("view-json").textContent = JSON.stringify(s.view, null, 1);
  if (s.scene !== null) {
    $("board-wrap").hidden = false;
    board.draw(s.scene);
    drawLegend($("board-legend"), s.scene, s.names);
  } else {
    $("board-wrap").hidden = true;
    ($("view-data") as HTMLDetailsElement).open = true;
  }
  const log = $("log");
  log.replaceChildren();
  for (const ev of events.slice(-300).reverse()) log.appendChild(logItem(ev));
  $("undo").hidden = !s.can_undo;
  $("record-links").hidden = !s.can_download;
  $("download").setAttribute("href", `/api/play/games/${gameId}/record?t=${encodeURIComponent(token)}`);
  $("replay-link").setAttribute("href", `/play/replay?game=${gameId}#t=${encodeURIComponent(token)}`);
  renderDecision();
  setBusy(busy);
  // data-revision: the revision the page shows and is ready to act on (while an action is on
  // its way the page waits for it, so a test that waits on this attribute never taps a page
  // that would drop the tap)
  if (!busy) document.body.dataset.revision = String(s.revision);
  document.body.dataset.ready = "1";
}

function renderDecision(): void {
  const s = snap;
  if (s === null) return;
  const d = s.decision;
  const list = $("actions");
  list.replaceChildren();
  $("families").replaceChildren();
  $("choose-own").replaceChildren();
  $("odds").replaceChildren();
  $("take-default").hidden = true;
  $("default-said").hidden = true;
  $("take-rest").hidden = true;
  board.showSpots([], null);
  // a casualty choice's zoom on its unit (focusCasualties) ends with the choice
  if (d?.kind !== "casualties") board.unfocus();
  clearPreview(); // a form or a ring drawn again is checked again
  $("preview-confirm").hidden = true;
  $("board-hint").textContent = "Drag to pan, wheel or +/− to zoom. Tap a unit to see its actions.";
  if (placing === null && placingModels === null) {
    $("place").hidden = true;
    $("place-models").replaceChildren();
    board.clearOverlay();
    board.onPoint = null;
    board.onHandle = null;
  }
  if (confirming !== null && d !== null && confirming.revision === s.revision) {
    // the previewed action waits to be made: its places stay drawn (a refresh draws them again)
    showPreview(confirming.preview, confirming.action);
    $("preview-confirm").hidden = false;
  } else {
    if (confirming !== null) {
      // the game moved on under the question (another tab of the seat, the other player): its
      // "✓ legal" was for a decision that is gone, so the player is told the choice was dropped
      const what = confirming.action.kind === "move" ? "charge" : String(confirming.action.kind);
      $("refusal").textContent = `The game moved on before you made the ${what}: your choice was dropped.`;
      $("refusal").className = "refusal";
    }
    confirming = null;
  }
  showWhoseMove(s, d);
  if (d === null) {
    const who = s.pending.map((p) => seatName(p.player)).join(", ");
    // the game's end says who won in the card too (the header line is easy to miss on a phone)
    const over = s.result === null ? "" : s.result.winner === null ? ": a draw" : `: ${seatName(s.result.winner)} wins`;
    // a link that plays one side is told how it went (the loser read only "Red wins")
    const mine = s.you.role === "spectator" || s.you.seats.length !== 1 || s.result === null || s.result.winner === null ? ""
      : s.you.seats[0] === s.result.winner ? " (you won)" : " (you lost)";
    $("decision-title").textContent = s.result !== null ? `The game is over${over}${mine}` : `Waiting for ${who}`;
    $("decision-rule").textContent = "";
    $("decision-detail").hidden = true;
    $("selected").textContent = "";
    if (s.result !== null) {
      // what comes after a game, at hand in the card (session 33): its replay and a new game
      const replay = $("replay-link").getAttribute("href") ?? "/play/replay";
      $("selected").append(
        el("a", "Replay this game", { href: replay, id: "over-replay" }), " · ",
        el("a", "New game", { href: `/play?ruleset=${encodeURIComponent(s.ruleset)}`, id: "over-new" }),
      );
    }
    $("decision-card").dataset.state = s.result !== null ? "over" : "waiting";
    return;
  }
  $("decision-card").dataset.state = "deciding";
  $("decision-card").dataset.kind = d.kind;
  // a prompt that starts with the seat's name already says whose it is (a WARSURGE casualty
  // prompt names the unit "Blue: Dead Dogs": the title said "Blue: Blue: Dead Dogs ...")
  const said = d.prompt || d.kind;
  // a prompt's first line is its question, the rest its detail (The WarEngine's Hero Points
  // and reserved attacks: the rolls and what the points change, session 39): the title stays short
  const [ask, ...detail] = said.split("\n");
  $("decision-title").textContent = ask.startsWith(`${seatName(d.player)}: `) ? ask : `${seatName(d.player)}: ${ask}`;
  $("decision-detail").textContent = detail.join(" ");
  $("decision-detail").hidden = detail.length === 0;
  $("decision-rule").textContent = bookNames(d.rule);
  $("take-default").hidden = d.default === null;
  // the rest of a run of decisions at once (The WarEngine's placement, L303-309: a player
  // places a Movement group's figures one after another; 24 taps before turn 1, session 37)
  $("take-rest").hidden = d.rest === undefined;
  $("take-rest").textContent = d.rest ?? "";
  const dflt = d.default;
  const dfltPoints = modelPositions(dflt);
  if (dflt !== null && dfltPoints !== null) {
    // a positions decision (or a suggested Deploy/Move naming every model's place): the page
    // offers the engine's placement to change model by model
    const li = el("li");
    const b = el("button", `Place the models (${dfltPoints.length})`, { type: "button", id: "place-models-start" });
    b.addEventListener("click", () => startPlacingModels(dflt));
    li.appendChild(b);
    list.appendChild(li);
  }
  const spotted = d.actions.some((a) => a.spot !== undefined);
  const units = new Map<number, number>();
  for (const a of d.actions) {
    const u = actorOf(a);
    if (u !== null) units.set(u, (units.get(u) ?? 0) + 1);
  }
  if (board.selected !== null && !units.has(board.selected)) board.selected = null;
  // one unit can act (a casualty choice, a unit's own reaction): its choices are shown at once,
  // not behind its chip (session 37's walk: the casualties were a chip and "Take the suggested
  // choice", which did not say which models it removes)
  if (board.selected === null && units.size === 1 && !spotted) board.selected = [...units.keys()][0];
  $("selected").replaceChildren();
  if (units.size) {
    // the selected unit's chip is marked, not listed among "others" (session 33: it was both)
    $("selected").appendChild(el("span", board.selected === null ? "Units that can act: " : `Selected: ${unitLabel(board.selected)} · units that can act: `));
    for (const u of units.keys()) {
      const chosen = u === board.selected;
      const b = el("button", unitLabel(u), { type: "button", class: chosen ? "unit-chip chosen" : "unit-chip", "data-unit": String(u), "aria-pressed": String(chosen) });
      b.addEventListener("click", () => select(u));
      $("selected").appendChild(b);
    }
  }
  const isDefault = (a: Action): boolean => d.default !== null && JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(d.default));
  // what "Take the suggested choice" makes, in words (session 39's walk: an action card said
  // only "Take the suggested choice" while the suggestion sat on the board among others)
  const suggested = d.actions.find((a) => isDefault(a.action));
  $("default-said").textContent = suggested ? `Suggested: ${suggested.label}` : "";
  $("default-said").hidden = suggested === undefined;
  const keyOf = new Map<Listed, string>();
  const button = (a: Listed): HTMLLIElement => {
    const li = el("li");
    const cls = [isDefault(a.action) ? "default" : "", a.spot ? `spot-action ${a.spot.mark}` : ""].join(" ").trim();
    const b = el("button", a.label, { type: "button", "data-action": JSON.stringify(a.action), class: cls });
    const key = keyOf.get(a);
    if (key !== undefined) b.dataset.spot = key;
    b.addEventListener("click", () => void choose(a.action, a.preview === true));
    li.appendChild(b);
    return li;
  };
  if (!spotted) {
    const shown = d.actions.filter((a) => typeof a.action.unit !== "number" || a.action.unit === board.selected);
    for (const a of shown) list.appendChild(button(a));
    renderFamilies(d);
    if (d.kind === "casualties") {
      renderOwnCasualties(s);
      focusCasualties(s);
    }
    return;
  }
  // Actions on the board: every action about a point is a highlight there (of the selected
  // unit's actions when one is selected); a tap lists that point's actions (or makes the
  // only one). The others (end, pass, choices without a place) stay buttons.
  const mine = d.actions.filter((a) => board.selected === null || actorOf(a) === null || actorOf(a) === board.selected);
  const cell = s.scene?.grid ? 1 : null;
  const at = new Map<string, Listed[]>();
  for (const a of mine) {
    if (a.spot === undefined) continue;
    let k = spotKey(a.spot);
    if (cell === null && !at.has(k)) {
      // on a table, a point closer than a tap's width to a group's first point joins it
      const p = a.spot;
      for (const [key, group] of at) {
        const q = group[0].spot as Spot;
        if (Math.hypot(p.x - q.x, p.y - q.y) < 1.2) {
          k = key;
          break;
        }
      }
    }
    at.set(k, [...(at.get(k) ?? []), a]);
    keyOf.set(a, k);
  }
  spotGroups = at;
  if (spotPick !== null && !at.has(spotPick)) spotPick = null;
  board.showSpots([...at.entries()].map(([key, acts]) => {
    const marks = [...new Set(acts.map((a) => a.spot?.mark ?? ""))];
    const first = acts[0].spot as Spot;
    return { key, x: first.x, y: first.y, mark: marks.length === 1 ? marks[0] : `mixed ${marks.join(" ")}`, count: acts.length };
  }), cell);
  $("board-hint").textContent = `Tap a highlighted ${cell !== null ? "square" : "point"} to act (${at.size} on the board); drag to pan, wheel or +/− to zoom.`;
  if (spotPick !== null) {
    list.appendChild(el("li", `At ${spotPick}: choose`, { class: "spot-head" }));
    for (const a of at.get(spotPick) ?? []) list.appendChild(button(a));
  }
  for (const a of mine.filter((x) => x.spot === undefined)) list.appendChild(button(a));
  const all = el("details", "", { id: "spot-list" });
  all.appendChild(el("summary", `Every action as a list (${mine.length})`));
  const ul = el("ul", "", { class: "actions-list" });
  for (const a of mine.filter((x) => x.spot !== undefined)) ul.appendChild(button(a));
  all.appendChild(ul);
  list.appendChild(all);
  renderFamilies(d);
}

// A casualty order of the player's own (§5.11: the controlling player chooses the casualties;
// the engine offers its order and the reverse): models tapped on the board or by number, in
// the order they are to go, checked and said in words by the server before it is made
// (session 39). Kept while the same decision waits.
let ownOrder: { revision: number; models: number[]; open: boolean; said: string; ok: boolean } | null = null;

interface CasualtyPause { target: number; candidates: number[] }

function casualtyPause(s: Snapshot): CasualtyPause | null {
  const p = (s.view as { casualties?: CasualtyPause } | null)?.casualties;
  return p && typeof p.target === "number" && Array.isArray(p.candidates) ? p : null;
}

function ownOrderNow(s: Snapshot): NonNullable<typeof ownOrder> {
  if (ownOrder === null || ownOrder.revision !== s.revision) ownOrder = { revision: s.revision, models: [], open: false, said: "", ok: false };
  return ownOrder;
}

function modelsSaid(models: number[]): string {
  const n = models.map((m) => m + 1);
  return n.length === 1 ? `model ${n[0]}` : `models ${n.slice(0, -1).join(", ")} and ${n[n.length - 1]}`;
}

// the casualty choice the board was last zoomed for (once a decision: a zoom of the
// player's own afterwards stands)
let focusedFor = -1;
let zoomedIn = false;

/** A casualty choice's model numbers that do not fit at this zoom (a phone: 5, 7 and 9 of ten
 * Dead Dogs were hidden until zoomed in, session 38's walk): the board zooms in on the unit,
 * once a decision, and says so. */
function focusCasualties(s: Snapshot): void {
  const pause = casualtyPause(s);
  if (pause === null) return;
  if (focusedFor !== s.revision) {
    focusedFor = s.revision;
    board.unfocus(); // the last choice's zoom first (two casualty choices in a row)
    zoomedIn = board.focusMarks(pause.target);
  }
  const hidden = board.hiddenMarks(pause.target);
  const who = unitLabel(pause.target);
  $("board-hint").textContent = hidden
    ? `${hidden} of the model numbers of ${who} do not fit: zoom in (+) to read them.`
    : zoomedIn
      ? `Zoomed in on ${who}: its models are numbered as the choices name them; ⤢ shows the whole table.`
      : `The models of ${who} are numbered as the choices name them.`;
}

function renderOwnCasualties(s: Snapshot): void {
  const pause = casualtyPause(s);
  if (pause === null || pause.candidates.length < 2) return;
  const own = ownOrderNow(s);
  const fold = el("details", "", { id: "casualty-own" });
  fold.open = own.open;
  fold.addEventListener("toggle", () => {
    own.open = fold.open;
  });
  fold.appendChild(el("summary", "Choose the models yourself"));
  fold.appendChild(el("p", "Tap the models on the board or their numbers here, in the order they are to become casualties (a wounded model still goes first, §5.12).", { class: "hint" }));
  const picks = el("div", "", { class: "model-picks" });
  for (const m of pause.candidates) {
    const k = own.models.indexOf(m);
    const b = el("button", k < 0 ? String(m + 1) : `${m + 1} (${k + 1}.)`, {
      type: "button", class: k < 0 ? "model-pick" : "model-pick chosen", "data-model": String(m), "aria-pressed": String(k >= 0),
      "aria-label": `model ${m + 1}${k < 0 ? "" : `, chosen ${k + 1}.`}`,
    });
    b.addEventListener("click", () => pickCasualty(m));
    picks.appendChild(b);
  }
  fold.appendChild(picks);
  const said = el("p", own.models.length ? (own.said || `Your order: ${modelsSaid(own.models)} …`) : "No model chosen yet.", { id: "casualty-own-said", class: own.ok || !own.models.length ? "" : "refusal" });
  fold.appendChild(said);
  const make = el("button", "Make this choice", { type: "button", id: "casualty-own-make" });
  make.disabled = !own.ok;
  make.addEventListener("click", () => void act({ kind: "casualties", unit: pause.target, models: own.models }));
  const clear = el("button", "Clear", { type: "button", id: "casualty-own-clear" });
  clear.disabled = !own.models.length;
  clear.addEventListener("click", () => {
    own.models = [];
    own.said = "";
    own.ok = false;
    render();
  });
  fold.append(make, " ", clear);
  // under the listed choices (the engine's orders come first)
  $("choose-own").appendChild(fold);
}

/** Add a model to the player's own casualty order (or take it out), then ask the server what
 * the order does. */
function pickCasualty(m: number): void {
  const s = snap;
  const pause = s === null ? null : casualtyPause(s);
  if (s === null || pause === null || busy) return;
  const own = ownOrderNow(s);
  own.open = true;
  own.models = own.models.includes(m) ? own.models.filter((x) => x !== m) : [...own.models, m];
  own.said = "";
  own.ok = false;
  render();
  if (!own.models.length) return;
  const asked = [...own.models];
  void (async () => {
    try {
      const out = await call<CheckOut & { said?: string }>("POST", `/api/play/games/${gameId}/check`, { action: { kind: "casualties", unit: pause.target, models: asked } });
      if (ownOrder !== own || own.models.join() !== asked.join()) return; // tapped again since
      own.ok = out.ok;
      own.said = out.ok ? `Your order: ${out.said ?? modelsSaid(asked)}` : bookNames(`✗ ${out.reason ?? "refused"} (${out.rule ?? ""})`);
    } catch (e) {
      own.ok = false;
      own.said = e instanceof ApiFailure ? bookNames(`✗ ${e.body.detail}`) : String(e);
    }
    render();
  })();
}

function sortKeys(v: Json): Json {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v !== null && typeof v === "object") {
    const out: Record<string, Json> = {};
    for (const k of Object.keys(v as Record<string, Json>).sort()) out[k] = sortKeys((v as Record<string, Json>)[k]);
    return out;
  }
  return v;
}

function renderFamilies(d: DecisionOut): void {
  // With the choices on the board, the free forms (a move to any point, any facing, any
  // order) are folded away under their names (a WarEngine "move #3", a Collision "move").
  let holder: HTMLElement = $("families");
  if (d.families.length && d.actions.length) {
    const fold = el("details", "", { class: "families-fold" });
    const said = [...new Set(d.families.map((f) => f.label ?? f.name))];
    const more = said.length > 2 ? `; and ${said.length - 2} more like them` : "";
    fold.appendChild(el("summary", `More choices: ${said.slice(0, 2).join("; ")}${more}`));
    $("families").appendChild(fold);
    holder = fold;
  }
  // A family's parameters are filled into a listed action that has the same fields (the
  // family's template); the server's check judges every value as it is typed.
  for (const f of d.families) {
    const sorted = d.actions.map((a) => a.action).find((a) => Array.isArray(a.piles) && (a.piles as Json[]).every(Array.isArray));
    if (f.name === "piles" && sorted !== undefined) {
      holder.appendChild(pilesForm(sorted));
      continue;
    }
    // the server's example of the family (its own kind, piece and mode: a WarEngine move's
    // point is its x and y, not "to", so no listed action matched and the form was empty,
    // session 36), else a listed action with the family's fields
    const template = f.example ?? d.actions.map((a) => a.action).find((a) => f.params.every((p) => p.name in a));
    if (template === undefined) continue;
    const form = el("form", "", { class: "family", "data-family": f.name });
    // its words as its heading, unless the fold's summary already says them (one family)
    if (holder === $("families") || d.families.length > 1) form.appendChild(el("strong", f.label ?? f.name));
    const inputs: [Domain, HTMLInputElement | HTMLSelectElement][] = [];
    const points: [Domain, HTMLInputElement, HTMLInputElement, boolean][] = [];
    for (const p of f.params) {
      const label = el("label", `${p.name}${p.type === "interval" ? ` (${p.low} to ${p.high})` : ""}`);
      let input: HTMLInputElement | HTMLSelectElement;
      // a point held as the action's x and y (a WarEngine move or place) or as [x, y]
      const flat = !(p.name in template) && typeof template.x === "number" && typeof template.y === "number";
      const at = flat ? [template.x, template.y] : template[p.name];
      if (p.type === "choice") {
        input = el("select", "", { name: p.name });
        // a unit by its name (a WARSURGE "move to": unit 1 is "Red: Assault Squad")
        for (const v of p.values ?? []) input.appendChild(el("option", p.name === "unit" && typeof v === "number" ? unitLabel(v) : String(v), { value: JSON.stringify(v) }));
      } else if (p.type === "box" && Array.isArray(at) && at.length === 2) {
        // a point: its x and y in inches, each within the box (a number field cannot hold both)
        const pair = (["x", "y"] as const).map((axis, k) => {
          const lo = axis === "x" ? p.x0 : p.y0;
          const hi = axis === "x" ? p.x1 : p.y1;
          const field = el("input", "", { name: `${p.name}-${axis}`, type: "number", step: "any", value: String(Number(at[k]).toFixed(2)) });
          const box = el("label", `${p.name} ${axis} (${lo ?? "?"} to ${hi ?? "?"} inches)`);
          box.appendChild(field);
          form.appendChild(box);
          return field;
        });
        points.push([p, pair[0], pair[1], flat]);
        continue;
      } else {
        input = el("input", "", { name: p.name, type: "number", step: "any", value: String(template[p.name] ?? p.low ?? 0) });
      }
      inputs.push([p, input]);
      label.appendChild(input);
      form.appendChild(label);
    }
    const build = (): Action => {
      const a: Action = { ...template };
      for (const [p, input] of inputs) a[p.name] = p.type === "choice" ? JSON.parse(input.value) : Number(input.value);
      // an empty coordinate is no number (null in JSON: the server refuses the point), not 0
      const coord = (f: HTMLInputElement): number => (f.value.trim() === "" ? NaN : Number(f.value));
      for (const [p, x, y, flat] of points) {
        if (flat) [a.x, a.y] = [coord(x), coord(y)];
        else a[p.name] = [coord(x), coord(y)];
      }
      return a;
    };
    const live = debounce(() => void checkLive(build()), 150);
    form.addEventListener("input", () => {
      clearPreview(); // the places shown were the old values'
      live();
    });
    form.appendChild(el("button", "Do it", { type: "submit" }));
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      void act(build());
    });
    holder.appendChild(form);
  }
}

// Collision L682-686: the hand sorted into the phase 1, 2 and 3 piles, a select per character
// (by name) for its pile; the server's check judges the sizes as they are chosen, and the
// piles are sent as the listed action's kind (the family "piles" lists only rotations of the
// suggested order, which a form of indexes cannot say).
function pilesForm(suggested: Action): HTMLElement {
  const form = el("form", "", { class: "family", "data-family": "piles" });
  form.appendChild(el("strong", "piles: choose each character's phase"));
  const piles = suggested.piles as number[][];
  const selects: [number, HTMLSelectElement][] = [];
  piles.forEach((pile, k) => {
    for (const uid of pile) {
      const label = el("label", unitLabel(uid));
      const select = el("select", "", { name: `pile-${uid}`, "data-unit": String(uid) });
      for (const phase of [1, 2, 3]) {
        const option = el("option", `phase ${phase}`, { value: String(phase - 1) });
        if (phase - 1 === k) option.selected = true;
        select.appendChild(option);
      }
      label.appendChild(select);
      form.appendChild(label);
      selects.push([uid, select]);
    }
  });
  const build = (): Action => {
    const out: number[][] = [[], [], []];
    for (const [uid, select] of selects) out[Number(select.value)].push(uid);
    return { ...suggested, piles: out };
  };
  form.addEventListener("input", () => void checkLive(build()));
  form.appendChild(el("button", "Sort the hand", { type: "submit" }));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    void act(build());
  });
  return form;
}

// Live checks of a point (a form typed, a ring dragged): only the latest answer is shown.
let liveCheck = 0;

async function checkLive(a: Action): Promise<boolean> {
  const mine = ++liveCheck;
  try {
    const r = await call<CheckOut>("POST", `/api/play/games/${gameId}/check`, { action: a });
    if (mine !== liveCheck) return r.ok;
    $("refusal").textContent = r.ok ? "✓ legal" : bookNames(`✗ ${r.reason} [${r.rule}]`);
    $("refusal").className = `refusal ${r.ok ? "ok" : "bad"}`;
    if (r.ok && r.preview !== undefined && r.preview.placements.length) showPreview(r.preview, a);
    else clearPreview();
    return r.ok;
  } catch (e) {
    if (mine !== liveCheck) return false;
    $("refusal").textContent = e instanceof ApiFailure ? bookNames(e.body.detail) : String(e);
    $("refusal").className = "refusal bad";
    clearPreview();
    return false;
  }
}

/** Ghost bases where the checked action `a` puts each model (the server's plan, e.g. a Move
 * routed round a building), each drawn like the model's own base, and a line of words; a
 * charge (a Move naming the unit it engages, §4.3) rings its target and names it by the ghosts. */
function showPreview(shown: PreviewOut, a: Action): void {
  const placements = shown.placements;
  const pieces = snap?.scene?.pieces ?? [];
  const bases: GhostBase[] = placements.map((p) => {
    const start = p.start;
    const piece = start === null ? undefined :
      pieces.find((q) => q.unit === p.unit && Math.abs(q.x - start[0]) < 1e-6 && Math.abs(q.y - start[1]) < 1e-6);
    const shape = piece?.shape !== undefined ? { ...piece.shape, angle: p.facing ?? piece.shape.angle } : baseShape(p);
    return { unit: p.unit, model: p.model, from: start, x: p.end[0], y: p.end[1], r: piece?.r ?? unitRadius(p.unit), shape };
  });
  const opts: PreviewOpts = a.kind === "move" && typeof a.engage === "number"
    ? { target: a.engage, label: `${a.dash === true ? "Dash" : "Charge"} → ${unitLabel(a.engage).split(": ").pop() ?? ""}` }
    : {};
  board.showPreview(bases, opts);
  const words: string[] = [];
  for (const uid of [...new Set(placements.map((p) => p.unit))]) {
    const mine = placements.filter((p) => p.unit === uid);
    const mean = (pts: number[][]): number[] => [pts.reduce((t, q) => t + q[0], 0) / pts.length, pts.reduce((t, q) => t + q[1], 0) / pts.length];
    const after = mean(mine.map((p) => p.end));
    const starts = mine.map((p) => p.start).filter((q): q is number[] => q !== null);
    if (starts.length === mine.length) {
      const before = mean(starts);
      const far = Math.max(...mine.map((p) => Math.hypot(p.end[0] - (p.start as number[])[0], p.end[1] - (p.start as number[])[1])));
      words.push(`${unitLabel(uid)}: centre (${before[0].toFixed(1)}, ${before[1].toFixed(1)}) → (${after[0].toFixed(1)}, ${after[1].toFixed(1)}), ${Math.hypot(after[0] - before[0], after[1] - before[1]).toFixed(1)}" (farthest model ${far.toFixed(1)}")`);
    } else {
      words.push(`${unitLabel(uid)}: placed around (${after[0].toFixed(1)}, ${after[1].toFixed(1)})`);
    }
  }
  const note = $("preview-note");
  // what the plan does not hold (a roll after the Move, e.g. a Charge perk, Dangerous Ground's
  // losses) is said too, and why a Move ends short of its point, one reason a line
  note.replaceChildren(el("span", `Where it ends (outlined on the board, a line from each model's start): ${words.join("; ")}` +
    (shown.note !== undefined ? `. Note: ${shown.note}` : "")));
  const why = shown.why_short ?? [];
  if (why.length) {
    note.appendChild(el("span", `Why it ends short: ${why[0]}`, { class: "preview-why" }));
    for (const w of why.slice(1)) note.appendChild(el("span", w, { class: "preview-why" }));
  }
  note.hidden = false;
}

/** The base of a model placed from off the table (a Deploy, a Disembark): no piece stands
 * there yet, so its oval or rectangle comes from the view (`base`, inches) turned to the
 * placement's facing (the server's: a deployed unit's facing); none for a round base. */
function baseShape(p: Placement): GhostBase["shape"] {
  const view = snap?.view as { units?: { uid: number; base?: { shape: string; length: number; width: number }; facing?: number[] }[] } | undefined;
  const u = view?.units?.find((v) => v.uid === p.unit);
  if (u?.base === undefined) return undefined;
  return { kind: u.base.shape, length: u.base.length, width: u.base.width, angle: p.facing ?? u.facing?.[p.model] ?? 0 };
}

/** An action that names no point but places models (a charge: a Move naming its target; a
 * Disembark the engine places): its preview drawn and a choice to make it or cancel, as for a
 * Move dragged to a point. False when it has no preview (it is made at once, as before). */
async function previewFirst(a: Action): Promise<boolean> {
  let r: CheckOut;
  try {
    r = await call<CheckOut>("POST", `/api/play/games/${gameId}/check`, { action: a });
  } catch {
    return false; // the action's own answer says what is wrong
  }
  if (!r.ok || r.preview === undefined || !r.preview.placements.length) return false;
  confirming = { action: a, preview: r.preview, revision: snap?.revision ?? -1 };
  placing = null;
  placingModels = null;
  const charge = a.kind === "move" && typeof a.engage === "number";
  $("preview-confirm-text").textContent = charge
    ? `Charge ${unitLabel(a.engage as number)} with ${unitLabel(a.unit as number)}: the ghost bases show where its models end in Base Contact.`
    : `${String(a.kind)}${typeof a.unit === "number" ? ` ${unitLabel(a.unit)}` : ""}: the ghost bases show where its models end.`;
  $("preview-make").textContent = charge ? "Make the charge" : `Make the ${String(a.kind)}`;
  $("refusal").textContent = "✓ legal";
  $("refusal").className = "refusal ok";
  render();
  return true;
}

function clearPreview(): void {
  board.clearPreview();
  $("preview-note").textContent = "";
  $("preview-note").hidden = true;
}

function select(u: number): void {
  board.selected = board.selected === u && snap?.decision?.actions.some((a) => a.spot) ? null : u;
  board.targets.clear();
  placing = null;
  confirming = null;
  spotPick = null;
  render();
}

function tapSpot(key: string): void {
  const d = snap?.decision;
  if (!d || busy) return;
  const acts = spotGroups.get(key) ?? [];
  if (acts.length === 1) {
    spotPick = null;
    void choose(acts[0].action, acts[0].preview === true);
    return;
  }
  spotPick = key;
  render();
}

/** Make a listed action, or first place it (a point, each model) or show its odds or its
 * preview. `previews`: the server may preview it (its listing says so); no other action is
 * checked before it is made (a Pass goes at once, with no `/check`). */
async function choose(a: Action, previews: boolean): Promise<void> {
  confirming = null;
  if (modelPositions(a) !== null) {
    startPlacingModels(a);
    return;
  }
  const param = pointParam(a);
  if (param !== null) {
    startPlacing(a, param);
    return;
  }
  if (a.kind === "attack") {
    await showOdds(a);
    return;
  }
  if (previews && (await previewFirst(a))) return;
  await act(a);
}

function startPlacing(a: Action, param: string): void {
  placing = { action: a, param };
  placingModels = null;
  $("place-help").textContent = "Drag the dashed ring on the board (or tap a point) to place; the rules are checked as you move.";
  $("place-reach").hidden = false;
  $("place-models").replaceChildren();
  const [x, y] = pointOf(a, param);
  $("place").hidden = false;
  board.clearOverlay();
  const mover = typeof a.unit === "number" ? a.unit : typeof a.fig === "number" ? a.fig : null;
  board.showGhost(x, y, mover !== null ? unitRadius(mover) : 0.6);
  $("refusal").textContent = `place ${a.kind}: drag the ring`;
  const live = debounce((px: number, py: number) => void checkPoint(px, py), 120);
  const fig = typeof a.fig === "number" ? a.fig : null;
  $("place").dataset.fig = fig === null ? "" : String(fig);
  board.onPoint = (px, py, final) => {
    const touch = fig !== null ? contactPoint(fig, px, py) : null;
    if (touch !== null) [px, py] = [touch.x, touch.y];
    // the ring stands where the point checked is (a tap beside the ring, too)
    board.showGhost(px, py, mover !== null ? unitRadius(mover) : 0.6);
    $("place-help").textContent = touch !== null
      ? `Snapped into base contact with ${touch.label} (contact is within 0.01", L463: a figure touching its own Monstrously Huge vehicle may push it, L1401). Drag it further away to stand apart.`
      : "Drag the dashed ring on the board (or tap a point) to place; a figure dropped close to another one snaps into base contact. The rules are checked as you move.";
    clearPreview(); // the places shown were for the old point
    if (final) void checkPoint(px, py);
    else live(px, py);
  };
  void checkPoint(x, y);
}

/** A single figure dropped close to another figure's base (a quarter inch, or 12 px on the
 * screen, whichever is more, at most an inch): the point where it stands in base contact with it instead
 * (contact is within 0.01", 004 L463, too fine for a finger; a push needs it, L1401), 0.004"
 * apart; null when no other base is that close. No rule is decided here: the server checks
 * the point as any other. */
function contactPoint(fig: number, x: number, y: number): { x: number; y: number; label: string } | null {
  const pieces = snap?.scene?.pieces ?? [];
  const me = pieces.find((p) => p.unit === fig);
  const r = me?.r ?? unitRadius(fig);
  const tol = Math.min(Math.max(0.25, board.pixels(10)), 1);
  let best: { x: number; y: number; label: string } | null = null;
  let bestGap = Infinity;
  for (const p of pieces) {
    if (p.unit === fig) continue;
    const d = Math.hypot(x - p.x, y - p.y);
    const gap = d - r - p.r;
    // near its edge, outside or a little inside (not dropped onto its centre)
    if (Math.abs(gap) > tol || d < 1e-6 || Math.abs(gap) >= bestGap) continue;
    const k = (r + p.r + 0.004) / d;
    best = { x: p.x + (x - p.x) * k, y: p.y + (y - p.y) * k, label: p.label };
    bestGap = Math.abs(gap);
  }
  return best;
}

/** Place each model of a positions action: drag its ring on the board or type its x and y; the
 * server checks the whole placement as it changes and names the rule that refuses it. */
function startPlacingModels(a: Action): void {
  const points = modelPositions(a);
  if (points === null) return;
  placing = null;
  placingModels = { action: a, points, start: points.map((p) => [p[0], p[1]]) };
  $("place-help").textContent = "Drag each numbered ring on the board, or type a model's x and y (inches); the rules are checked as you change them.";
  $("place").hidden = false;
  $("place-reach").hidden = true;
  board.clearOverlay();
  board.onPoint = null;
  const uid = typeof a.unit === "number" ? a.unit : null;
  const r = uid !== null ? unitRadius(uid) : 0.6;
  board.showHandles(points, r);
  const form = $("place-models");
  form.replaceChildren();
  const inputs: HTMLInputElement[][] = [];
  points.forEach((p, i) => {
    const row = el("div", "", { class: "model-row", "data-model": String(i) });
    row.appendChild(el("span", `model ${i + 1}`));
    const pair = [0, 1].map((k) => {
      const input = el("input", "", { type: "number", step: "0.1", inputmode: "decimal", value: p[k].toFixed(2), "aria-label": `model ${i + 1} ${k === 0 ? "x" : "y"}`, class: `model-${k === 0 ? "x" : "y"}` });
      input.addEventListener("change", () => {
        const v = Number(input.value);
        if (!Number.isFinite(v) || placingModels === null) return;
        placingModels.points[i][k] = v;
        keepStart(i);
        board.moveHandle(i, placingModels.points[i][0], placingModels.points[i][1]);
        void checkModels();
      });
      row.appendChild(input);
      return input;
    });
    inputs.push(pair);
    form.appendChild(row);
  });
  const live = debounce(() => void checkModels(), 150);
  board.onHandle = (i, x, y, final) => {
    if (placingModels === null) return;
    placingModels.points[i] = [Math.round(x * 1e4) / 1e4, Math.round(y * 1e4) / 1e4];
    keepStart(i);
    inputs[i][0].value = placingModels.points[i][0].toFixed(2);
    inputs[i][1].value = placingModels.points[i][1].toFixed(2);
    if (final) void checkModels();
    else live();
  };
  $("refusal").textContent = `place ${a.kind}: drag each numbered ring (or type its x and y)`;
  void checkModels();
}

/** A model put back within 0.01" of where it started (the form shows 2 decimals) is where it
 * started, exactly: the rules count the models moved (§4.2 IV "the least number of models"). */
function keepStart(i: number): void {
  if (placingModels === null) return;
  const [x, y] = placingModels.points[i];
  const [sx, sy] = placingModels.start[i];
  if (Math.hypot(x - sx, y - sy) < 0.01) placingModels.points[i] = [sx, sy];
}

function placedModels(): Action | null {
  if (placingModels === null) return null;
  return { ...placingModels.action, positions: placingModels.points.map((p) => [p[0], p[1]]) };
}

// Checks overlap while a ring is dragged or a value typed: only the answer to the latest one is
// shown (#place[data-checking] is "1" until it arrives).
let modelCheck = 0;

async function checkModels(): Promise<void> {
  const a = placedModels();
  if (a === null) return;
  const mine = ++modelCheck;
  $("place").dataset.checking = "1";
  let r: CheckOut;
  try {
    r = await call<CheckOut>("POST", `/api/play/games/${gameId}/check`, { action: a });
  } catch (e) {
    r = { ok: false, reason: e instanceof ApiFailure ? bookNames(e.body.detail) : String(e), rule: "" };
  }
  if (mine !== modelCheck || placingModels === null) return;
  $("refusal").textContent = r.ok ? "✓ legal" : bookNames(`✗ ${r.reason}${r.rule ? ` [${r.rule}]` : ""}`);
  $("refusal").className = `refusal ${r.ok ? "ok" : "bad"}`;
  board.markHandles(r.ok);
  $("place").dataset.checking = "0";
}

function placed(): Action | null {
  if (placingModels !== null) return placedModels();
  const g = board.ghostAt();
  if (placing === null || g === null) return null;
  return withPoint(placing.action, placing.param, g[0], g[1]);
}

async function checkPoint(x: number, y: number): Promise<void> {
  if (placing === null) return;
  const a = withPoint(placing.action, placing.param, x, y);
  const ok = await checkLive(a);
  board.markGhost(ok);
}

async function showReach(): Promise<void> {
  const a = placed();
  if (a === null || placing === null || snap?.scene === null || snap === null) return;
  const sc = snap.scene as Scene;
  const [x, y] = pointOf(placing.action, placing.param); // around the listed candidate
  const span = Math.min(Math.max(sc.width, sc.height) / 2, 14);
  const box = [Math.max(0, x - span), Math.max(0, y - span), Math.min(sc.width, x + span), Math.min(sc.height, y + span)];
  $("refusal").textContent = "asking the rules where it may go…";
  const r = await call<{ points: number[][]; step: number }>("POST", `/api/play/games/${gameId}/reach`, { action: a, param: placing.param, box });
  board.showReach(r.points, r.step);
  $("refusal").textContent = `${r.points.length} reachable points shaded`;
}

async function showOdds(a: Action): Promise<void> {
  const box = $("odds");
  box.replaceChildren(el("p", "computing the exact odds…", { class: "muted" }));
  board.targets = new Set(Array.isArray(a.targets) ? (a.targets as [string, number][]).map((t) => t[1]) :
    typeof a.target === "number" ? [a.target] : []);
  if (snap?.scene) board.draw(snap.scene);
  let out: { targets: OddsTarget[] } | null = null;
  // what a perk may move after the dice (Knockback, Force, Grapple ...): the check's preview
  // note, in the engine's words (session 34); asked beside the odds
  const pushes = call<CheckOut>("POST", `/api/play/games/${gameId}/check`, { action: a }).catch(() => null);
  try {
    out = await call<{ targets: OddsTarget[] } | null>("POST", `/api/play/games/${gameId}/odds`, { action: a });
  } catch {
    out = null;
  }
  const checked = await pushes;
  box.replaceChildren();
  const refused = (out as { refused?: string } | null)?.refused;
  if (refused) box.appendChild(el("p", `✗ ${refused}`, { class: "refusal bad" }));
  for (const t of out?.targets ?? []) {
    const who = `${t.weapons?.length ? `${t.weapons.join(", ")}${t.models ? ` (${t.models} model${t.models === 1 ? "" : "s"})` : ""} → ` : ""}${t.label ?? unitLabel(t.target)}`;
    const sit = t.situation;
    const bits = sit ? [sit.melee ? "in Melee" : null, sit.cover ? `cover +${sit.cover_bonus ?? 1}` : "no cover",
      sit.melee ? null : sit.within_half_range ? "within half range" : "beyond half range",
      typeof sit.distance === "number" && !sit.melee ? `${sit.distance.toFixed(1)}"` : null].filter((b) => b !== null) : [];
    if (t.hit !== undefined) {
      const cover = sit?.cover_kind && sit.cover_kind !== "none" ? ` · ${sit.cover_kind} cover (misses ${pct(t.cover_miss ?? 0)})` : " · no cover";
      const line = el("p", `${who}: hit ${pct(t.hit)}, critical ${pct(t.crit ?? 0)}, expected injury ${(t.expected_injury ?? 0).toFixed(2)}, defeated ${pct(t.defeated ?? 0)}${cover} (exact, before reactions)`, { class: "odds-line" });
      line.dataset.cover = String(Boolean(sit?.cover));
      box.appendChild(line);
      continue;
    }
    const line = el("p", t.error ? `${who}: no odds (${t.error})` :
      `${who}: expected HP lost ${t.expected_hp_lost?.toFixed(2)}, models slain ${t.expected_models_slain?.toFixed(2)}, wipe ${pct(t.wipe_chance ?? 0)}${t.exact ? " (exact)" : " (sampled)"}${bits.length ? ` · ${bits.join(", ")}` : ""}`,
      { class: "odds-line" });
    if (sit) {
      line.dataset.cover = String(Boolean(sit.cover));
      line.dataset.halfRange = String(Boolean(sit.within_half_range));
    }
    box.appendChild(line);
  }
  const note = checked?.ok === true ? checked.preview?.note : undefined;
  if (note !== undefined) {
    const after = el("p", "", { class: "push-note", id: "push-note" });
    after.appendChild(el("b", "After the dice, a unit may move: "));
    for (const [k, said] of note.split("; ").entries()) {
      if (k > 0) after.appendChild(document.createElement("br"));
      after.appendChild(document.createTextNode(bookNames(said)));
    }
    box.appendChild(after);
  }
  const go = el("button", "Confirm the attack", { type: "button", id: "confirm-attack" });
  go.addEventListener("click", () => void act(a));
  box.appendChild(go);
}

// While an action is on its way, the decision's buttons are disabled (a press would be
// dropped), so nobody presses a button that does nothing.
// ``body[data-busy]`` says so to scripts and tests: a page whose action is on its way still
// shows the decision it answered until the answer's refresh arrives.
function setBusy(value: boolean): void {
  busy = value;
  document.body.dataset.busy = value ? "1" : "0";
  for (const b of document.querySelectorAll<HTMLButtonElement>("#actions button, #take-default, #take-rest, #confirm-attack, #preview-make")) {
    b.disabled = value;
  }
}

/** The last action found no server (its sentence is on screen until the stream is back). */
let unreachable = false;
/** The stream said the server is stopping; the live mark keeps saying so until it is back. */
let stopped = false;

async function act(a: Action | null, path = `/api/play/games/${gameId}/actions`, body: unknown = { action: a }): Promise<void> {
  if (busy) return;
  setBusy(true);
  liveCheck++; // an answer still on its way is for the action sent
  clearPreview();
  try {
    await call("POST", path, body);
    $("refusal").textContent = "";
    placing = null;
    placingModels = null;
    confirming = null;
    spotPick = null;
    board.targets.clear();
    await refresh();
    // the live stream may have brought the new snapshot while the action was on its way (and
    // drawn it with the placement still open): draw the page again without it
    render();
  } catch (e) {
    $("refusal").textContent = e instanceof ApiFailure ? bookNames(`✗ ${e.body.detail}`) : String(e);
    $("refusal").className = "refusal bad";
    unreachable = e instanceof ApiFailure && e.status === 0;
  } finally {
    setBusy(false);
    if (snap !== null) document.body.dataset.revision = String(snap.revision);
  }
}

$("take-default").addEventListener("click", () => {
  if (snap?.decision?.default) void act(snap.decision.default);
});
$("take-rest").addEventListener("click", () => {
  const d = snap?.decision;
  if (d?.rest !== undefined) void act(d.default, `/api/play/games/${gameId}/rest`, { kind: d.kind });
});
$("undo").addEventListener("click", () => {
  void call("POST", `/api/play/games/${gameId}/undo`).then(() => {
    known = 0;
    events = [];
    return refresh();
  }).catch((e: unknown) => {
    $("refusal").textContent = e instanceof ApiFailure ? bookNames(e.body.detail) : String(e);
  });
});
$("place-confirm").addEventListener("click", () => {
  const a = placed();
  if (a !== null) void act(a);
});
$("place-cancel").addEventListener("click", () => {
  placing = null;
  placingModels = null;
  liveCheck++;
  $("refusal").textContent = "";
  render();
});
$("place-reach").addEventListener("click", () => void showReach());
$("preview-make").addEventListener("click", () => {
  if (confirming !== null) void act(confirming.action);
});
$("preview-cancel").addEventListener("click", () => {
  confirming = null;
  $("refusal").textContent = "";
  render();
});
board.onPiece = (u, model) => {
  // a casualty choice's own order: a tap on one of the unit's numbered models picks it (§5.11)
  const pause = snap === null ? null : casualtyPause(snap);
  if (pause !== null && snap?.decision?.kind === "casualties" && u === pause.target && model !== undefined && pause.candidates.includes(model)) {
    pickCasualty(model);
    return;
  }
  select(u);
};
board.onSpot = (key) => tapSpot(key);

function share(): void {
  const mine = remembered().find((g) => g.id === gameId);
  const box = $("share");
  box.replaceChildren();
  if (mine === undefined) return;
  for (const [label, url] of Object.entries(mine.links)) {
    const row = el("label", `${label} link`);
    row.appendChild(el("input", "", { value: url, readonly: "" }));
    box.appendChild(row);
  }
}

function live(): void {
  // Server-sent events: the browser reconnects by itself (after a drop, a refresh, a restart).
  const source = new EventSource(`/api/play/games/${gameId}/stream?token=${encodeURIComponent(token)}`);
  source.addEventListener("change", (ev) => {
    const rev = (JSON.parse((ev as MessageEvent<string>).data) as { revision: number }).revision;
    $("live").textContent = "● live";
    if (unreachable) {
      // the server is back: "did not answer" no longer holds (it stayed on screen, session 37)
      unreachable = false;
      $("refusal").textContent = "";
    }
    if (snap === null || rev !== snap.revision) void refresh();
  });
  // the server is stopping (Ctrl+C): its stream says so as it ends, then the browser retries
  source.addEventListener("stopping", () => {
    stopped = true;
    $("live").textContent = "○ the server stopped: reconnecting";
  });
  source.onerror = () => {
    if (!stopped) $("live").textContent = "○ reconnecting";
  };
  source.onopen = () => { stopped = false; };
}

share();
void refresh().then(live);
