import { expect } from "vitest";
import { checkFormatLossless, type LosslessFormat, type LosslessRepair } from "./check-format-lossless.js";

/**
 * Asserts, in a vitest test, that a format keeps a record losslessly (see `checkFormatLossless`): the test fails
 * with every issue's code and message. Returns the record's repair, for the test's own further checks.
 *
 * @example
 * import { expectFormatLossless } from "@toolcall/conformance/vitest";
 * const engine = createRecordEngine();
 * const repaired = expectFormatLossless(sweAgentTrajectoryFormat, trajectory, { repair: engine.repair });
 * repaired.changes; // what the repair did, each change named by its rule
 */
export function expectFormatLossless<F extends LosslessFormat, R extends LosslessRepair>(
  format: F,
  sample: unknown,
  options: { repair(format: F, value: unknown): R },
): R {
  const result = checkFormatLossless(format, [sample], options);
  if (!result.ok)
    expect.fail(
      [`${format.id}: lossless`, ...result.issues.map((issue) => `  ${issue.code}: ${issue.message}`)].join(
        "\n",
      ),
    );
  return result.samples[0] as R;
}
