/** The one server the proxy talks to: its origin, and a path prefix every request path is put under. */
export interface UpstreamTarget {
  /** `http://host:port` or `https://host:port`. */
  origin: string;
  /** `""` or a prefix such as `/openai` (no trailing slash). */
  pathPrefix: string;
}

/**
 * Reads `--upstream`. A trailing `/v1` is dropped, since clients send `/v1/…` paths themselves: both
 * `http://127.0.0.1:8000` and `http://127.0.0.1:8000/v1` mean the same server. Without a scheme (`127.0.0.1:8000`,
 * `localhost:8000/v1`), `http://` is meant. Credentials, queries and fragments in the URL are refused (they would be
 * silently ignored).
 *
 * @example
 * parseUpstream("http://127.0.0.1:8000/v1"); // { ok: true, origin: "http://127.0.0.1:8000", pathPrefix: "" }
 */
export function parseUpstream(text: string): ({ ok: true } & UpstreamTarget) | { ok: false; error: string } {
  let url: URL;
  try {
    // `127.0.0.1:8000` or `localhost:8000/v1`, as servers print where they listen, means plain HTTP there.
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`);
  } catch {
    return { ok: false, error: `--upstream is not a URL: ${JSON.stringify(text)}` };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return { ok: false, error: `--upstream must be http or https (got ${url.protocol})` };
  if (url.username !== "" || url.password !== "")
    return {
      ok: false,
      error: "--upstream must not carry credentials (clients send their own Authorization)",
    };
  if (url.search !== "" || url.hash !== "")
    return { ok: false, error: "--upstream must not have a query or a fragment" };
  const pathPrefix = url.pathname.replace(/\/+$/, "").replace(/\/v1$/, "");
  return { ok: true, origin: url.origin, pathPrefix };
}
