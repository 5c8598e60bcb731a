import type { IncomingMessage, ServerResponse } from "node:http";
import { decodeRequestBody } from "./decode-request-body.js";
import { errorBody, type ProxyError } from "./proxy-error.js";
import { type ProxyRuntime, type RequestState, sendError } from "./proxy-runtime.js";
import { discardRequestBody, readRequestBody } from "./read-request-body.js";

/** The most of a refused body read and thrown away before the connection is closed on the client. */
const DISCARD_LIMIT = 64 * 1024 * 1024;

/**
 * Makes the connection end with this answer: no keep-alive, and, when the client is still sending a body no one
 * will read, the socket is closed once the answer is written (a trickling client keeps nothing open).
 *
 * @example
 * closeWhenAnswered({ request, response });
 * sendError({ runtime, state, response, error });
 */
export function closeWhenAnswered(args: { request: IncomingMessage; response: ServerResponse }): void {
  const { request, response } = args;
  response.shouldKeepAlive = false;
  response.once("finish", () => {
    if (!request.complete) request.socket?.destroy();
  });
}

/**
 * A body over the limit (declared or read): the 413 is written whole at once, before the body is read, and the
 * rest of the body is read and thrown away (up to a bound) so the client, still sending, gets the answer instead
 * of a reset; then the connection closes.
 */
function refuseTooLarge(args: {
  runtime: ProxyRuntime;
  state: RequestState;
  request: IncomingMessage;
  response: ServerResponse;
}): void {
  const { state, request, response } = args;
  const error: ProxyError = {
    code: "request_too_large",
    status: 413,
    message: `the request body is larger than ${args.runtime.options.maxBody} bytes (--max-body)`,
  };
  state.error = error;
  response.shouldKeepAlive = false;
  const body = errorBody(error);
  response.writeHead(413, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(body),
    "x-request-id": state.id,
  });
  response.write(body);
  discardRequestBody({ request, limit: DISCARD_LIMIT }, () => response.end());
}

/**
 * Receives a request's body and hands it to `next`, or answers for it: 413 over `--max-body` (declared, read, or
 * once decoded), 408 `request_body_timeout` when it is not whole within `--body-timeout` (the connection closed),
 * and, with `decode` (the routes whose history is sanitized), a compressed body decoded first (see
 * `decodeRequestBody`: 415 for an encoding that cannot be read). A request answered meanwhile (its deadline) is
 * left alone.
 *
 * @example
 * receiveRequestBody({ runtime, state, request, response, decode: true, timeout: 30_000 }, (body) => handle(body));
 */
export function receiveRequestBody(
  args: {
    runtime: ProxyRuntime;
    state: RequestState;
    request: IncomingMessage;
    response: ServerResponse;
    decode: boolean;
    timeout: number;
  },
  next: (body: Buffer | null) => void,
): void {
  const { runtime, state, request, response } = args;
  const answered = (): boolean => response.writableEnded || response.destroyed;
  const fail = (error: ProxyError): void => {
    closeWhenAnswered({ request, response });
    sendError({ runtime, state, response, error });
  };
  readRequestBody({ request, maxBody: runtime.options.maxBody, timeout: args.timeout }, (read) => {
    if (answered()) return;
    if (!read.ok) {
      if (read.reason === "too_large") refuseTooLarge(args);
      else if (read.reason === "timeout")
        fail({
          code: "request_body_timeout",
          status: 408,
          message: `the request body did not arrive whole within ${args.timeout} ms (--body-timeout)`,
        });
      else response.destroy();
      return;
    }
    const encoding = request.headers["content-encoding"];
    if (!args.decode || encoding === undefined) {
      next(read.body);
      return;
    }
    decodeRequestBody({ body: read.body, contentEncoding: encoding, maxBody: runtime.options.maxBody }).then(
      (decoded) => {
        if (answered()) return;
        if (decoded.ok) next(decoded.body);
        else fail(decoded.error);
      },
    );
  });
}
