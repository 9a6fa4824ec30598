// The board of the play pages: a scene from the server (web/play/scenes.py) drawn to scale in
// SVG (1 unit = 1 inch), with pan and zoom, pieces to select, a ghost ring to drag and the
// reachable points the server's check accepted. No rule is decided here.

import { bookNames } from "./common.js";

const NS = "http://www.w3.org/2000/svg";
const COLOURS = ["#1f5fbf", "#c0392b", "#2e8b57", "#8e44ad", "#d68910", "#17a2b8"];

export interface Area {
  kind: string;
  name: string;
  points: number[][];
  tags?: string[];
}

export interface Piece {
  unit: number | null;
  side: number | null;
  label: string;
  x: number;
  y: number;
  r: number;
  hp?: number | null;
  title?: string;
  letter?: string; // a short mark drawn on the piece (a grid game's character letter)
  model?: number; // the model's index in its unit, where a tap on it may pick it (a casualty)
  facing?: number[]; // a unit vector: the piece's front (Collision's facing, a WARSURGE base's)
  // an oval or rectangular base (WARSURGE §1.3): length along the facing, width across, inches;
  // angle in degrees counter-clockwise from +x. Without it the piece is the disc of radius r.
  shape?: { kind: string; length: number; width: number; angle: number };
  tags?: string[]; // extra classes: active, done, reserved, statuses ...
}

export interface Token { x: number; y: number; kind: string; label: string; title?: string }
export interface Ring { unit: number; x: number; y: number; r: number; kind: string; label?: string }

/** A model's planned place (the server's preview of a checked action): its base outline at
 * (x, y), drawn with a thin line from where it stands (`from`; null: it was not on the table). */
export interface GhostBase {
  unit: number;
  model: number;
  from: number[] | null;
  x: number;
  y: number;
  r: number;
  shape?: { kind: string; length: number; width: number; angle: number };
}

/** A point of the board a listed action is about (server's presenter), with its class. */
export interface Spot { x: number; y: number; mark: string; actor?: number }

export interface Scene {
  width: number;
  height: number;
  areas: Area[];
  pieces: Piece[];
  off_table?: { unit: number; side: number; label: string; loc: string }[];
  grid?: { cols: number; rows: number }; // a board of squares, 1 unit each
  tokens?: Token[];
  rings?: Ring[]; // ranges drawn around the selected piece
  labels?: Record<string, string>; // piece / actor id -> label
  side_colours?: string[]; // a side named by a colour ("Red") is drawn in it
}

function svgEl<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>): SVGElementTagNameMap[K] {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/** A piece's mark (a Collision letter, a WarEngine figure number) waiting to be placed. */
interface Mark { x: number; y: number; r: number; text: string; first: boolean; unit: number | null }

/** A unit's name waiting to be placed: the box its models stand in (board inches). */
interface UnitLabel { x0: number; y0: number; x1: number; y1: number; text: string; first: boolean }

interface Box { x0: number; y0: number; x1: number; y1: number }

function overlaps(a: Box, b: Box): boolean {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

/** Whether a box covers any part of a disc. */
function coversDisc(b: Box, d: { x: number; y: number; r: number }): boolean {
  const nx = Math.min(Math.max(d.x, b.x0), b.x1);
  const ny = Math.min(Math.max(d.y, b.y0), b.y1);
  return Math.hypot(d.x - nx, d.y - ny) < d.r;
}

/** What a preview says beside its ghosts: a charge's target unit (its models ringed) and a
 * label drawn by the ghosts (e.g. "Charge Troopers"). */
export interface PreviewOpts { target?: number; label?: string }

/** The smallest radius a ghost base is ringed with, in screen pixels (a phone's board). */
const PREVIEW_MIN_PX = 7;

/** The smallest mark a phone can read, in screen pixels. */
const MIN_MARK_PX = 10;

export class Board {
  private view = { x: 0, y: 0, w: 10, h: 10 };
  private scene: Scene | null = null;
  private flip: SVGGElement;
  private layer: SVGGElement;
  private markLayer: SVGGElement;
  private marks: Mark[] = [];
  private unitLabels: UnitLabel[] = [];
  private discs: { x: number; y: number; r: number }[] = [];
  // marks that did not fit, by unit (placeMarks)
  private hiddenOf = new Map<number, number>();
  // the view before focusMarks zoomed in, and the view it zoomed to
  private focused: { before: { x: number; y: number; w: number; h: number }; at: { x: number; y: number; w: number; h: number } } | null = null;
  // marks drawn beside their disc, not in it, by unit (placeMarks)
  private besideOf = new Map<number, number>();
  private overlay: SVGGElement;
  private spotLayer: SVGGElement;
  // the planned places of a checked action (ghost bases and paths), under the drag ring
  private previewLayer: SVGGElement;
  private preview: { bases: GhostBase[]; opts: PreviewOpts } | null = null;
  private ghost: SVGCircleElement | null = null;
  // one ring per model while the player places a unit's models (a positions decision)
  private handles: SVGGElement[] = [];
  selected: number | null = null;
  targets = new Set<number>();
  onPiece: (unit: number, model?: number) => void = () => undefined;
  onPoint: ((x: number, y: number, final: boolean) => void) | null = null;
  onSpot: (key: string) => void = () => undefined;
  /** A model ring dragged (positions decisions): its index and where it is now. */
  onHandle: ((i: number, x: number, y: number, final: boolean) => void) | null = null;

  constructor(private svg: SVGSVGElement) {
    // y grows to the north (the board's coordinates); the flip puts north at the top
    this.flip = svgEl("g", {});
    this.layer = svgEl("g", {});
    this.overlay = svgEl("g", {});
    this.spotLayer = svgEl("g", {});
    this.previewLayer = svgEl("g", { class: "preview" });
    this.markLayer = svgEl("g", { class: "marks" });
    this.flip.appendChild(this.layer);
    this.flip.appendChild(this.markLayer);
    this.flip.appendChild(this.spotLayer);
    this.flip.appendChild(this.previewLayer);
    this.flip.appendChild(this.overlay);
    svg.appendChild(this.flip);
    this.panAndZoom();
  }

  /** Draw a scene (keeps the current zoom when the board size is unchanged). */
  draw(scene: Scene): void {
    const resized = this.scene === null || this.scene.width !== scene.width || this.scene.height !== scene.height;
    this.scene = scene;
    this.flip.setAttribute("transform", `translate(0 ${scene.height}) scale(1 -1)`);
    if (resized) {
      // the picture keeps the board's proportions (a long thin board is not drawn in a tall box)
      this.svg.style.aspectRatio = `${Math.max(scene.width / scene.height, 0.5)}`;
      this.svg.style.fontSize = `${Math.max(scene.width, scene.height) / 45}px`;
      this.fit();
    }
    this.layer.replaceChildren();
    this.layer.appendChild(svgEl("rect", { x: 0, y: 0, width: scene.width, height: scene.height, class: "edge" }));
    for (const a of scene.areas) {
      const poly = svgEl("polygon", {
        points: a.points.map((p) => `${p[0]},${p[1]}`).join(" "),
        class: [a.kind, ...(a.tags ?? [])].join(" "),
      });
      // a Deployment Zone a side has taken: tinted in that side's colour (§3.6)
      const owner = a.kind === "zone" ? zoneOwner(a) : null;
      if (owner !== null && scene.side_colours?.[owner] !== undefined) poly.style.fill = sideColour(scene, owner);
      const title = svgEl("title", {});
      title.textContent = `${a.name}${a.tags && a.tags.length ? ` (${a.tags.join(", ")})` : ""}`;
      poly.appendChild(title);
      this.layer.appendChild(poly);
      if (a.tags?.includes("named") && a.points.length) {
        // a piece a power made (a WarEngine Wall of Fire): its name written on it
        const cx = a.points.reduce((s, p) => s + p[0], 0) / a.points.length;
        const cy = a.points.reduce((s, p) => s + p[1], 0) / a.points.length;
        // written along its longest side (a wall 12" by 1" reads along the wall)
        let angle = 0;
        let longest = 0;
        a.points.forEach((p, i) => {
          const q = a.points[(i + 1) % a.points.length];
          const len = Math.hypot(q[0] - p[0], q[1] - p[1]);
          if (len > longest) {
            longest = len;
            angle = (Math.atan2(q[1] - p[1], q[0] - p[0]) * 180) / Math.PI;
          }
        });
        if (angle > 90) angle -= 180;
        if (angle <= -90) angle += 180;
        const label = this.text(cx, cy, a.name, "area-label");
        label.setAttribute("transform", `translate(${cx} ${cy}) rotate(${angle}) scale(1 -1)`);
        this.layer.appendChild(label);
      }
    }
    if (scene.grid) {
      const d: string[] = [];
      for (let x = 0; x <= scene.grid.cols; x++) d.push(`M${x} 0V${scene.grid.rows}`);
      for (let y = 0; y <= scene.grid.rows; y++) d.push(`M0 ${y}H${scene.grid.cols}`);
      this.layer.appendChild(svgEl("path", { d: d.join(""), class: "grid" }));
    }
    for (const t of scene.tokens ?? []) {
      const g = svgEl("g", { class: `token ${t.kind}`, "data-token": t.kind });
      const s = 0.3;
      g.appendChild(svgEl("polygon", { points: `${t.x},${t.y + s} ${t.x + s},${t.y} ${t.x},${t.y - s} ${t.x - s},${t.y}` }));
      const title = svgEl("title", {});
      title.textContent = t.title ?? t.kind;
      g.appendChild(title);
      g.appendChild(this.text(t.x, t.y, t.label, "token-label"));
      this.layer.appendChild(g);
    }
    if (this.selected !== null) {
      for (const r of (scene.rings ?? []).filter((q) => q.unit === this.selected)) {
        const c = svgEl("circle", { cx: r.x, cy: r.y, r: r.r, class: `ring ${r.kind}` });
        const title = svgEl("title", {});
        title.textContent = r.label ?? r.kind;
        c.appendChild(title);
        this.layer.appendChild(c);
      }
    }
    const named = new Map<number, UnitLabel>();
    this.marks = [];
    this.discs = scene.pieces.map((p) => ({ x: p.x, y: p.y, r: p.r }));
    for (const p of scene.pieces) {
      const cls = ["piece", ...(p.tags ?? [])];
      if (p.unit !== null && p.unit === this.selected) cls.push("selected");
      if (p.unit !== null && this.targets.has(p.unit)) cls.push("target");
      const paint = {
        class: cls.join(" "),
        fill: scene.side_colours?.[p.side ?? 0] ?? COLOURS[(p.side ?? 0) % COLOURS.length],
        "data-unit": p.unit ?? "",
      };
      const s = p.shape;
      const turn = s ? `rotate(${s.angle} ${p.x} ${p.y})` : "";
      const c = !s
        ? svgEl("circle", { cx: p.x, cy: p.y, r: p.r, ...paint })
        : s.kind === "oval"
          ? svgEl("ellipse", { cx: p.x, cy: p.y, rx: s.length / 2, ry: s.width / 2, transform: turn, ...paint })
          : svgEl("rect", {
            x: p.x - s.length / 2, y: p.y - s.width / 2, width: s.length, height: s.width,
            transform: turn, ...paint,
          });
      const title = svgEl("title", {});
      title.textContent = p.title ?? p.label;
      c.appendChild(title);
      c.addEventListener("click", (ev) => {
        ev.stopPropagation();
        if (p.unit !== null) this.onPiece(p.unit, p.model);
      });
      this.layer.appendChild(c);
      if (p.facing && p.facing.length === 2) {
        const reach = s ? s.length / 2 : p.r; // a shaped base's front is half its length away
        this.layer.appendChild(svgEl("line", {
          x1: p.x + p.facing[0] * reach * 0.45, y1: p.y + p.facing[1] * reach * 0.45,
          x2: p.x + p.facing[0] * reach * 1.25, y2: p.y + p.facing[1] * reach * 1.25, class: "facing",
        }));
      }
      if (p.letter !== undefined) {
        const first = p.unit !== null && (p.unit === this.selected || this.targets.has(p.unit));
        this.marks.push({ x: p.x, y: p.y, r: p.r, text: p.letter, first, unit: p.unit });
      } else if (p.unit !== null) {
        // the unit's name, placed with the marks (above every disc, clear of the unit)
        const box = named.get(p.unit);
        if (box === undefined) {
          const first = p.unit === this.selected || this.targets.has(p.unit) || (p.tags ?? []).includes("active");
          named.set(p.unit, { x0: p.x - p.r, y0: p.y - p.r, x1: p.x + p.r, y1: p.y + p.r, text: p.label.split(": ").pop() ?? p.label, first });
        } else {
          box.x0 = Math.min(box.x0, p.x - p.r);
          box.y0 = Math.min(box.y0, p.y - p.r);
          box.x1 = Math.max(box.x1, p.x + p.r);
          box.y1 = Math.max(box.y1, p.y + p.r);
        }
      }
    }
    this.unitLabels = [...named.values()];
    this.placeMarks();
  }

  /** Board units per screen pixel at the current zoom (0 before the board is laid out). */
  private unitsPerPixel(): number {
    const width = this.svg.getBoundingClientRect().width;
    if (width <= 0) return 0;
    // the viewBox is fitted into the element keeping its proportions (xMidYMid meet)
    const height = this.svg.getBoundingClientRect().height || width;
    return Math.max(this.view.w / width, this.view.h / height);
  }

  /** `n` screen pixels in board inches at the current zoom (0 before the board is laid out). */
  pixels(n: number): number {
    return n * this.unitsPerPixel();
  }

  /** Draw the pieces' marks and the units' names so that each one drawn is readable and none
   * touches another: a mark inside its disc when the disc is large enough on screen, else
   * beside it (above, below, right or left) in a readable size; a unit's name above its
   * models, else below, right or left of them, clear of every disc where it can be, on a
   * light halo and over the discs where it cannot. A mark or name with no free place is
   * skipped (the selected unit and the targets are placed first; zooming in shows the rest,
   * and every piece keeps its name in its tooltip). Called after each draw and zoom. */
  private placeMarks(): void {
    this.markLayer.replaceChildren();
    const upp = this.unitsPerPixel();
    const min = upp > 0 ? MIN_MARK_PX * upp : 0;
    const boxes: Box[] = [];
    // a gap of a third of a character around each text: "10" and "8" never read as "108"
    const padded = (b: Box, size: number): Box => {
      const g = size * 0.34;
      return { x0: b.x0 - g, y0: b.y0 - g * 0.4, x1: b.x1 + g, y1: b.y1 + g * 0.4 };
    };
    const ordered = [...this.marks.filter((m) => m.first), ...this.marks.filter((m) => !m.first)];
    let hidden = 0;
    this.hiddenOf.clear();
    this.besideOf.clear();
    for (const m of ordered) {
      const inside = m.r * (m.text.length > 1 ? 0.95 : 1.25);
      const size = inside >= min ? inside : min;
      const w = size * 0.62 * m.text.length;
      const gap = size * 0.55;
      // inside the disc, else just above, below, right or left of it (north is up on screen)
      const places: [number, number][] = inside >= min
        ? [[m.x, m.y]]
        : [[m.x, m.y + m.r + gap], [m.x, m.y - m.r - gap], [m.x + m.r + w / 2 + size * 0.2, m.y], [m.x - m.r - w / 2 - size * 0.2, m.y]];
      const free = places
        .map(([cx, cy]) => ({ cx, cy, box: { x0: cx - w / 2, y0: cy - size / 2, x1: cx + w / 2, y1: cy + size / 2 } }))
        .find(({ box }) => !boxes.some((b) => overlaps(padded(box, size), b)));
      if (free === undefined) {
        hidden++;
        if (m.unit !== null) this.hiddenOf.set(m.unit, (this.hiddenOf.get(m.unit) ?? 0) + 1);
        continue;
      }
      boxes.push(padded(free.box, size));
      if (inside < min && m.unit !== null) this.besideOf.set(m.unit, (this.besideOf.get(m.unit) ?? 0) + 1);
      const t = this.text(free.cx, free.cy, m.text, inside >= min ? "piece-letter" : "piece-letter beside");
      t.style.fontSize = `${size.toFixed(3)}px`;
      this.markLayer.appendChild(t);
    }
    this.svg.dataset.hiddenMarks = String(hidden);
    const board = this.scene === null ? 0 : Math.max(this.scene.width, this.scene.height) / 45;
    const size = Math.max(board, upp > 0 ? MIN_MARK_PX * upp : 0);
    let hiddenLabels = 0;
    const labels = [...this.unitLabels.filter((l) => l.first), ...this.unitLabels.filter((l) => !l.first)];
    for (const l of labels) {
      const t = this.text(0, 0, l.text, "unit-label");
      t.style.fontSize = `${size.toFixed(3)}px`;
      this.markLayer.appendChild(t);
      // its width as drawn (board inches), an estimate where the page has no layout
      const drawn = t.getComputedTextLength();
      const w = drawn > 0 ? drawn : size * 0.6 * l.text.length;
      const cx = (l.x0 + l.x1) / 2;
      const cy = (l.y0 + l.y1) / 2;
      const gap = size * 0.3;
      const places: [number, number][] = [
        [cx, l.y1 + gap + size / 2], [cx, l.y0 - gap - size / 2],
        [l.x1 + gap + w / 2, cy], [l.x0 - gap - w / 2, cy],
        [l.x1 + gap + w / 2, l.y1 + gap + size / 2], [l.x0 - gap - w / 2, l.y1 + gap + size / 2],
        [l.x1 + gap + w / 2, l.y0 - gap - size / 2], [l.x0 - gap - w / 2, l.y0 - gap - size / 2],
      ];
      const candidates = places.map(([x, y]) => ({ x, y, box: { x0: x - w / 2, y0: y - size / 2, x1: x + w / 2, y1: y + size / 2 } }))
        .filter(({ box }) => !boxes.some((b) => overlaps(padded(box, size), b)));
      const place = candidates.find(({ box }) => !this.discs.some((d) => coversDisc(box, d))) ?? candidates[0];
      if (place === undefined) {
        hiddenLabels++;
        t.remove();
        continue;
      }
      boxes.push(padded(place.box, size));
      t.setAttribute("transform", `translate(${place.x} ${place.y}) scale(1 -1)`);
    }
    this.svg.dataset.hiddenLabels = String(hiddenLabels);
  }

  /** Centred text at a board point (the flip undone so it reads the right way up). */
  private text(x: number, y: number, value: string, cls: string): SVGTextElement {
    const t = svgEl("text", { x: 0, y: 0, class: cls, transform: `translate(${x} ${y}) scale(1 -1)`, "text-anchor": "middle", "dominant-baseline": "central" });
    t.textContent = value;
    return t;
  }

  /** Highlight the board points the pending decision's actions are about; a tap on one
   * calls `onSpot` with its key. `cell`: the side of a square (grid boards), else discs. */
  showSpots(spots: { key: string; x: number; y: number; mark: string; count: number }[], cell: number | null): void {
    this.spotLayer.replaceChildren();
    for (const s of spots) {
      const attrs = { class: `spot ${s.mark}`, "data-spot": s.key, "data-count": s.count };
      const node = cell !== null
        ? svgEl("rect", { ...attrs, x: s.x - cell / 2 + 0.06, y: s.y - cell / 2 + 0.06, width: cell - 0.12, height: cell - 0.12, rx: 0.12 })
        : svgEl("circle", { ...attrs, cx: s.x, cy: s.y, r: 0.7 });
      const title = svgEl("title", {});
      title.textContent = `${s.mark}${s.count > 1 ? ` (${s.count} choices)` : ""}`;
      node.appendChild(title);
      node.addEventListener("click", (ev) => {
        ev.stopPropagation();
        this.onSpot(s.key);
      });
      this.spotLayer.appendChild(node);
    }
  }

  /** Zoom in on a unit, centred on its models, until every mark on them shows inside its disc
   * (a casualty choice's model numbers at a phone's width: those that did not fit were hidden,
   * session 38's walk; beside a disc in a crowd a number reads as its neighbour's), no closer
   * than its models and a margin. Only when some were hidden or beside. True when it zoomed. */
  focusMarks(unit: number): boolean {
    const ps = this.scene?.pieces.filter((p) => p.unit === unit) ?? [];
    if (this.scene === null || !ps.length || !(this.hiddenOf.get(unit) || this.besideOf.get(unit))) return false;
    const x0 = Math.min(...ps.map((p) => p.x - p.r));
    const x1 = Math.max(...ps.map((p) => p.x + p.r));
    // the board's y grows to the north; the picture's to the south (the flip)
    const y0 = this.scene.height - Math.max(...ps.map((p) => p.y + p.r));
    const y1 = this.scene.height - Math.min(...ps.map((p) => p.y - p.r));
    const margin = 2 * Math.max(...ps.map((p) => p.r)) + 1;
    const cx = (x0 + x1) / 2;
    const cy = (y0 + y1) / 2;
    const before = { ...this.view };
    let w = this.view.w;
    let h = this.view.h;
    for (let i = 0; i < 16 && (this.hiddenOf.get(unit) || this.besideOf.get(unit)); i++) {
      const k = 0.8;
      if (w * k < x1 - x0 + 2 * margin && h * k < y1 - y0 + 2 * margin) break;
      w *= k;
      h *= k;
      this.view = { x: cx - w / 2, y: cy - h / 2, w, h };
      this.apply();
    }
    this.focused = { before, at: { ...this.view } };
    return true;
  }

  /** Back to the view before `focusMarks` (once the choice is made), unless the player has
   * zoomed or panned since. */
  unfocus(): void {
    const f = this.focused;
    this.focused = null;
    if (f === null) return;
    const v = this.view;
    if (v.x === f.at.x && v.y === f.at.y && v.w === f.at.w && v.h === f.at.h) {
      this.view = f.before;
      this.apply();
    }
  }

  /** How many marks of a unit did not fit at this zoom (0: every one shows). */
  hiddenMarks(unit: number): number {
    return this.hiddenOf.get(unit) ?? 0;
  }

  /** The whole board in view. */
  fit(): void {
    if (this.scene === null) return;
    const pad = Math.max(this.scene.width, this.scene.height) * 0.03;
    this.view = { x: -pad, y: -pad, w: this.scene.width + 2 * pad, h: this.scene.height + 2 * pad };
    this.apply();
  }

  zoom(factor: number, cx?: number, cy?: number): void {
    const x = cx ?? this.view.x + this.view.w / 2;
    const y = cy ?? this.view.y + this.view.h / 2;
    const w = Math.min(Math.max(this.view.w * factor, 1), 2000);
    const h = (this.view.h * w) / this.view.w;
    this.view = { x: x - ((x - this.view.x) * w) / this.view.w, y: y - ((y - this.view.y) * h) / this.view.h, w, h };
    this.apply();
  }

  private apply(): void {
    const v = this.view;
    this.svg.setAttribute("viewBox", `${v.x} ${v.y} ${v.w} ${v.h}`);
    this.placeMarks();
    this.drawPreview();
  }

  /** Board coordinates (inches) of a pointer event. */
  point(ev: { clientX: number; clientY: number }): [number, number] {
    const m = this.flip.getScreenCTM();
    if (m === null) return [0, 0];
    const p = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(m.inverse());
    return [p.x, p.y];
  }

  /** A dashed ring the player drags to place a piece (class ok / bad after each check). */
  showGhost(x: number, y: number, r: number): void {
    if (this.ghost === null) {
      this.ghost = svgEl("circle", { class: "ghost", r });
      this.overlay.appendChild(this.ghost);
    }
    this.ghost.setAttribute("cx", String(x));
    this.ghost.setAttribute("cy", String(y));
    this.ghost.setAttribute("r", String(r));
  }

  markGhost(ok: boolean | null): void {
    if (this.ghost === null) return;
    this.ghost.setAttribute("class", ok === null ? "ghost" : ok ? "ghost ok" : "ghost bad");
  }

  ghostAt(): [number, number] | null {
    if (this.ghost === null) return null;
    return [Number(this.ghost.getAttribute("cx")), Number(this.ghost.getAttribute("cy"))];
  }

  clearOverlay(): void {
    this.overlay.replaceChildren();
    this.ghost = null;
    this.handles = [];
  }

  /** Draw where a checked action would put each model: its base as an outline in the preview
   * colour on a light casing, a dashed line from its start ending in an arrowhead at the
   * base's edge (no rule is decided here: the places are the server's plan). A base smaller
   * on screen than `PREVIEW_MIN_PX` gets a ring of that radius round it, so a phone shows it;
   * a charge (`opts.target`) rings the target's models and names it in a label by the ghosts.
   * Strokes, arrowheads, rings and the label keep their screen size at any zoom (redrawn on
   * each zoom). `svg[data-preview]` counts the bases drawn. */
  showPreview(bases: GhostBase[], opts: PreviewOpts = {}): void {
    this.preview = { bases, opts };
    this.drawPreview();
    this.svg.dataset.preview = String(bases.length);
  }

  private drawPreview(): void {
    this.previewLayer.replaceChildren();
    if (this.preview === null) return;
    const { bases, opts } = this.preview;
    const px = (n: number): number => this.pixels(n) || n * 0.1;
    const arrow = px(9);
    const target = opts.target === undefined ? [] : (this.scene?.pieces ?? []).filter((p) => p.unit === opts.target);
    for (const p of target) {
      const ring = svgEl("circle", { cx: p.x, cy: p.y, r: p.r + px(4), class: "preview-target", "data-unit": opts.target ?? "" });
      this.previewLayer.appendChild(ring);
    }
    for (const b of bases) {
      const from = b.from;
      const len = from === null ? 0 : Math.hypot(b.x - from[0], b.y - from[1]);
      if (from !== null && len > 1e-6) {
        // the line stops at the base's edge (a shaped base: its half width), the arrow's tip
        const reach = Math.min(len, b.shape ? b.shape.width / 2 : b.r);
        const ux = (b.x - from[0]) / len;
        const uy = (b.y - from[1]) / len;
        const tip = [b.x - ux * reach, b.y - uy * reach];
        const line = { x1: from[0], y1: from[1], x2: tip[0], y2: tip[1] };
        this.previewLayer.appendChild(svgEl("line", { ...line, class: "preview-casing" }));
        this.previewLayer.appendChild(svgEl("line", { ...line, class: "preview-path" }));
        // an arrowhead where the path is longer than two of them (else it only hides the model)
        if (len - reach >= 2 * arrow) {
          const back = [tip[0] - ux * arrow, tip[1] - uy * arrow];
          const side = [-uy * arrow * 0.5, ux * arrow * 0.5];
          const pts = [tip, [back[0] + side[0], back[1] + side[1]], [back[0] - side[0], back[1] - side[1]]];
          this.previewLayer.appendChild(svgEl("polygon", { points: pts.map((q) => `${q[0]},${q[1]}`).join(" "), class: "preview-arrow" }));
        }
      }
      const attrs = { class: "preview-base", "data-unit": b.unit, "data-model": b.model };
      const s = b.shape;
      const turn = s ? `rotate(${s.angle} ${b.x} ${b.y})` : "";
      const shapeOf = (extra: Record<string, string | number>): SVGElement => !s
        ? svgEl("circle", { cx: b.x, cy: b.y, r: b.r, ...extra })
        : s.kind === "oval"
          ? svgEl("ellipse", { cx: b.x, cy: b.y, rx: s.length / 2, ry: s.width / 2, transform: turn, ...extra })
          : svgEl("rect", { x: b.x - s.length / 2, y: b.y - s.width / 2, width: s.length, height: s.width, transform: turn, ...extra });
      this.previewLayer.appendChild(shapeOf({ class: "preview-casing" }));
      const node = shapeOf(attrs);
      const title = svgEl("title", {});
      title.textContent = `model ${b.model + 1}: ends at (${b.x.toFixed(2)}, ${b.y.toFixed(2)})`;
      node.appendChild(title);
      this.previewLayer.appendChild(node);
      const seen = s ? Math.max(s.length, s.width) / 2 : b.r;
      if (seen < px(PREVIEW_MIN_PX)) {
        this.previewLayer.appendChild(svgEl("circle", { cx: b.x, cy: b.y, r: px(PREVIEW_MIN_PX), class: "preview-halo" }));
      }
    }
    if (opts.label !== undefined && bases.length) {
      // by the ghosts, in a size a phone reads, inside the view, where it covers no piece and
      // no ghost: above, below, right or left of the ghosts, else of the target, else the
      // first of those places inside the view (north is up on screen)
      const size = px(13);
      const v = this.view;
      const w = size * 0.6 * opts.label.length + size * 0.8;
      const h = size * 1.4;
      const pad = (b: { x: number; y: number; r: number }): number => Math.max(b.r, px(PREVIEW_MIN_PX));
      const around = (group: { x: number; y: number; r: number }[]): [number, number][] => {
        const x0 = Math.min(...group.map((b) => b.x - pad(b)));
        const x1 = Math.max(...group.map((b) => b.x + pad(b)));
        const y0 = Math.min(...group.map((b) => b.y - pad(b)));
        const y1 = Math.max(...group.map((b) => b.y + pad(b)));
        const cx = (x0 + x1) / 2;
        const cy = (y0 + y1) / 2;
        const g = px(4);
        return [[cx, y1 + g + h / 2], [cx, y0 - g - h / 2], [x1 + g + w / 2, cy], [x0 - g - w / 2, cy]];
      };
      const ghosts = bases.map((b) => ({ x: b.x, y: b.y, r: b.r }));
      const places = [...around(ghosts), ...(target.length ? around(target) : [])];
      // the view's box in board coordinates (the flip: board y = height - view y)
      const height = this.scene?.height ?? v.h;
      const inView = (x: number, y: number): boolean => x - w / 2 >= v.x && x + w / 2 <= v.x + v.w &&
        height - y - h / 2 >= v.y && height - y + h / 2 <= v.y + v.h;
      const clear = (x: number, y: number): boolean => {
        const box = { x0: x - w / 2, y0: y - h / 2, x1: x + w / 2, y1: y + h / 2 };
        return ![...this.discs, ...ghosts].some((d) => coversDisc(box, d));
      };
      const shown = places.filter(([x, y]) => inView(x, y));
      const [x, y] = shown.find(([px_, py]) => clear(px_, py)) ?? shown[0] ?? places[0];
      const t = this.text(x, y, opts.label, "preview-label");
      t.style.fontSize = `${size.toFixed(3)}px`;
      this.previewLayer.appendChild(t);
      // on a light tag with the preview's outline, so the names under it do not show through
      const drawn = t.getComputedTextLength();
      const tw = (drawn > 0 ? drawn + size * 0.8 : w);
      const tag = svgEl("rect", { x: x - tw / 2, y: y - h / 2, width: tw, height: h, rx: size * 0.35, class: "preview-tag" });
      this.previewLayer.insertBefore(tag, t);
    }
  }

  /** Remove the preview (the action was sent, changed or refused). */
  clearPreview(): void {
    this.preview = null;
    this.previewLayer.replaceChildren();
    this.svg.dataset.preview = "0";
  }

  /** One numbered, draggable ring per model (radius `r` inches) at `points`. */
  showHandles(points: number[][], r: number): void {
    for (const h of this.handles) h.remove();
    this.handles = points.map(([x, y], i) => {
      const g = svgEl("g", { class: "handle", "data-model": i, transform: `translate(${x} ${y})` });
      g.appendChild(svgEl("circle", { r, class: "ghost" }));
      const label = svgEl("text", { class: "handle-no", "font-size": Math.max(r, 0.5), transform: "scale(1 -1)", "text-anchor": "middle", dy: "0.35em" });
      label.textContent = String(i + 1);
      g.appendChild(label);
      this.overlay.appendChild(g);
      return g;
    });
  }

  /** Move model ring `i` and mark it legal (true), refused (false) or unchecked (null). */
  moveHandle(i: number, x: number, y: number, ok: boolean | null = null): void {
    const h = this.handles[i];
    if (h === undefined) return;
    h.setAttribute("transform", `translate(${x} ${y})`);
    h.querySelector("circle")?.setAttribute("class", ok === null ? "ghost" : ok ? "ghost ok" : "ghost bad");
  }

  /** Mark every model ring legal, refused or unchecked. */
  markHandles(ok: boolean | null): void {
    for (const h of this.handles) h.querySelector("circle")?.setAttribute("class", ok === null ? "ghost" : ok ? "ghost ok" : "ghost bad");
  }

  private handleAt(x: number, y: number): number | null {
    let best: number | null = null;
    let bestD = Infinity;
    this.handles.forEach((h, i) => {
      const m = /translate\(([-\d.e]+) ([-\d.e]+)\)/.exec(h.getAttribute("transform") ?? "");
      const r = Number(h.querySelector("circle")?.getAttribute("r") ?? 0.5);
      if (m === null) return;
      const d = Math.hypot(Number(m[1]) - x, Number(m[2]) - y);
      if (d <= Math.max(r * 1.3, this.view.w / 40) && d < bestD) {
        best = i;
        bestD = d;
      }
    });
    return best;
  }

  /** Shade the points the server's check accepted (cells of side `step`). */
  showReach(points: number[][], step: number): void {
    for (const node of Array.from(this.overlay.querySelectorAll(".reach"))) node.remove();
    for (const [x, y] of points) {
      this.overlay.insertBefore(
        svgEl("rect", { x: x - step / 2, y: y - step / 2, width: step, height: step, class: "reach" }),
        this.overlay.firstChild,
      );
    }
  }

  private panAndZoom(): void {
    let start: { x: number; y: number; vx: number; vy: number; moved: boolean } | null = null;
    let placing = false;
    let dragging: number | null = null; // the model ring being dragged
    this.svg.addEventListener("pointerdown", (ev) => {
      const [x, y] = this.point(ev);
      if (this.onHandle !== null && this.handles.length) {
        const i = this.handleAt(x, y);
        if (i !== null) {
          dragging = i;
          this.svg.setPointerCapture(ev.pointerId);
          return;
        }
      }
      if (this.onPoint !== null && this.ghost !== null) {
        const g = this.ghostAt();
        const r = Number(this.ghost.getAttribute("r"));
        if (g !== null && Math.hypot(g[0] - x, g[1] - y) <= Math.max(r * 1.5, this.view.w / 30)) {
          placing = true;
          this.svg.setPointerCapture(ev.pointerId);
          return;
        }
      }
      start = { x: ev.clientX, y: ev.clientY, vx: this.view.x, vy: this.view.y, moved: false };
      this.svg.classList.add("dragging");
    });
    this.svg.addEventListener("pointermove", (ev) => {
      if (dragging !== null && this.onHandle !== null) {
        const [x, y] = this.point(ev);
        this.moveHandle(dragging, x, y);
        this.onHandle(dragging, x, y, false);
        return;
      }
      if (placing && this.onPoint !== null && this.ghost !== null) {
        const [x, y] = this.point(ev);
        this.showGhost(x, y, Number(this.ghost.getAttribute("r")));
        this.onPoint(x, y, false);
        return;
      }
      if (start === null) return;
      const rect = this.svg.getBoundingClientRect();
      const scale = Math.max(this.view.w / rect.width, this.view.h / rect.height);
      const dx = (ev.clientX - start.x) * scale;
      const dy = (ev.clientY - start.y) * scale;
      if (Math.abs(ev.clientX - start.x) + Math.abs(ev.clientY - start.y) > 4) start.moved = true;
      this.view.x = start.vx - dx;
      this.view.y = start.vy - dy;
      this.apply();
    });
    const end = (ev: PointerEvent): void => {
      if (dragging !== null && this.onHandle !== null) {
        const i = dragging;
        dragging = null;
        const [x, y] = this.point(ev);
        this.moveHandle(i, x, y);
        this.onHandle(i, x, y, true);
        return;
      }
      if (placing && this.onPoint !== null) {
        placing = false;
        const [x, y] = this.point(ev);
        this.onPoint(x, y, true);
        return;
      }
      if (start !== null && !start.moved && this.onPoint !== null && this.ghost !== null) {
        const [x, y] = this.point(ev);
        this.showGhost(x, y, Number(this.ghost.getAttribute("r")));
        this.onPoint(x, y, true);
      }
      start = null;
      this.svg.classList.remove("dragging");
    };
    this.svg.addEventListener("pointerup", end);
    this.svg.addEventListener("pointercancel", () => {
      start = null;
      dragging = null;
      placing = false;
    });
    this.svg.addEventListener("wheel", (ev) => {
      ev.preventDefault();
      const m = this.svg.getScreenCTM();
      if (m === null) return;
      const p = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(m.inverse());
      this.zoom(ev.deltaY > 0 ? 1.15 : 1 / 1.15, p.x, p.y);
    }, { passive: false });
  }
}

/** Wire the +, − and fit buttons of a board. */
export function zoomButtons(board: Board): void {
  document.getElementById("zoom-in")?.addEventListener("click", () => board.zoom(1 / 1.3));
  document.getElementById("zoom-out")?.addEventListener("click", () => board.zoom(1.3));
  document.getElementById("zoom-fit")?.addEventListener("click", () => board.fit());
}

/** One event for the log: its text, its step and its rule, each rule cited by its book ("The
 * WarEngine 2.1 L471", not the source file's hash name; session 33). */
export function logItem(ev: { step?: number; text: string; rule?: string }): HTMLLIElement {
  const li = document.createElement("li");
  li.textContent = `${ev.step !== undefined ? `${ev.step}. ` : ""}${bookNames(ev.text)} `;
  if (ev.rule) {
    const span = document.createElement("span");
    span.className = "rule";
    span.textContent = bookNames(ev.rule);
    li.appendChild(span);
  }
  return li;
}

/** A person's words for a terrain class a scene draws (WARSURGE §4.5-4.7, §5.6, §10.2;
 * Collision's squares; WarEngine's power pieces keep their names). */
const GROUND_WORDS: Record<string, string> = {
  impassable: "Impassable",
  "vertical-impassable": "Impassable vertical obstacle",
  difficult: "Difficult Ground",
  dangerous: "Dangerous Ground",
  obstacle: "obstacle",
  vertical: "vertical obstacle",
  "blocks-los": "blocks line of sight",
  cover: "cover",
  armed: "armed terrain (attacks)",
};

/** The colour a side's pieces are drawn in (the scene's colour for a side named by one). */
export function sideColour(scene: Scene, side: number): string {
  return scene.side_colours?.[side] ?? COLOURS[side % COLOURS.length];
}

/** The side that took a Deployment Zone (its `side-N` tag), or null. */
function zoneOwner(a: Area): number | null {
  const tag = (a.tags ?? []).find((t) => /^side-\d+$/.test(t));
  return tag === undefined ? null : Number(tag.slice(5));
}

/** One line of the board's key: a swatch drawn with the board's own classes, and its words. */
interface KeyItem { cls: string; words: string[]; shape: "area" | "piece" | "token"; fill?: string; edges?: string[] }

/** The board's key (legend): each kind of ground the scene draws (by the classes it is drawn
 * with, so a swatch looks as the board does: "Difficult Ground, cover"), the markers on it and
 * each side's colour with its name (`names`: the seats' names). Filled into `host`, a box
 * under the board (it covers no part of it); `host.dataset.items` counts the entries. */
export function drawLegend(host: HTMLElement, scene: Scene, names: string[]): void {
  const items = new Map<string, KeyItem>();
  for (const a of scene.areas) {
    const tags = (a.tags ?? []).filter((t) => t !== "named" && !t.startsWith("army-"));
    const cls = [a.kind, ...tags].join(" ");
    let words: string[];
    if (a.kind === "zone") {
      const side = tags.find((t) => t.startsWith("side-"));
      const name = a.name.replace(/^\(\d+,\d+\)\s*/, "").replace(/\s*\([^()]*\)$/, ""); // only the last bracket: "StormReavers (1)'s placing strip (12\" …)"
      if (!/zone|strip|line/i.test(name) && side === undefined) {
        // zones named by where they are ("south edge"): one line, "Deployment Zone (south edge, north edge)"
        const old = items.get(cls) ?? { cls, words: [], shape: "area", edges: [] };
        if (!old.edges?.includes(name)) old.edges?.push(name);
        old.words = [`Deployment Zone (${(old.edges ?? []).join(", ")})`];
        items.set(cls, old);
        continue;
      }
      words = [side === undefined || /zone|strip|line/i.test(name) ? name : `${names[Number(side.slice(5))] ?? side}'s Deployment Zone (${name})`];
      const owner = zoneOwner(a);
      if (owner !== null && scene.side_colours?.[owner] !== undefined) {
        items.set(cls, { cls, words, shape: "area", fill: sideColour(scene, owner) });
        continue;
      }
    } else if (a.kind === "cell") {
      // a square's name starts with its place ("(10,2) elevation 2")
      words = [a.name.replace(/^\(\d+,\d+\)\s*/, "").replace(/^elevation/, "Elevated ground, level")];
    } else if (tags.includes("power")) {
      words = [a.name];
    } else {
      words = Object.keys(GROUND_WORDS).filter((t) => tags.includes(t)).map((t) => GROUND_WORDS[t]);
      if (!words.length) words = ["terrain"];
    }
    const old = items.get(cls);
    if (old === undefined) items.set(cls, { cls, words, shape: "area" });
    else for (const w of words) if (!old.words.includes(w)) old.words.push(w);
  }
  for (const t of scene.tokens ?? []) {
    const cls = `token ${t.kind}`;
    if (!items.has(cls)) items.set(cls, { cls, words: [t.kind === "gateway" ? "Gateway marker" : `${t.kind} (${t.label})`], shape: "token" });
  }
  const sides = new Set<number>();
  for (const p of scene.pieces) if (p.side !== null) sides.add(p.side);
  for (const p of scene.off_table ?? []) sides.add(p.side);
  for (const side of [...sides].sort((x, y) => x - y)) {
    items.set(`side ${side}`, { cls: "piece", words: [names[side] ?? `side ${side + 1}`], shape: "piece", fill: sideColour(scene, side) });
  }
  host.replaceChildren();
  for (const item of items.values()) {
    const li = document.createElement("li");
    const sw = svgEl("svg", { class: "board swatch", viewBox: "0 0 2 2", "aria-hidden": "true" });
    if (item.shape === "piece") sw.appendChild(svgEl("circle", { cx: 1, cy: 1, r: 0.8, class: item.cls, fill: item.fill ?? "#555" }));
    else if (item.shape === "token") {
      const g = svgEl("g", { class: item.cls });
      g.appendChild(svgEl("polygon", { points: "1,0.2 1.8,1 1,1.8 0.2,1" }));
      sw.appendChild(g);
    } else {
      const rect = svgEl("rect", { x: 0.15, y: 0.15, width: 1.7, height: 1.7, class: item.cls });
      if (item.fill !== undefined) rect.style.fill = item.fill; // a taken zone's side colour
      sw.appendChild(rect);
    }
    li.appendChild(sw);
    const said = item.words.join(", ");
    li.appendChild(document.createTextNode(said.charAt(0).toUpperCase() + said.slice(1)));
    li.dataset.key = item.cls;
    host.appendChild(li);
  }
  host.dataset.items = String(items.size);
}
