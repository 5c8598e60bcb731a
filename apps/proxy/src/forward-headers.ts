/**
 * Headers that describe one connection, not the message (RFC 9110 §7.6.1), plus `host` (the upstream's own is
 * used), `content-length` (recomputed for the body actually sent) and `expect` (the body is sent whole).
 */
const NOT_FORWARDED = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authorization",
  "proxy-authenticate",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "host",
  "content-length",
  "expect",
]);

function connectionTokens(value: string | undefined): Set<string> | undefined {
  if (value === undefined) return undefined;
  // What nearly every client and server sends names no other header.
  if (value.length <= 10) {
    const only = value.toLowerCase();
    if (only === "keep-alive" || only === "close") return undefined;
  }
  const tokens = value
    .toLowerCase()
    .split(",")
    .map((token) => token.trim())
    .filter((token) => token !== "" && token !== "close" && token !== "keep-alive");
  return tokens.length === 0 ? undefined : new Set(tokens);
}

/**
 * The client's headers as the upstream gets them (a flat `[name, value, …]` list, order and case kept):
 * connection-level headers dropped, everything else, `Authorization` included, untouched. `identity: true` asks the
 * upstream for an uncompressed body (the proxy reads the body it repairs).
 *
 * @example
 * requestHeadersForUpstream({ rawHeaders: ["Host", "proxy", "Authorization", "Bearer k"], identity: false });
 * // ["Authorization", "Bearer k"]
 */
export function requestHeadersForUpstream(args: {
  rawHeaders: readonly string[];
  identity: boolean;
  connection?: string | undefined;
}): string[] {
  const extra = connectionTokens(args.connection);
  const out: string[] = [];
  const raw = args.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    const lower = name.toLowerCase();
    if (NOT_FORWARDED.has(lower) || extra?.has(lower)) continue;
    if (args.identity && lower === "accept-encoding") continue;
    out.push(name, raw[i + 1] as string);
  }
  if (args.identity) out.push("accept-encoding", "identity");
  return out;
}

/** The upstream's response headers as the client gets them, with the few the proxy decides by. */
export interface ClientResponseHeaders {
  /** A flat `[name, value, …]` list for `writeHead`, without `Content-Length` (see `contentLength`). */
  headers: string[];
  /** The first value of each header the proxy reads (`undefined` when absent). */
  contentLength: string | undefined;
  contentType: string | undefined;
  contentEncoding: string | undefined;
  requestId: string | undefined;
}

/**
 * The upstream's response headers as the client gets them (a flat list for `writeHead`), in one pass: connection-level
 * headers dropped, and the headers the upstream's `Connection` names (RFC 9110 §7.6.1). `Content-Length` is left
 * out of the list and reported apart: the caller puts it back when it forwards the body as it is, and writes its
 * own when it rewrites the body.
 *
 * @example
 * responseHeadersForClient({ rawHeaders: [Buffer.from("Content-Type"), Buffer.from("application/json")] });
 * // { headers: ["Content-Type", "application/json"], contentType: "application/json", contentLength: undefined, … }
 */
export function responseHeadersForClient(args: { rawHeaders: readonly Buffer[] }): ClientResponseHeaders {
  let headers: string[] = [];
  let contentLength: string | undefined;
  let contentType: string | undefined;
  let contentEncoding: string | undefined;
  let requestId: string | undefined;
  let named: Set<string> | undefined;
  const raw = args.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = (raw[i] as Buffer).toString("latin1");
    const key = name.toLowerCase();
    const value = (raw[i + 1] as Buffer).toString("latin1");
    switch (key) {
      case "content-length":
        contentLength ??= value;
        continue;
      case "content-type":
        contentType ??= value;
        break;
      case "content-encoding":
        contentEncoding ??= value;
        break;
      case "x-request-id":
        requestId ??= value;
        break;
      case "connection": {
        const tokens = connectionTokens(value);
        if (tokens !== undefined) named = named === undefined ? tokens : new Set([...named, ...tokens]);
        continue;
      }
    }
    if (NOT_FORWARDED.has(key)) continue;
    headers.push(name, value);
  }
  if (named !== undefined) {
    const kept: string[] = [];
    for (let i = 0; i < headers.length; i += 2)
      if (!named.has((headers[i] as string).toLowerCase()))
        kept.push(headers[i] as string, headers[i + 1] as string);
    headers = kept;
  }
  return { headers, contentLength, contentType, contentEncoding, requestId };
}
