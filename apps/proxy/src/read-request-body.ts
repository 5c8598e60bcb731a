import type { IncomingMessage } from "node:http";

export type BodyResult =
  | { ok: true; body: Buffer | null }
  | { ok: false; reason: "too_large" | "aborted" | "timeout" };

const EMPTY = Buffer.alloc(0);

/**
 * Reads a request body whole, up to `maxBody` bytes; a declared or actual size above it is refused before more is
 * read. `null` for a request without a body. A body not whole within `timeout` milliseconds (0: no limit) is given
 * up (`timeout`): a client trickling a byte at a time does not keep its socket. `done` is called once (a callback,
 * not a promise: this runs on every request, and the answer is on its way sooner without a trip through the
 * microtask queue).
 *
 * @example
 * readRequestBody({ request, maxBody: 10 * 1024 * 1024, timeout: 30_000 }, (result) => {
 *   if (!result.ok && result.reason === "too_large") // answer 413
 * });
 */
export function readRequestBody(
  args: { request: IncomingMessage; maxBody: number; timeout?: number },
  done: (result: BodyResult) => void,
): void {
  const { request, maxBody } = args;
  const declared = request.headers["content-length"];
  const hasBody =
    declared !== undefined ? declared !== "0" : request.headers["transfer-encoding"] !== undefined;
  if (!hasBody) {
    // Nothing to read; let the request finish so the connection can be reused.
    request.resume();
    done({ ok: true, body: declared === "0" ? EMPTY : null });
    return;
  }
  if (declared !== undefined && Number(declared) > maxBody) {
    done({ ok: false, reason: "too_large" });
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let finished = false;
  const timeout = args.timeout ?? 0;
  const timer =
    timeout > 0 && !request.complete
      ? setTimeout(() => {
          request.pause();
          finish({ ok: false, reason: "timeout" });
        }, timeout)
      : undefined;
  const finish = (result: BodyResult): void => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    request.off("data", onData);
    request.off("end", onEnd);
    request.off("error", onAbort);
    request.off("close", onClose);
    done(result);
  };
  const onData = (chunk: Buffer): void => {
    size += chunk.length;
    if (size > maxBody) {
      request.pause();
      finish({ ok: false, reason: "too_large" });
      return;
    }
    chunks.push(chunk);
  };
  const onEnd = (): void =>
    finish({ ok: true, body: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size) });
  const onAbort = (): void => finish({ ok: false, reason: "aborted" });
  const onClose = (): void => {
    if (!request.complete) onAbort();
  };
  request.on("data", onData);
  request.on("end", onEnd);
  request.on("error", onAbort);
  request.on("close", onClose);
}

/**
 * Reads the rest of a refused request's body and throws it away, up to `limit` bytes, then calls `done` once (the
 * body ended, the client left, or the limit was passed: then the request is destroyed). A client still sending a body
 * the proxy has already answered would otherwise get a reset (EPIPE) instead of the answer.
 *
 * @example
 * discardRequestBody({ request, limit: 40 * 1024 * 1024 }, () => response.end());
 */
export function discardRequestBody(
  args: { request: IncomingMessage; limit: number },
  done: () => void,
): void {
  const { request, limit } = args;
  let size = 0;
  let finished = false;
  const finish = (): void => {
    if (finished) return;
    finished = true;
    request.off("data", onData);
    done();
  };
  const onData = (chunk: Buffer): void => {
    size += chunk.length;
    if (size > limit) {
      finish();
      request.destroy();
    }
  };
  if (request.complete || request.destroyed) {
    finish();
    return;
  }
  request.on("data", onData);
  request.once("end", finish);
  request.once("close", finish);
  request.once("error", finish);
  request.resume();
}
