/** A request target the proxy forwards: origin-form only. */
export type RequestTarget =
  | { ok: true; path: string; pathname: string }
  | { ok: false; code: "invalid_request_target"; message: string };

/** Percent-escapes are decoded this many times over (`%252e` is `.` escaped twice); deeper nesting is refused. */
const MAX_DECODES = 4;

const NOT_ORIGIN_FORM =
  "only origin-form request targets (a path starting with one /) are accepted: this is not a forward proxy";

function hexValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  const lower = code | 0x20;
  if (lower >= 97 && lower <= 102) return lower - 87;
  return -1;
}

/**
 * One round of percent-decoding, byte by byte, as a lenient server does it (`%zz` stays as written; a decoded byte
 * becomes the character of the same code, which is all the check needs: dots, slashes and backslashes are ASCII).
 */
function decodeOnce(text: string): string {
  if (!text.includes("%")) return text;
  let out = "";
  let from = 0;
  for (let i = text.indexOf("%"); i !== -1 && i + 2 < text.length; i = text.indexOf("%", i + 1)) {
    const high = hexValue(text.charCodeAt(i + 1));
    const low = hexValue(text.charCodeAt(i + 2));
    if (high < 0 || low < 0) continue;
    out += text.slice(from, i) + String.fromCharCode(high * 16 + low);
    from = i + 3;
    i += 2;
  }
  return from === 0 ? text : out + text.slice(from);
}

/** `.` and `..`, also with the `;params` some servers strip from a segment, or trailing blanks or NULs. */
function isDotSegment(segment: string): boolean {
  if (segment === "" || segment.charCodeAt(0) !== 46) return false;
  const semicolon = segment.indexOf(";");
  let end = semicolon === -1 ? segment.length : semicolon;
  // Trailing blanks and NULs, dropped by hand (a regex anchored at the end scans quadratically on hostile runs).
  while (end > 1 && " \t\r\n\0".includes(segment.charAt(end - 1))) end--;
  return end === 1 || (end === 2 && segment.charCodeAt(1) === 46);
}

/**
 * Accepts only origin-form targets (`/v1/models?x=1`). Absolute URIs (`http://elsewhere/…`, what a client sends to
 * a forward proxy), authority-form (`CONNECT host:443`), `*`, protocol-relative paths and `.`/`..` segments (which
 * could climb out of the upstream's path prefix) are refused: the proxy never chooses where a request goes from what
 * the request says. The path is read the way any server behind might read it before the check: percent-escapes
 * decoded (up to four times over: `%252e%252e` is `..`; deeper nesting is refused), and backslashes (written or
 * escaped) read as slashes; so `/v1/..%2fadmin`, `/v1/..\admin`, `/v1/%252e%252e/admin` and `/\host/x` are refused.
 * The path goes upstream as the client wrote it.
 *
 * @example
 * checkRequestTarget("/v1/chat/completions"); // { ok: true, path: "/v1/chat/completions", pathname: "/v1/chat/completions" }
 * checkRequestTarget("/v1/..%2fadmin"); // { ok: false, code: "invalid_request_target", message: "dot segments …" }
 */
export function checkRequestTarget(target: string | undefined): RequestTarget {
  if (target === undefined || !target.startsWith("/") || target.startsWith("//"))
    return { ok: false, code: "invalid_request_target", message: NOT_ORIGIN_FORM };
  const query = target.indexOf("?");
  const pathname = query === -1 ? target : target.slice(0, query);
  // A dot segment or a second root needs a dot, an escape or a backslash, written.
  if (!pathname.includes(".") && !pathname.includes("%") && !pathname.includes("\\"))
    return { ok: true, path: target, pathname };
  let decoded = pathname;
  for (let round = 0; ; round++) {
    const next = decodeOnce(decoded);
    if (next === decoded) break;
    if (round === MAX_DECODES)
      return {
        ok: false,
        code: "invalid_request_target",
        message: `percent-escapes nested more than ${MAX_DECODES} deep are not accepted in the path`,
      };
    decoded = next;
  }
  const normalized = decoded.replaceAll("\\", "/");
  if (normalized.startsWith("//"))
    return { ok: false, code: "invalid_request_target", message: NOT_ORIGIN_FORM };
  for (const segment of normalized.split("/")) {
    if (isDotSegment(segment))
      return {
        ok: false,
        code: "invalid_request_target",
        message:
          "dot segments (`.`, `..`, written, percent-escaped or with backslashes) are not accepted in the path",
      };
  }
  return { ok: true, path: target, pathname };
}
