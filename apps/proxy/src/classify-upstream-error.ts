import type { ProxyError } from "./proxy-error.js";

/**
 * Names what went wrong talking to the upstream, from undici's and Node's error codes, without echoing anything
 * the client sent (the message never carries headers or bodies).
 *
 * @example
 * classifyUpstreamError(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }));
 * // { code: "upstream_unreachable", status: 502, message: "the upstream refused the connection (ECONNREFUSED)" }
 */
export function classifyUpstreamError(error: unknown): ProxyError {
  const code = (error as { code?: unknown })?.code;
  switch (code) {
    case "ECONNREFUSED":
    case "ENOTFOUND":
    case "EAI_AGAIN":
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return {
        code: "upstream_unreachable",
        status: 502,
        message: `the upstream could not be reached (${code})`,
      };
    case "UND_ERR_CONNECT_TIMEOUT":
      return {
        code: "upstream_connect_timeout",
        status: 504,
        message: "connecting to the upstream timed out",
      };
    case "UND_ERR_HEADERS_TIMEOUT":
      return {
        code: "upstream_headers_timeout",
        status: 504,
        message: "the upstream did not answer in time",
      };
    case "UND_ERR_BODY_TIMEOUT":
      return {
        code: "upstream_idle_timeout",
        status: 504,
        message: "the upstream stopped sending in the middle of a response",
      };
    case "UND_ERR_SOCKET":
    case "ECONNRESET":
    case "EPIPE":
    case "UND_ERR_RES_CONTENT_LENGTH_MISMATCH":
      return {
        code: "upstream_reset",
        status: 502,
        message: "the upstream closed the connection before the response was complete",
      };
    default:
      if (typeof code === "string" && code.startsWith("HPE_"))
        return {
          code: "upstream_invalid_response",
          status: 502,
          message: `the upstream sent a malformed HTTP response (${code})`,
        };
      return {
        code: "upstream_reset",
        status: 502,
        message: `the upstream request failed (${typeof code === "string" ? code : "unknown error"})`,
      };
  }
}
