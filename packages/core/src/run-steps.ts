/**
 * Runs a step-wise computation (one of the `…Steps` generators: `decodeArgumentsSteps`,
 * `normalizeAnswerArgumentsSteps`, …) to its end in one go and returns its result: what the one-shot function of the
 * same name gives.
 *
 * @example
 * runSteps(decodeArgumentsSteps('{"a": 1,}', { repairs: coreRepairs })).status; // "repaired"
 */
export function runSteps<T>(steps: Generator<unknown, T, void>): T {
  for (;;) {
    const next = steps.next();
    if (next.done === true) return next.value;
  }
}
