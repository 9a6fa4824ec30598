// The games this browser started: their secret links, kept in localStorage so a game resumes.
export interface Remembered { id: string; ruleset: string; links: Record<string, string>; at: string }

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
