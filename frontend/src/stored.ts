// Documents kept in the database by name with a save counter (the WarEngine page's forces,
// the Collision page's cards and battle groups; storage/documents.py on the server): list,
// open, save, save as new, delete. A save made on an older version than the stored one is refused by the server (409)
// and its sentence is shown; the browser decides nothing.
import { $, api, ApiFailure, el, status } from "./common.js";

export interface Summary { name: string; points: number; points_limit: number | null; cards: number; version: number }
export interface Stored { name: string; version: number }
/** Which stored document the draft was opened from or saved as, and its version then. */
export interface Origin { stored?: string | null; version?: number | null }

export interface StoredDocsOptions<S extends Stored, L extends { name: string }> {
  /** "/api/collision/cards" */
  base: string;
  /** the body key of a save ("card", "group") */
  key: string;
  /** what one is called ("card", "battle group") */
  noun: string;
  /** the ids of the list, its buttons and the saved note: `${prefix}-list`, `-open`, `-save`,
   * `-save-new`, `-delete`, `-saved` */
  prefix: string;
  /** the draft's data and where it came from */
  data: () => Record<string, unknown>;
  origin: () => Origin;
  /** a stored document opened or saved: the page shows it and keeps its draft */
  loaded: (doc: S, origin: Origin) => void;
  /** the list's label of one document */
  label: (s: L) => string;
  /** awaited before a save (the page reads its inputs, checks the draft) */
  before?: () => Promise<void>;
  /** after the stored document the draft came from was deleted (the draft is kept) */
  detached?: () => void;
}

/** The list, buttons and note of one kind of stored document on a page. */
export class StoredDocs<S extends Stored, L extends { name: string } = Summary> {
  constructor(private readonly o: StoredDocsOptions<S, L>) {
    $(`${o.prefix}-save`).addEventListener("click", () => void this.save(false));
    $(`${o.prefix}-save-new`).addEventListener("click", () => void this.save(true));
    $(`${o.prefix}-open`).addEventListener("click", () => void this.open());
    $(`${o.prefix}-delete`).addEventListener("click", () => void this.remove());
  }

  private url(name: string, version?: number | null): string {
    return `${this.o.base}/${encodeURIComponent(name)}${version ? `?version=${version}` : ""}`;
  }

  /** The note under the buttons: where the draft is saved, or `text`. */
  note(text?: string): void {
    const { stored, version } = this.o.origin();
    $(`${this.o.prefix}-saved`).textContent = text ?? (stored
      ? `Saved in the database as “${stored}” (version ${String(version)}); changes here are a draft until you save.`
      : "Not saved in the database yet (the draft is kept in this browser).");
  }

  async refresh(select?: string): Promise<void> {
    const list = $<HTMLSelectElement>(`${this.o.prefix}-list`);
    const rows = await api<L[]>("GET", this.o.base);
    list.replaceChildren(el("option", rows.length ? `saved ${this.o.noun}s…` : `no saved ${this.o.noun} yet`, { value: "" }),
      ...rows.map((r) => el("option", this.o.label(r), { value: r.name })));
    list.value = select ?? this.o.origin().stored ?? "";
  }

  private done(doc: S, verb: string): void {
    this.o.loaded(doc, { stored: doc.name, version: doc.version });
    this.note();
    void this.refresh(doc.name);
    status(`${verb} ${doc.name} (version ${doc.version})`);
  }

  async save(asNew: boolean): Promise<void> {
    if (this.o.before) await this.o.before();
    const { stored, version } = this.o.origin();
    try {
      const body = { [this.o.key]: this.o.data() };
      const doc = stored && !asNew
        ? await api<S>("PUT", this.url(stored, version), body)
        : await api<S>("POST", this.o.base, body);
      this.done(doc, "Saved");
    } catch (err) {
      const text = err instanceof ApiFailure ? err.body.detail : String(err);
      this.note(err instanceof ApiFailure && err.status === 409 && text.includes("already exists")
        ? `${text}: give this ${this.o.noun} another name, or open the saved one.` : text);
      status(text);
    }
  }

  async open(): Promise<void> {
    const name = $<HTMLSelectElement>(`${this.o.prefix}-list`).value;
    if (!name) { status(`Choose a saved ${this.o.noun} first.`); return; }
    try {
      this.done(await api<S>("GET", this.url(name)), "Opened");
    } catch (err) { status(err instanceof ApiFailure ? err.body.detail : String(err)); void this.refresh(); }
  }

  async remove(): Promise<void> {
    const origin = this.o.origin();
    const name = $<HTMLSelectElement>(`${this.o.prefix}-list`).value || origin.stored;
    if (!name) { status(`Choose a saved ${this.o.noun} first.`); return; }
    if (!window.confirm(`Delete the saved ${this.o.noun} “${name}”? The draft on this page stays.`)) return;
    try {
      await api<void>("DELETE", this.url(name, name === origin.stored ? origin.version : null));
      if (name === origin.stored) { origin.stored = null; origin.version = null; this.o.detached?.(); }
      this.note();
      await this.refresh("");
      status(`Deleted ${name}`);
    } catch (err) { status(err instanceof ApiFailure ? err.body.detail : String(err)); }
  }
}
