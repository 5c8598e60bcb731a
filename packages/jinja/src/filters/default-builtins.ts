import type { Builtins } from "./filter-registry.js";
import { SELECT_FILTERS } from "./filters-select.js";
import { SEQUENCE_FILTERS } from "./filters-sequence.js";
import { TEXT_FILTERS } from "./filters-text.js";
import { TESTS } from "./jinja-tests.js";

export type { Builtins, Filter, Test } from "./filter-registry.js";
export { defaultGlobals } from "./jinja-globals.js";

/** Jinja's built-in filters (with transformers' `tojson`) and tests. */
export function defaultBuiltins(): Builtins {
  return {
    filters: new Map(Object.entries({ ...TEXT_FILTERS, ...SEQUENCE_FILTERS, ...SELECT_FILTERS })),
    tests: new Map(Object.entries(TESTS)),
  };
}
