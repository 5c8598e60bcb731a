import { errorBody } from "./proxy-error.js";

/**
 * An upstream error body as an OpenAI-style error: kept when it already is one, wrapped otherwise.
 *
 * @example
 * upstreamErrorBody(502, Buffer.from("<h1>Bad Gateway</h1>")).toString();
 * // '{"error":{"message":"the upstream answered HTTP 502: <h1>Bad Gateway</h1>","type":"upstream_error",…}}'
 */
export function upstreamErrorBody(status: number, body: Buffer): Buffer {
  try {
    const parsed = JSON.parse(body.toString("utf8")) as { error?: unknown };
    if (typeof parsed === "object" && parsed !== null && parsed.error !== undefined) return body;
  } catch {
    // Not JSON (an HTML page from a gateway, a plain-text message): wrapped below.
  }
  const text = body.toString("utf8").replace(/\s+/g, " ").trim().slice(0, 200);
  return Buffer.from(
    errorBody({
      code: "upstream_status",
      status,
      message: `the upstream answered HTTP ${status}${text === "" ? "" : `: ${text}`}`,
    }),
  );
}
