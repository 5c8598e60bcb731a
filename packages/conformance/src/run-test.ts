import type { ConformanceImplementation, ConformanceIssue, ConformanceOptions } from "./implementation.js";
import { jsonEqual, show } from "./json-equal.js";
import type { ConformanceCase } from "./load-vectors.js";
import { checkRender, resolveRenderInput, templatesDirectory } from "./render-case.js";

/** The outcome of one case: `skip` when the implementation lacks what the case needs (never counted as a pass). */
export interface ConformanceOutcome {
  status: "pass" | "fail" | "skip";
  /** Why it failed or was skipped. */
  messages: string[];
}

function multiset(values: readonly unknown[]): string[] {
  return values.map((v) => String(v)).sort();
}

function snapshot(value: unknown): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: structuredClone(value) };
  } catch {
    return { ok: false };
  }
}

function checkIssues(
  expected: Record<string, unknown>,
  issues: readonly ConformanceIssue[],
  failures: string[],
): void {
  if (!Array.isArray(issues)) {
    failures.push(`expected a list of issues, got ${show(issues)}`);
    return;
  }
  if (expected.codes !== undefined) {
    const want = multiset(expected.codes as unknown[]);
    const got = multiset(issues.map((i) => i.code));
    if (!jsonEqual(want, got)) failures.push(`codes: expected ${show(want)}, got ${show(got)}`);
  }
  if (expected.issues !== undefined) {
    for (const wanted of expected.issues as ConformanceIssue[]) {
      const found = issues.some(
        (i) =>
          i.code === wanted.code &&
          (wanted.severity === undefined || i.severity === wanted.severity) &&
          (wanted.path === undefined || jsonEqual(i.path, wanted.path)),
      );
      if (!found) failures.push(`issue ${show(wanted)} not found among ${show(issues)}`);
    }
  }
}

/**
 * Checks an operation's result against a case's `expected` (VECTORS.md): one message per mismatch, `[]` when it
 * conforms.
 *
 * @example
 * checkResult({ operation: "encode", expected: { text: "{}" }, actual: "{}" }); // []
 */
export function checkResult(args: {
  operation: ConformanceCase["operation"];
  expected: Record<string, unknown>;
  actual: unknown;
  input?: unknown;
}): string[] {
  const { operation, expected, actual, input } = args;
  const failures: string[] = [];
  const result = actual as Record<string, unknown>;
  const compare = (key: string, got: unknown) => {
    if (key in expected && !jsonEqual(expected[key], got)) {
      failures.push(`${key}: expected ${show(expected[key])}, got ${show(got)}`);
    }
  };
  switch (operation) {
    case "decode": {
      compare("status", result?.status);
      compare("arguments", result?.arguments);
      if ("repairs" in expected) compare("repairs", result?.repairs ?? []);
      compare("raw", result?.raw);
      if (expected.rawAbsent === true && result?.raw !== undefined)
        failures.push(`raw: expected none, got ${show(result.raw)}`);
      if (expected.identity === true && result?.arguments !== input)
        failures.push("identity: the input object was not returned itself");
      break;
    }
    case "encode":
      compare("text", actual);
      if (typeof actual !== "string") failures.push(`expected a string, got ${show(actual)}`);
      break;
    case "validate":
    case "validateHistory":
      checkIssues(expected, actual as ConformanceIssue[], failures);
      break;
    case "sanitize": {
      compare("messages", result?.messages);
      if (expected.unchanged === true && result?.messages !== input)
        failures.push("unchanged: the input list was not returned itself");
      const changes = (result?.changes ?? []) as Array<Record<string, unknown>>;
      if (expected.changes !== undefined) {
        const want = multiset(expected.changes as unknown[]);
        const got = multiset(changes.map((c) => c.rule));
        if (!jsonEqual(want, got)) failures.push(`changes: expected ${show(want)}, got ${show(got)}`);
      }
      for (const detail of (expected.changeDetails ?? []) as Array<Record<string, unknown>>) {
        const found = changes.some((c) => Object.keys(detail).every((k) => jsonEqual(detail[k], c[k])));
        if (!found)
          failures.push(
            `change ${show(detail)} not found among ${show(changes.map((c) => ({ rule: c.rule, messageIndex: c.messageIndex, toolCallId: c.toolCallId })))}`,
          );
      }
      break;
    }
    case "prepareForTemplate":
      compare("messages", actual);
      break;
    case "accumulate": {
      const calls = actual as Array<Record<string, unknown>>;
      if (expected.calls !== undefined) {
        const want = expected.calls as Array<Record<string, unknown>>;
        if (!Array.isArray(calls) || calls.length !== want.length) {
          failures.push(`calls: expected ${want.length} calls, got ${show(calls)}`);
        } else {
          want.forEach((w, i) => {
            for (const key of Object.keys(w)) {
              if (!jsonEqual(w[key], calls[i]?.[key]))
                failures.push(`calls[${i}].${key}: expected ${show(w[key])}, got ${show(calls[i]?.[key])}`);
            }
          });
        }
      }
      if (expected.decoded !== undefined)
        compare("decoded", Array.isArray(calls) ? calls.map((c) => c.decoded) : calls);
      break;
    }
    case "render":
      checkRender(expected, actual, failures);
      break;
    default: {
      const never: never = operation;
      failures.push(`unknown operation ${String(never)}`);
    }
  }
  return failures;
}

function resolveOptions(
  implementation: ConformanceImplementation,
  options: Record<string, unknown>,
): { ok: true; options: ConformanceOptions } | { ok: false; reason: string } {
  if (!Array.isArray(options.repairs)) return { ok: true, options };
  const ids = options.repairs as string[];
  if (ids.length === 0) return { ok: true, options: { ...options, repairs: [] } };
  const resolved = implementation.resolveRepairs?.(ids);
  if (resolved === undefined)
    return { ok: false, reason: `repairs ${ids.join(", ")} not provided by the implementation` };
  return { ok: true, options: { ...options, repairs: resolved } };
}

/**
 * Runs one case against an implementation, which may answer synchronously or with a promise (an adapter whose
 * operation is a stream). Never rejects: an implementation that throws fails the case (the rules say bad input gets
 * a status, not an exception).
 *
 * @example
 * for (const testCase of loadVectors()) console.log(testCase.id, (await runTest(implementation, testCase)).status);
 */
export async function runTest(
  implementation: ConformanceImplementation,
  testCase: ConformanceCase,
  options: { templatesDir?: string } = {},
): Promise<ConformanceOutcome> {
  const fn = implementation[testCase.operation] as
    | ((input: unknown, options: ConformanceOptions) => unknown)
    | undefined;
  if (typeof fn !== "function")
    return { status: "skip", messages: [`operation ${testCase.operation} not implemented`] };
  const resolved = resolveOptions(implementation, testCase.options);
  if (!resolved.ok) return { status: "skip", messages: [resolved.reason] };
  const decodeNeedsEncode = testCase.operation === "decode" && "encoded" in testCase.expected;
  if (decodeNeedsEncode && typeof implementation.encode !== "function") {
    return { status: "skip", messages: ["expected.encoded needs encode"] };
  }
  let input = testCase.input;
  if (testCase.operation === "render") {
    const render = resolveRenderInput(input, templatesDirectory(options.templatesDir));
    if ("skip" in render) return { status: "skip", messages: [render.skip] };
    input = render.input;
  }
  const before = snapshot(input);
  let actual: unknown;
  try {
    actual = await fn.call(implementation, input, resolved.options);
  } catch (error) {
    return { status: "fail", messages: [`threw: ${error instanceof Error ? error.message : String(error)}`] };
  }
  const failures = checkResult({
    operation: testCase.operation,
    expected: testCase.expected,
    actual,
    input: testCase.input,
  });
  if (decodeNeedsEncode) {
    const encodeOptions = (testCase.expected.encodeOptions ?? {}) as ConformanceOptions;
    try {
      const text = await implementation.encode?.((actual as { arguments: unknown }).arguments, encodeOptions);
      if (text !== testCase.expected.encoded)
        failures.push(`encoded: expected ${show(testCase.expected.encoded)}, got ${show(text)}`);
    } catch (error) {
      failures.push(`encode threw: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (before.ok && !jsonEqual(before.value, input)) failures.push("the input was mutated");
  if (testCase.operation === "sanitize" && failures.length === 0) {
    // R4: sanitize is idempotent; a second pass changes nothing and returns the same list.
    const first = actual as { messages: unknown };
    try {
      const again = fn.call(implementation, first.messages, resolved.options) as {
        messages: unknown;
        changes: unknown[];
      };
      if (again.changes.length > 0 || again.messages !== first.messages) {
        failures.push(`not idempotent: a second pass made ${show(again.changes)}`);
      }
    } catch (error) {
      failures.push(`second pass threw: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return failures.length === 0 ? { status: "pass", messages: [] } : { status: "fail", messages: failures };
}

/** Totals of a run. */
export interface ConformanceSummary {
  passed: number;
  failed: number;
  skipped: number;
  failures: Array<{ id: string; messages: string[] }>;
}

/**
 * Runs every case (minus the skip list) and totals the outcomes: the framework-neutral runner.
 *
 * @example
 * const summary = await runConformance({ implementation, cases: loadVectors() });
 * console.log(`${summary.passed} passed, ${summary.failed} failed`);
 */
export async function runConformance(args: {
  implementation: ConformanceImplementation;
  cases: readonly ConformanceCase[];
  skip?: Iterable<string>;
  /** Where render vectors that name a shared template file find it (default `$TOOLCALL_TEMPLATES`). */
  templatesDir?: string;
}): Promise<ConformanceSummary> {
  const skip = new Set(args.skip ?? []);
  const summary: ConformanceSummary = { passed: 0, failed: 0, skipped: 0, failures: [] };
  for (const testCase of args.cases) {
    if (skip.has(testCase.id)) {
      summary.skipped++;
      continue;
    }
    const outcome = await runTest(args.implementation, testCase, { templatesDir: args.templatesDir });
    if (outcome.status === "pass") summary.passed++;
    else if (outcome.status === "skip") summary.skipped++;
    else {
      summary.failed++;
      summary.failures.push({ id: testCase.id, messages: outcome.messages });
    }
  }
  return summary;
}
