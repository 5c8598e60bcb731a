import type { RepairRule } from "./repair-rule.js";

/**
 * R6 `jsonrepair`: anything the `jsonrepair` library can fix. Aggressive (it completes truncated text, so it never
 * runs on a length stop), and off unless named. Core has no runtime dependencies: pass the library's function in.
 *
 * @example
 * import { jsonrepair } from "jsonrepair";
 * const repairs = [...coreRepairs, createJsonrepairRepair(jsonrepair)];
 */
export function createJsonrepairRepair(jsonrepair: (text: string) => string): RepairRule {
  return {
    specificationVersion: "1",
    id: "jsonrepair",
    description: "anything the jsonrepair library can fix",
    repair(text) {
      try {
        const repaired = jsonrepair(text);
        return repaired === text ? undefined : repaired;
      } catch {
        return undefined;
      }
    },
  };
}
