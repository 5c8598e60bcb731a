import { describeConformance } from "@toolcall/conformance/vitest";
import { createJsonrepairRepair } from "@toolcall/core";
import { coreImplementation, resolveCoreRepairs } from "@toolcall/core/conformance";
import { jsonrepair } from "jsonrepair";
import { gemmaQuoteMarkers } from "../src/index.js";

// Core's implementation with this package's repair added where the vectors name it, and the jsonrepair library
// passed in for the vectors that name it.
const jsonrepairRule = createJsonrepairRepair(jsonrepair);

describeConformance({
  implementation: {
    ...coreImplementation,
    name: "@toolcall/core + @toolcall/gemma-recovery",
    resolveRepairs: (ids: readonly string[]) => {
      const core = resolveCoreRepairs(ids.filter((id) => id !== gemmaQuoteMarkers.id && id !== "jsonrepair"));
      return core === undefined
        ? undefined
        : [
            ...core,
            ...(ids.includes(gemmaQuoteMarkers.id) ? [gemmaQuoteMarkers] : []),
            ...(ids.includes("jsonrepair") ? [jsonrepairRule] : []),
          ];
    },
  },
});
