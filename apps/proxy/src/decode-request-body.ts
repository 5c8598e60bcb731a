import { promisify } from "node:util";
import { brotliDecompress, gunzip, inflate } from "node:zlib";
import type { ProxyError } from "./proxy-error.js";

const DECODERS: Record<string, (body: Buffer, options: { maxOutputLength: number }) => Promise<Buffer>> = {
  gzip: promisify(gunzip),
  "x-gzip": promisify(gunzip),
  deflate: promisify(inflate),
  br: promisify(brotliDecompress),
};

/** The encodings a request body may come in on a repaired route (`identity` is none). */
export const REQUEST_ENCODINGS = ["gzip", "deflate", "br"] as const;

/** The most encodings one body may be wrapped in (`Content-Encoding: gzip, br`). */
const MAX_LAYERS = 2;

export type DecodedBody = { ok: true; body: Buffer | null } | { ok: false; error: ProxyError };

/**
 * A request body as the proxy reads it: decoded from its `Content-Encoding` (gzip, deflate, br, or a list of them,
 * undone last first) so its history can be sanitized. Decoding stops at `maxBody` bytes of output whatever the
 * ratio (a compression bomb is refused with 413 before it is inflated further); it runs on libuv's thread pool, so
 * other requests are answered meanwhile. An encoding the proxy cannot read is refused with 415 (a body it cannot
 * see is never passed on unsanitized); bytes that are not what they claim to be, with 400.
 *
 * @example
 * const decoded = await decodeRequestBody({ body, contentEncoding: "gzip", maxBody: 10 * 1024 * 1024 });
 * if (decoded.ok) sanitize(decoded.body);
 */
export async function decodeRequestBody(args: {
  body: Buffer | null;
  contentEncoding: string | undefined;
  maxBody: number;
}): Promise<DecodedBody> {
  const { maxBody } = args;
  let body = args.body;
  const layers = (args.contentEncoding ?? "")
    .split(",")
    .map((token) => token.trim().toLowerCase())
    .filter((token) => token !== "" && token !== "identity");
  if (layers.length === 0 || body === null || body.length === 0) return { ok: true, body };
  const unknown = layers.find((token) => DECODERS[token] === undefined);
  if (unknown !== undefined || layers.length > MAX_LAYERS)
    return {
      ok: false,
      error: {
        code: "request_encoding_unsupported",
        status: 415,
        message: `the request body's Content-Encoding ${JSON.stringify(args.contentEncoding)} cannot be read, so its history cannot be sanitized; send it uncompressed, or as ${REQUEST_ENCODINGS.join(", ")} (one or ${MAX_LAYERS} layers)`,
      },
    };
  for (const token of layers.reverse()) {
    try {
      body = await (DECODERS[token] as (typeof DECODERS)["gzip"])(body, { maxOutputLength: maxBody });
    } catch (error) {
      if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE")
        return {
          ok: false,
          error: {
            code: "request_too_large",
            status: 413,
            message: `the request body is larger than ${maxBody} bytes once decoded (${token}; --max-body)`,
          },
        };
      return {
        ok: false,
        error: {
          code: "request_body_undecodable",
          status: 400,
          message: `the request body is not valid ${token}: ${(error as Error).message}`,
        },
      };
    }
  }
  return { ok: true, body };
}
