// The designer's draft (kept in localStorage) and its conversion from the CLI's unit file
// format, so a saved unit can be opened in the designer.

export const DRAFT_KEY = "warbench.design.draft";

export interface WeaponDraft { fields: Record<string, string>; perks: string[] }
export interface Draft { fields: Record<string, string>; perks: string[]; weapons: WeaponDraft[] }

/** A unit in the unit file format, as the API returns it (saves already written 4+ / -). */
export interface UnitFile {
  unit: Record<string, unknown>;
  weapons?: Record<string, unknown>[];
  models: { count: number; weapons?: string[] }[];
}

function strings(record: Record<string, unknown>, skip: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(record)) {
    if (skip.includes(k) || v === null || v === undefined || typeof v === "object") continue;
    out[k] = String(v);
  }
  return out;
}

/** The draft of a unit file; the designer gives every model every weapon, so the models of
 * all groups are added up (the API validates the result again). */
export function draftFromUnit(unit: UnitFile): Draft {
  const fields = strings(unit.unit, ["perks", "symbol", "lore"]);
  fields.count = String(unit.models.reduce((n, g) => n + g.count, 0));
  for (const save of ["armour", "aegis"]) fields[save] = fields[save] ?? "-";
  return {
    fields,
    perks: (unit.unit.perks as string[] | undefined) ?? [],
    weapons: (unit.weapons ?? []).map(weaponDraft),
  };
}

export function weaponDraft(w: Record<string, unknown>): WeaponDraft {
  const fields = strings(w, ["perks", "symbol", "lore"]);
  fields.ap = fields.ap ?? "-";
  return { fields, perks: (w.perks as string[] | undefined) ?? [] };
}
