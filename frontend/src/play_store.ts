// The games this browser started: their secret links, kept in localStorage so a game resumes.
/** A game this browser started: its links by label ("seat 0", "players", "spectator") and
 * the seats' names, to say whose link is whose ("Red (seat 1)"; older entries have none). */
export interface Remembered { id: string; ruleset: string; links: Record<string, string>; at: string; names?: string[] }

/** A link's label as a player reads it: a network seat by its side's name and its number
 * from 1, as the lobby's "Seat 1" ("seat 0" → "Red (seat 1)"); other labels as they are. */
export function linkName(label: string, names: string[] | undefined): string {
  const m = /^seat (\d+)$/.exec(label);
  if (m === null) return label;
  const i = Number(m[1]);
  const name = names?.[i];
  return name ? `${name} (seat ${i + 1})` : `seat ${i + 1}`;
}

const KEY = "warbench.play.games";

export function remembered(): Remembered[] {
  try {
    return JSON.parse(localStorage.getItem(KEY) ?? "[]") as Remembered[];
  } catch {
    return [];
  }
}

export function remember(g: Remembered): void {
  const all = remembered().filter((x) => x.id !== g.id);
  all.unshift(g);
  localStorage.setItem(KEY, JSON.stringify(all.slice(0, 30)));
}

/** The board's SVG element (typed). */
export function svgById(id: string): SVGSVGElement {
  const node = document.getElementById(id);
  if (node === null) throw new Error(`#${id} missing`);
  return node as unknown as SVGSVGElement;
}
