import { PyObject } from "./py-object.js";
import { tuple } from "./tuple.js";

/** The three dict views. */
export type DictViewKind = "dict_keys" | "dict_values" | "dict_items";

/**
 * `dict.keys()`, `dict.values()`, `dict.items()`: views that print as `dict_items([('a', 1)])`, have a length and
 * iterate, but cannot be indexed or serialised to JSON. (The sandbox forbids changing a dict, so a view never
 * sees its dict change.)
 *
 * @example
 * new DictView("dict_keys", new Map([["a", 1]])).items(); // ["a"]
 */
export class DictView extends PyObject {
  readonly kind: DictViewKind;
  readonly map: Map<unknown, unknown>;
  private cached: unknown[] | null = null;

  constructor(kind: DictViewKind, map: Map<unknown, unknown>) {
    super();
    this.kind = kind;
    this.map = map;
  }

  get pyType(): string {
    return this.kind;
  }

  get length(): number {
    return this.map.size;
  }

  /** The view's items, in the dict's order. */
  items(): unknown[] {
    if (this.cached !== null) return this.cached;
    const map = this.map;
    let out: unknown[];
    if (this.kind === "dict_keys") out = Array.from(map.keys());
    else if (this.kind === "dict_values") out = Array.from(map.values());
    else {
      out = new Array(map.size);
      let i = 0;
      for (const [k, v] of map) out[i++] = tuple([k, v]);
    }
    this.cached = out;
    return out;
  }
}
