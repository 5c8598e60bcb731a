/** A list longer than this is read by the entries it holds, not walked index by index. */
const WALK_LIMIT = 65_536;

/** The entries of a list (a huge sparse one, `length` 2**32 - 1, by the entries it holds: a hole offers no tool). */
function entriesOf(list: readonly unknown[]): readonly unknown[] {
  if (list.length <= WALK_LIMIT) return list;
  const out: unknown[] = [];
  for (const key of Object.keys(list)) {
    const index = Number(key);
    if (Number.isInteger(index) && index >= 0 && index < list.length) out.push(list[index]);
  }
  return out;
}

/** The tools offered, by name: what a parser needs to type values and to flag unknown names. Total on any input. */
export class ToolIndex {
  readonly #properties = new Map<string, Record<string, unknown> | undefined>();
  /** A non-empty tool list was given. */
  readonly offered: boolean;

  constructor(tools: readonly unknown[] | null | undefined) {
    let offered = false;
    try {
      if (Array.isArray(tools)) {
        for (const tool of entriesOf(tools)) {
          if (typeof tool !== "object" || tool === null) continue;
          const fn = ((tool as { function?: unknown }).function ?? tool) as {
            name?: unknown;
            parameters?: unknown;
          };
          if (typeof fn !== "object" || fn === null || typeof fn.name !== "string") continue;
          offered = true;
          const properties = (fn.parameters as { properties?: unknown } | undefined)?.properties;
          this.#properties.set(
            fn.name,
            typeof properties === "object" && properties !== null && !Array.isArray(properties)
              ? (properties as Record<string, unknown>)
              : undefined,
          );
        }
      }
    } catch {
      // A tool list that throws on reading (a getter, a Proxy) types nothing; the calls are still read.
    }
    this.offered = offered;
  }

  /** The names of the tools offered. */
  names(): string[] {
    return [...this.#properties.keys()];
  }

  has(name: string): boolean {
    return this.#properties.has(name);
  }

  /** The JSON Schema of a tool's parameter, or `undefined` when the tool or the parameter is unknown. */
  parameter(tool: string, name: string): unknown {
    const properties = this.#properties.get(tool);
    if (properties === undefined) return undefined;
    try {
      return Object.hasOwn(properties, name) ? properties[name] : undefined;
    } catch {
      return undefined;
    }
  }
}
