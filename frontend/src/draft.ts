// The designer's draft (kept in localStorage) and its conversion from the CLI's unit file
// format, so a saved unit can be opened in the designer.

export const DRAFT_KEY = "warbench.design.draft";

export interface WeaponDraft { fields: Record<string, string>; perks: string[] }
/** A group of models and the weapons each carries (indices into the draft's weapons). */
export interface GroupDraft { count: string; weapons: number[] }
export interface Draft {
  fields: Record<string, string>; perks: string[]; weapons: WeaponDraft[];
  /** Absent in drafts saved before model groups: one group, every weapon (fields.count). */
  groups?: GroupDraft[];
}

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

/** The draft of a unit file: its profile, weapons and model groups (each with its weapons). */
export function draftFromUnit(unit: UnitFile): Draft {
  const fields = strings(unit.unit, ["perks", "symbol", "lore"]);
  for (const save of ["armour", "aegis"]) fields[save] = fields[save] ?? "-";
  const weapons = unit.weapons ?? [];
  const names = weapons.map((w) => String(w.name));
  return {
    fields,
    perks: (unit.unit.perks as string[] | undefined) ?? [],
    weapons: weapons.map(weaponDraft),
    groups: unit.models.map((g) => ({
      count: String(g.count),
      weapons: (g.weapons ?? []).map((n) => names.indexOf(n)).filter((i) => i >= 0),
    })),
  };
}

export function weaponDraft(w: Record<string, unknown>): WeaponDraft {
  const fields = strings(w, ["perks", "symbol", "lore"]);
  fields.ap = fields.ap ?? "-";
  return { fields, perks: (w.perks as string[] | undefined) ?? [] };
}
