import { describeConformance } from "@toolcall/conformance/vitest";
import { coreImplementation, resolveCoreRepairs } from "@toolcall/core/conformance";
import { gemmaQuoteMarkers } from "../src/index.js";

// Core's implementation with this package's repair added where the vectors name it.
describeConformance({
  implementation: {
    ...coreImplementation,
    name: "@toolcall/core + @toolcall/gemma-recovery",
    resolveRepairs: (ids: readonly string[]) => {
      const core = resolveCoreRepairs(ids.filter((id) => id !== gemmaQuoteMarkers.id));
      return core === undefined
        ? undefined
        : [...core, ...(ids.includes(gemmaQuoteMarkers.id) ? [gemmaQuoteMarkers] : [])];
    },
  },
});
