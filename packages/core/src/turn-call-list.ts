import type { ToolCall } from "./types.js";

/** A call the turn keeps: as it is written out, its id, the note its result gets (policy `empty`), and whether a result answered it. */
export interface TurnCall {
  call: ToolCall;
  id: string;
  note?: string;
  answered?: boolean;
}

/** Up to this many calls a turn's list is searched entry by entry; a larger turn gets a map. */
const LINEAR_LIMIT = 8;

/**
 * The calls a turn keeps, by id and in the order they were kept. A turn holds one to three calls as a rule: read
 * entry by entry, which costs less than a `Map` made per turn; a turn with more calls than {@link LINEAR_LIMIT} is
 * indexed by a map, so lookups stay constant whatever the turn's size.
 *
 * @example
 * const list = new TurnCallList();
 * list.add({ call, id: "call_1" });
 * list.get("call_1")?.call; // call
 */
export class TurnCallList {
  /** The kept calls, in order. */
  readonly entries: TurnCall[] = [];
  #byId: Map<string, TurnCall> | undefined;

  /** Keeps `entry`; an id kept before is replaced where it stands. */
  add(entry: TurnCall): void {
    const at = this.#indexOf(entry.id);
    if (at !== -1) {
      this.entries[at] = entry;
      this.#byId?.set(entry.id, entry);
      return;
    }
    this.entries.push(entry);
    if (this.#byId !== undefined) this.#byId.set(entry.id, entry);
    else if (this.entries.length > LINEAR_LIMIT) this.#byId = new Map(this.entries.map((e) => [e.id, e]));
  }

  /** The kept call with this id. */
  get(id: string): TurnCall | undefined {
    if (this.#byId !== undefined) return this.#byId.get(id);
    const at = this.#indexOf(id);
    return at === -1 ? undefined : this.entries[at];
  }

  /** Whether a call with this id is kept. */
  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  /** How many calls are kept. */
  get size(): number {
    return this.entries.length;
  }

  #indexOf(id: string): number {
    if (this.#byId !== undefined) {
      const entry = this.#byId.get(id);
      return entry === undefined ? -1 : this.entries.indexOf(entry);
    }
    const entries = this.entries;
    for (let i = 0; i < entries.length; i++) if ((entries[i] as TurnCall).id === id) return i;
    return -1;
  }
}
