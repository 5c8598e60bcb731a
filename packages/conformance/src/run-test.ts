import { checkParse, streamSplits } from "./check-parse.js";
import { checkResult } from "./check-result.js";
import type { ConformanceImplementation, ConformanceOptions } from "./implementation.js";
import { jsonEqual, show } from "./json-equal.js";
import { type ConformanceLevel, isLevel, levelIncludes, shippedExpectedLevels } from "./levels.js";
import type { ConformanceCase } from "./load-vectors.js";
import { compareMessagesAtMappingLevel } from "./message-view.js";
import { resolveRenderInput, type TemplateFileReader } from "./render-case.js";
import { skipList } from "./skip-list.js";

/** The outcome of one case: `skip` when it cannot run (never counted as a pass). */
export interface ConformanceOutcome {
  status: "pass" | "fail" | "skip";
  /** Why it failed or was skipped; a failure's messages each start with the field that differs. */
  messages: string[];
  /** Set on a skip because the case has nothing to check at the run's level (a status at the mapping level). */
  notApplicable?: true;
}

/** Options of {@link runTest}. */
export interface RunTestOptions {
  /** The level to check at (default: the implementation's declared `level`, else `full`). */
  level?: ConformanceLevel;
  /** Where render vectors that name a shared template file find it (default `$TOOLCALL_TEMPLATES` in Node). */
  templatesDir?: string;
  /** How such a file is read (the Node entry's default reads the disk; the browser entry has none). */
  readTemplateFile?: TemplateFileReader;
}

function snapshot(value: unknown): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: structuredClone(value) };
  } catch {
    return { ok: false };
  }
}

/** A mapping-level implementation's answer as the result object the checks read. */
function asResult(
  operation: ConformanceCase["operation"],
  actual: unknown,
  declared: ConformanceLevel,
): unknown {
  if (declared === "full") return actual;
  if (operation === "decode") return { arguments: actual };
  if (operation === "sanitize" || operation === "sanitizeProvider") return { messages: actual };
  return actual;
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

function thrown(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Runs one case against an implementation, which may answer synchronously or with a promise (an adapter whose
 * operation is a stream). Never rejects: an implementation that throws fails the case (the rules say bad input gets
 * a status, not an exception). Besides `expected`, the input must not be mutated, and a sanitized history must be
 * idempotent (at the mapping level: a second pass gives the same history; at the full level: the same list and no
 * changes); a history sanitized for a provider must raise nothing in the implementation's own `validateProvider`.
 *
 * @example
 * for (const testCase of loadVectors()) console.log(testCase.id, (await runTest(implementation, testCase)).status);
 */
export async function runTest(
  implementation: ConformanceImplementation,
  testCase: ConformanceCase,
  options: RunTestOptions = {},
): Promise<ConformanceOutcome> {
  const declared: ConformanceLevel = isLevel(implementation.level) ? implementation.level : "full";
  const level = options.level ?? declared;
  if (!testCase.levels.includes(level))
    return { status: "skip", messages: [`nothing to check at the ${level} level`], notApplicable: true };
  if (implementation.operations && !implementation.operations.includes(testCase.operation))
    return { status: "skip", messages: [`operation ${testCase.operation} not declared`] };
  const fn = implementation[testCase.operation] as
    | ((input: unknown, options: ConformanceOptions) => unknown)
    | undefined;
  if (typeof fn !== "function")
    return { status: "skip", messages: [`operation ${testCase.operation} not implemented`] };
  const resolved = resolveOptions(implementation, testCase.options);
  if (!resolved.ok) return { status: "skip", messages: [resolved.reason] };
  const decodeNeedsEncode = testCase.operation === "decode" && "encoded" in testCase.expected;
  if (decodeNeedsEncode && typeof implementation.encode !== "function")
    return { status: "skip", messages: ["expected.encoded needs encode"] };
  let input = testCase.input;
  if (testCase.operation === "render") {
    const render = resolveRenderInput(input, options.templatesDir, options.readTemplateFile);
    if ("skip" in render) return { status: "skip", messages: [render.skip] };
    input = render.input;
  }
  const before = snapshot(input);
  let actual: unknown;
  try {
    actual = asResult(testCase.operation, await fn.call(implementation, input, resolved.options), declared);
  } catch (error) {
    return { status: "fail", messages: [`threw: ${thrown(error)}`] };
  }
  const failures = checkResult({
    operation: testCase.operation,
    expected: testCase.expected,
    actual,
    input: testCase.input,
    level,
  });
  if (decodeNeedsEncode) {
    const encodeOptions = (testCase.expected.encodeOptions ?? {}) as ConformanceOptions;
    try {
      const text = await implementation.encode?.((actual as { arguments: unknown }).arguments, encodeOptions);
      if (text !== testCase.expected.encoded)
        failures.push(`encoded: expected ${show(testCase.expected.encoded)}, got ${show(text)}`);
    } catch (error) {
      failures.push(`encoded: encode threw: ${thrown(error)}`);
    }
  }
  if (before.ok && !jsonEqual(before.value, input)) failures.push("input: the input was mutated");
  if (testCase.operation === "parseToolCalls" && typeof implementation.streamToolCalls === "function") {
    // R10: however the text is split, a stream finds what the whole parse finds.
    const keyLevels = shippedExpectedLevels().parseToolCalls ?? {};
    const at = (key: string) =>
      key in testCase.expected && levelIncludes(level, keyLevels[key]?.level ?? "full");
    for (const chunks of streamSplits(String(testCase.input))) {
      try {
        const streamed = await implementation.streamToolCalls(chunks, resolved.options);
        failures.push(
          ...checkParse(testCase.expected, streamed, at, level, `streamed in ${chunks.length} pieces: `),
        );
      } catch (error) {
        failures.push(`stream: threw ${thrown(error)}`);
      }
    }
  }
  const sanitizes = testCase.operation === "sanitize" || testCase.operation === "sanitizeProvider";
  if (sanitizes && failures.length === 0) {
    // R4: sanitize is idempotent; a second pass over its output changes nothing.
    const first = actual as { messages: unknown };
    try {
      const again = asResult(
        testCase.operation,
        await fn.call(implementation, first.messages, resolved.options),
        declared,
      ) as { messages: unknown; changes?: unknown[] };
      if (level === "full") {
        if ((again.changes ?? []).length > 0 || again.messages !== first.messages)
          failures.push(`idempotent: a second pass made ${show(again.changes)}`);
      } else {
        const drift = compareMessagesAtMappingLevel({
          form: "wire",
          input: first.messages,
          expected: first.messages,
          actual: again.messages,
        });
        if (drift.length > 0) failures.push(`idempotent: a second pass changed ${drift.join("; ")}`);
      }
    } catch (error) {
      failures.push(`idempotent: the second pass threw: ${thrown(error)}`);
    }
    // The provider accepts what its sanitize gives: the implementation's own validation finds nothing in it.
    const validates =
      typeof implementation.validateProvider === "function" &&
      (implementation.operations === undefined || implementation.operations.includes("validateProvider"));
    if (testCase.operation === "sanitizeProvider" && validates) {
      try {
        const left = await implementation.validateProvider?.(first.messages, resolved.options);
        if (!Array.isArray(left) || left.length > 0)
          failures.push(`accepted: the sanitized history still raises ${show(left)}`);
      } catch (error) {
        failures.push(`accepted: validateProvider threw on the sanitized history: ${thrown(error)}`);
      }
    }
  }
  return failures.length === 0 ? { status: "pass", messages: [] } : { status: "fail", messages: failures };
}

/** Totals of one rule (or of a whole run). */
export interface ConformanceTotals {
  passed: number;
  failed: number;
  skipped: number;
  /** Cases with nothing to check at the run's level: not run, not counted as skipped. */
  notApplicable: number;
}

/** Totals of a run. */
export interface ConformanceSummary extends ConformanceTotals {
  level: ConformanceLevel;
  failures: Array<{ id: string; title: string; messages: string[] }>;
  /** Totals per rule (`R1` …). */
  byRule: Record<string, ConformanceTotals>;
  /** Skip entries that name none of the cases run (a typo, or a vector renamed). */
  unmatchedSkips: string[];
}

/**
 * Runs every case (minus the skip list: ids, or id prefixes ending in `*`) at a level and totals the outcomes,
 * overall and per rule: the framework-neutral runner.
 *
 * @example
 * const summary = await runConformance({ implementation, cases: loadVectors(), level: "mapping" });
 * console.log(`${summary.passed} passed, ${summary.failed} failed`);
 */
export async function runConformance(args: {
  implementation: ConformanceImplementation;
  cases: readonly ConformanceCase[];
  skip?: Iterable<string>;
  /** Where render vectors that name a shared template file find it (default `$TOOLCALL_TEMPLATES` in Node). */
  templatesDir?: string;
  /** How such a file is read (the Node entry's default reads the disk; the browser entry has none). */
  readTemplateFile?: TemplateFileReader;
  level?: ConformanceLevel;
}): Promise<ConformanceSummary> {
  const skip = skipList(args.skip);
  const level = args.level ?? (isLevel(args.implementation.level) ? args.implementation.level : "full");
  const summary: ConformanceSummary = {
    level,
    passed: 0,
    failed: 0,
    skipped: 0,
    notApplicable: 0,
    failures: [],
    byRule: {},
    unmatchedSkips: skip.unmatched(args.cases.map((c) => c.id)),
  };
  for (const testCase of args.cases) {
    summary.byRule[testCase.rule] ??= { passed: 0, failed: 0, skipped: 0, notApplicable: 0 };
    const rule = summary.byRule[testCase.rule] as ConformanceTotals;
    const outcome: ConformanceOutcome =
      skip.match(testCase.id) !== undefined && testCase.levels.includes(level)
        ? { status: "skip", messages: ["in the skip list"] }
        : await runTest(args.implementation, testCase, {
            level,
            ...(args.templatesDir !== undefined ? { templatesDir: args.templatesDir } : {}),
            ...(args.readTemplateFile !== undefined ? { readTemplateFile: args.readTemplateFile } : {}),
          });
    const key = outcome.notApplicable
      ? "notApplicable"
      : outcome.status === "pass"
        ? "passed"
        : outcome.status === "fail"
          ? "failed"
          : "skipped";
    summary[key]++;
    rule[key]++;
    if (outcome.status === "fail")
      summary.failures.push({ id: testCase.id, title: testCase.title, messages: outcome.messages });
  }
  return summary;
}
