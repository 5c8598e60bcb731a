import { expect } from "vitest";
import { checkFormatHostile, type HostileEngine, type HostileFormat } from "./check-format-hostile.js";

/**
 * Asserts, in a vitest test, that every format answers a hostile value (see `checkFormatHostile`): the test fails with
 * every issue's code and message. Call it inside a fast-check property, or on a hand-made trap.
 *
 * @example
 * import { expectFormatHostile } from "@toolcall/conformance/vitest";
 * const engine = createRecordEngine({ repairs: coreRepairs });
 * fc.assert(fc.property(fc.anything(), (value) => expectFormatHostile(aiSdkFormats, value, engine)));
 */
export function expectFormatHostile<F extends HostileFormat>(
  formats: readonly F[],
  value: unknown,
  engine: HostileEngine<F>,
): void {
  const result = checkFormatHostile(formats, [value], engine);
  if (!result.ok)
    expect.fail(
      ["hostile value", ...result.issues.map((issue) => `  ${issue.code}: ${issue.message}`)].join("\n"),
    );
}
