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

/**
 * The upstream's response headers as the client gets them (a flat list for `writeHead`): connection-level headers
 * dropped; `drop` removes more (`content-length` of a body the proxy rewrites).
 *
 * @example
 * responseHeadersForClient({ rawHeaders: [Buffer.from("Content-Type"), Buffer.from("application/json")] });
 * // ["Content-Type", "application/json"]
 */
export function responseHeadersForClient(args: {
  rawHeaders: readonly Buffer[];
  drop?: ReadonlySet<string>;
}): { headers: string[]; lower: Map<string, string> } {
  let headers: string[] = [];
  const lower = new Map<string, string>();
  const raw = args.rawHeaders;
  let extra: Set<string> | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const name = (raw[i] as Buffer).toString("latin1");
    const key = name.toLowerCase();
    const value = (raw[i + 1] as Buffer).toString("latin1");
    if (!lower.has(key)) lower.set(key, value);
    if (key === "connection") extra = connectionTokens(value);
    // The response's length is forwarded as it is, unless the body is rewritten (then `drop` has it).
    if (key !== "content-length" && NOT_FORWARDED.has(key)) continue;
    if (args.drop?.has(key)) continue;
    headers.push(name, value);
  }
  // Headers the upstream's `Connection` names are its connection's own (RFC 9110 §7.6.1).
  if (extra !== undefined) {
    const named = extra;
    const kept: string[] = [];
    for (let i = 0; i < headers.length; i += 2)
      if (!named.has((headers[i] as string).toLowerCase()))
        kept.push(headers[i] as string, headers[i + 1] as string);
    headers = kept;
  }
  return { headers, lower };
}
