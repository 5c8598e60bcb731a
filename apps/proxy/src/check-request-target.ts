/** A request target the proxy forwards: origin-form only. */
export type RequestTarget =
  | { ok: true; path: string; pathname: string }
  | { ok: false; code: "invalid_request_target"; message: string };

/**
 * Accepts only origin-form targets (`/v1/models?x=1`). Absolute URIs (`http://elsewhere/…`, what a client sends to
 * a forward proxy), authority-form (`CONNECT host:443`), `*`, and `.`/`..` segments (which could climb out of the
 * upstream's path prefix) are refused: the proxy never chooses where a request goes from what the request says.
 *
 * @example
 * checkRequestTarget("/v1/chat/completions"); // { ok: true, path: "/v1/chat/completions", pathname: "/v1/chat/completions" }
 * checkRequestTarget("http://169.254.169.254/latest"); // { ok: false, code: "invalid_request_target", … }
 */
export function checkRequestTarget(target: string | undefined): RequestTarget {
  if (target === undefined || !target.startsWith("/") || target.startsWith("//")) {
    return {
      ok: false,
      code: "invalid_request_target",
      message:
        "only origin-form request targets (a path starting with one /) are accepted: this is not a forward proxy",
    };
  }
  const query = target.indexOf("?");
  const pathname = query === -1 ? target : target.slice(0, query);
  // A dot segment needs a dot, written or percent-encoded.
  if (!pathname.includes(".") && !pathname.includes("%")) return { ok: true, path: target, pathname };
  for (const segment of pathname.split("/")) {
    let decoded = segment;
    if (segment.includes("%")) {
      try {
        decoded = decodeURIComponent(segment);
      } catch {
        decoded = segment;
      }
    }
    if (decoded === "." || decoded === "..") {
      return {
        ok: false,
        code: "invalid_request_target",
        message: "dot segments are not accepted in the path",
      };
    }
  }
  return { ok: true, path: target, pathname };
}
