import { checkParse } from "./check-parse.js";
import type {
  ConformanceIssue,
  ConformanceOperation,
  ConformanceParseResult,
  ConformanceVerdict,
} from "./implementation.js";
import { jsonEqual, show } from "./json-equal.js";
import { type ConformanceLevel, levelIncludes, shippedExpectedLevels } from "./levels.js";
import { compareMessagesAtMappingLevel } from "./message-view.js";
import { checkRender } from "./render-case.js";

function multiset(values: readonly unknown[]): string[] {
  return values.map((v) => String(v)).sort();
}

function checkIssues(
  expected: Record<string, unknown>,
  issues: readonly ConformanceIssue[],
  failures: string[],
): void {
  if (!Array.isArray(issues)) {
    failures.push(`issues: expected a list of issues, got ${show(issues)}`);
    return;
  }
  if (expected.codes !== undefined) {
    const want = multiset(expected.codes as unknown[]);
    const got = multiset(issues.map((i) => i.code));
    if (!jsonEqual(want, got)) failures.push(`codes: expected ${show(want)}, got ${show(got)}`);
  }
  if (expected.issues !== undefined) {
    for (const wanted of expected.issues as ConformanceIssue[]) {
      const prefix = (wanted as { messagePrefix?: string }).messagePrefix;
      const found = issues.some(
        (i) =>
          i.code === wanted.code &&
          (wanted.severity === undefined || i.severity === wanted.severity) &&
          (wanted.path === undefined || jsonEqual(i.path, wanted.path)) &&
          (wanted.message === undefined || i.message === wanted.message) &&
          (prefix === undefined || (typeof i.message === "string" && i.message.startsWith(prefix))) &&
          (wanted.status === undefined || i.status === wanted.status),
      );
      if (!found) failures.push(`issues: ${show(wanted)} not found among ${show(issues)}`);
    }
  }
}

function checkSanitizeChanges(expected: Record<string, unknown>, changes: unknown, failures: string[]): void {
  const list = (Array.isArray(changes) ? changes : []) as Array<Record<string, unknown>>;
  if (expected.changes !== undefined) {
    const want = multiset(expected.changes as unknown[]);
    const got = multiset(list.map((c) => c.rule));
    if (!jsonEqual(want, got)) failures.push(`changes: expected ${show(want)}, got ${show(got)}`);
  }
  for (const detail of (expected.changeDetails ?? []) as Array<Record<string, unknown>>) {
    const found = list.some((c) => Object.keys(detail).every((k) => jsonEqual(detail[k], c[k])));
    if (!found)
      failures.push(
        `changeDetails: ${show(detail)} not found among ${show(list.map((c) => ({ rule: c.rule, messageIndex: c.messageIndex, toolCallId: c.toolCallId })))}`,
      );
  }
}

function sameSet(a: unknown, b: unknown): boolean {
  return Array.isArray(a) && Array.isArray(b) && jsonEqual(multiset(a), multiset(b));
}

/** `providerVerdict`: who rejects and accepts (a set at the mapping level, the profiles' order at the full level), and each finding. */
function checkVerdict(
  expected: Record<string, unknown>,
  actual: unknown,
  at: (key: string) => boolean,
  level: ConformanceLevel,
  failures: string[],
): void {
  const verdict = actual as Partial<ConformanceVerdict> | undefined;
  for (const key of ["rejectedBy", "acceptedBy"] as const) {
    if (!at(key)) continue;
    const same =
      level === "full" ? jsonEqual(expected[key], verdict?.[key]) : sameSet(expected[key], verdict?.[key]);
    if (!same) failures.push(`${key}: expected ${show(expected[key])}, got ${show(verdict?.[key])}`);
  }
  if (!at("findings")) return;
  const want = expected.findings as Array<{ code: string; path: unknown; rejectedBy?: unknown }>;
  const got = Array.isArray(verdict?.findings) ? verdict.findings : [];
  if (got.length !== want.length) failures.push(`findings: expected ${want.length}, got ${show(got)}`);
  for (const finding of want) {
    const match = got.find((f) => f?.code === finding.code && jsonEqual(f.path, finding.path));
    if (match === undefined) failures.push(`findings: ${show(finding)} not found among ${show(got)}`);
    else if (finding.rejectedBy !== undefined && !jsonEqual(match.rejectedBy, finding.rejectedBy))
      failures.push(`findings: ${show(finding)} is rejected by ${show(match.rejectedBy)}`);
  }
}

function checkCalls(
  expected: Record<string, unknown>,
  calls: unknown,
  at: (key: string, item?: string) => boolean,
  failures: string[],
): void {
  const list = calls as Array<Record<string, unknown>>;
  if (expected.calls !== undefined && at("calls")) {
    const want = expected.calls as Array<Record<string, unknown>>;
    if (!Array.isArray(list) || list.length !== want.length) {
      failures.push(`calls: expected ${want.length} calls, got ${show(list)}`);
    } else {
      want.forEach((w, i) => {
        for (const key of Object.keys(w)) {
          if (!at("calls", key)) continue;
          if (!jsonEqual(w[key], list[i]?.[key]))
            failures.push(`calls[${i}].${key}: expected ${show(w[key])}, got ${show(list[i]?.[key])}`);
        }
      });
    }
  }
  if (expected.decoded !== undefined && at("decoded")) {
    const decoded = Array.isArray(list) ? list.map((c) => c?.decoded) : list;
    if (!jsonEqual(expected.decoded, decoded))
      failures.push(`decoded: expected ${show(expected.decoded)}, got ${show(decoded)}`);
  }
}

/**
 * Checks an operation's result against a case's `expected` (VECTORS.md) at a level (default `full`): each key of
 * `expected` whose level the run includes is one check. One message per mismatch, each starting with the field that
 * differs (`status: expected "empty", got "object"`); `[]` when it conforms. `actual` is the result object of a
 * full-level implementation (`{ arguments, status, … }` for decode, `{ messages, changes }` for sanitize).
 *
 * @example
 * checkResult({ operation: "encode", expected: { text: "{}" }, actual: "{}" }); // []
 * checkResult({ operation: "decode", expected: { status: "empty", arguments: {} }, actual: { arguments: {} }, level: "mapping" }); // []
 */
export function checkResult(args: {
  operation: ConformanceOperation;
  expected: Record<string, unknown>;
  actual: unknown;
  input?: unknown;
  level?: ConformanceLevel;
}): string[] {
  const { operation, expected, actual, input } = args;
  const level = args.level ?? "full";
  const keyLevels = shippedExpectedLevels()[operation] ?? {};
  const at = (key: string, item?: string): boolean => {
    const entry = keyLevels[key];
    const keyLevel = (item === undefined ? entry?.level : (entry?.items?.[item] ?? entry?.level)) ?? "full";
    return key in expected && levelIncludes(level, keyLevel);
  };
  const failures: string[] = [];
  const result = actual as Record<string, unknown> | undefined;
  const compare = (key: string, got: unknown) => {
    if (at(key) && !jsonEqual(expected[key], got))
      failures.push(`${key}: expected ${show(expected[key])}, got ${show(got)}`);
  };
  switch (operation) {
    case "decode": {
      compare("status", result?.status);
      compare("arguments", result?.arguments);
      if (at("repairs")) compare("repairs", result?.repairs ?? []);
      if (at("budget")) compare("budget", result?.budget ?? []);
      compare("raw", result?.raw);
      if (at("rawAbsent") && expected.rawAbsent === true && result?.raw !== undefined)
        failures.push(`rawAbsent: expected no raw, got ${show(result.raw)}`);
      if (at("identity") && expected.identity === true && result?.arguments !== input)
        failures.push("identity: the input object was not returned itself");
      break;
    }
    case "encode":
      if (at("text") && typeof actual !== "string")
        failures.push(`text: expected ${show(expected.text)}, got a ${typeof actual}: ${show(actual)}`);
      else compare("text", actual);
      break;
    case "validate":
    case "validateHistory":
    case "validateProvider":
      if (at("accepted")) {
        const accepted = Array.isArray(actual) ? actual.length === 0 : undefined;
        if (accepted !== expected.accepted)
          failures.push(
            `accepted: expected ${show(expected.accepted)}, got ${Array.isArray(actual) ? `${show(accepted)}: ${show(actual)}` : show(actual)}`,
          );
      }
      if (at("codes") || at("issues")) checkIssues(expected, actual as ConformanceIssue[], failures);
      break;
    case "providerVerdict":
      checkVerdict(expected, actual, at, level, failures);
      break;
    case "sanitize":
    case "sanitizeProvider":
    case "prepareForTemplate": {
      const sanitizes = operation !== "prepareForTemplate";
      const messages = sanitizes ? result?.messages : actual;
      if (at("messages")) {
        if (level === "full") compare("messages", messages);
        else
          failures.push(
            ...compareMessagesAtMappingLevel({
              form: sanitizes ? "wire" : "template",
              input,
              expected: expected.messages,
              actual: messages,
            }),
          );
      }
      if (sanitizes) {
        if (at("unchanged") && expected.unchanged === true && messages !== input)
          failures.push("unchanged: the input list was not returned itself");
        if (at("changes") || at("changeDetails")) checkSanitizeChanges(expected, result?.changes, failures);
      }
      break;
    }
    case "accumulate":
    case "decideStream":
      checkCalls(expected, actual, at, failures);
      break;
    case "parseToolCalls":
    case "readFencedJsonCalls":
      failures.push(...checkParse(expected, actual as ConformanceParseResult, at, level));
      break;
    case "readMalformedFunctionCall": {
      compare("candidate", result?.candidate);
      compare("status", result?.status);
      if (at("issues")) {
        const issues = Array.isArray(result?.issues) ? (result.issues as { code?: unknown }[]) : [];
        const want = (expected.issues as unknown[]).map(String).sort();
        const got = issues.map((issue) => String(issue?.code)).sort();
        if (!jsonEqual(want, got)) failures.push(`issues: expected ${show(want)}, got ${show(got)}`);
      }
      break;
    }
    case "encodeToolCalls":
      if (at("text") && typeof actual !== "string")
        failures.push(`text: expected ${show(expected.text)}, got a ${typeof actual}: ${show(actual)}`);
      else compare("text", actual);
      break;
    case "normalizeAnswer":
      compare("text", result?.text);
      compare("changed", result?.changed);
      compare("usable", result?.usable);
      compare("status", result?.status);
      if (at("repairs")) compare("repairs", result?.repairs ?? []);
      break;
    case "render":
      checkRender(expected, actual, at, failures);
      break;
    default: {
      const never: never = operation;
      failures.push(`operation: unknown operation ${String(never)}`);
    }
  }
  return failures;
}
