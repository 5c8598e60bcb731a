/** Why the proxy answered with an error of its own. Stable snake_case codes, sent as `error.code`. */
export type ProxyErrorCode =
  | "invalid_request_target"
  | "method_not_allowed"
  | "request_too_large"
  | "request_body_timeout"
  | "request_encoding_unsupported"
  | "request_body_undecodable"
  | "proxy_draining"
  | "upstream_unreachable"
  | "upstream_connect_timeout"
  | "upstream_headers_timeout"
  | "upstream_idle_timeout"
  | "upstream_reset"
  | "upstream_status"
  | "upstream_invalid_response"
  | "upstream_invalid_stream"
  | "upstream_incomplete_stream"
  | "upstream_response_too_large"
  | "upstream_event_too_large"
  | "request_deadline"
  | "internal_error";

/** An error the proxy reports: what the client sees and what `/metrics` counts. */
export interface ProxyError {
  code: ProxyErrorCode;
  message: string;
  /** HTTP status when the error ends the response before headers were sent. */
  status: number;
}

/**
 * The OpenAI error `type` a code is reported under.
 *
 * @example
 * errorType("request_too_large"); // "invalid_request_error"
 */
export function errorType(code: ProxyErrorCode): string {
  switch (code) {
    case "invalid_request_target":
    case "method_not_allowed":
    case "request_too_large":
    case "request_body_timeout":
    case "request_encoding_unsupported":
    case "request_body_undecodable":
      return "invalid_request_error";
    case "proxy_draining":
    case "internal_error":
      return "server_error";
    case "upstream_unreachable":
    case "upstream_connect_timeout":
    case "upstream_headers_timeout":
    case "upstream_idle_timeout":
    case "upstream_reset":
    case "upstream_status":
    case "upstream_invalid_response":
    case "upstream_invalid_stream":
    case "upstream_incomplete_stream":
    case "upstream_response_too_large":
    case "upstream_event_too_large":
    case "request_deadline":
      return "upstream_error";
    default: {
      const never: never = code;
      return never;
    }
  }
}

/**
 * The body of an OpenAI-style error, as every OpenAI SDK reads it: `{"error":{"message","type","code"}}`.
 *
 * @example
 * errorBody({ code: "upstream_unreachable", message: "connection refused", status: 502 });
 * // '{"error":{"message":"connection refused","type":"upstream_error","code":"upstream_unreachable","param":null}}'
 */
export function errorBody(error: ProxyError): string {
  return JSON.stringify({
    error: { message: error.message, type: errorType(error.code), code: error.code, param: null },
  });
}

/**
 * The SSE frame that ends a stream whose headers were already sent. `event: error` with an `error` object is what
 * the OpenAI SDKs (JavaScript and Python) raise as an API error; the Responses API's own `type`, `code` and
 * `message` fields are there for clients that read events directly.
 *
 * @example
 * errorFrame({ code: "upstream_reset", message: "the upstream closed the connection mid-stream", status: 502 });
 * // 'event: error\ndata: {"type":"error","error":{…},"code":"upstream_reset","message":"…","param":null}\n\n'
 */
export function errorFrame(error: ProxyError): string {
  const payload = {
    type: "error",
    error: { message: error.message, type: errorType(error.code), code: error.code, param: null },
    code: error.code,
    message: error.message,
    param: null,
  };
  return `event: error\ndata: ${JSON.stringify(payload)}\n\n`;
}
