import { describeConformance } from "@toolcall/conformance/vitest";
import { jsonrepair } from "jsonrepair";
import { coreImplementation, resolveCoreRepairs } from "../src/conformance-implementation.js";
import { createJsonrepairRepair } from "../src/index.js";

// Core's implementation, with the jsonrepair library passed in where the vectors name it (core has no dependency on
// it; its repair takes the library's function).
const jsonrepairRule = createJsonrepairRepair(jsonrepair);

describeConformance({
  implementation: {
    ...coreImplementation,
    resolveRepairs: (ids: readonly string[]) => {
      const core = resolveCoreRepairs(ids.filter((id) => id !== "jsonrepair"));
      return core === undefined ? undefined : ids.includes("jsonrepair") ? [...core, jsonrepairRule] : core;
    },
  },
});
