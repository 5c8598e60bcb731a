import { fail } from "./template-error.js";

/**
 * Operations a lower layer of the runtime calls and a higher one defines: an Undefined's error message and a
 * range's `index` need `repr()`, which knows every type; `str.format` and `%` formatting read fields through the
 * sandbox's attribute and item access, which knows every method. Python resolves these at run time. Here the module
 * that defines each one registers it when it loads (python-repr.ts, attribute-access.ts), so imports point one way
 * only: from the higher layer down.
 */
export const lateBound = {
  /** Python's `repr()` (python-repr.ts). */
  repr: (value: unknown): string => unregistered(`repr of ${typeof value}`),
  /** Jinja's sandboxed `obj.name` (attribute-access.ts). */
  getAttribute: (obj: unknown, name: string): unknown => unregistered(`getattr ${typeof obj}.${name}`),
  /** Jinja's sandboxed `obj[key]` (attribute-access.ts). */
  getItem: (obj: unknown, key: unknown): unknown => unregistered(`getitem ${typeof obj}[${typeof key}]`),
};

function unregistered(what: string): never {
  return fail("RuntimeError", `the engine's runtime is not loaded (${what})`);
}
