// The floor: a bare pass-through proxy with no parsing at all. Its default mode is toolcall-proxy's own stack
// (node:http server, undici's handler API), so the benchmark measures only what repairing adds; `parse` is the same
// with both bodies read whole and parsed with JSON.parse (the least any proxy that reads tool-call arguments does);
// `stream-parse` is the streaming floor: the default stack, streaming, that also parses each event naming `tool_calls`
// (the least a proxy that repairs streamed calls reads); the other modes are the candidates compare-stacks.mjs
// measured. `node bare-proxy.mjs UPSTREAM_PORT [undici-dispatch|parse|stream-parse|undici-stream|undici|http]`
import http, { createServer } from "node:http";
import { pipeline } from "node:stream";
import { Pool } from "undici";

const HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "transfer-encoding",
  "te",
  "trailer",
  "upgrade",
  "host",
]);

function forwardHeaders(headers) {
  const out = {};
  for (const key in headers) if (!HOP.has(key)) out[key] = headers[key];
  return out;
}

function clientHeaders(rawHeaders) {
  const headers = [];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const key = rawHeaders[i].toString("latin1");
    if (!HOP.has(key.toLowerCase())) headers.push(key, rawHeaders[i + 1].toString("latin1"));
  }
  return headers;
}

function parseQuietly(body) {
  try {
    JSON.parse(body.toString("utf8"));
  } catch {
    // A body that is not JSON is forwarded all the same.
  }
}

/**
 * The parse floor: the request body read whole and parsed before it goes up, the answer read whole and parsed before
 * it goes down, bytes forwarded unchanged. No checks, no logs, no metrics.
 */
function parseThenDispatch(pool, request, response) {
  const chunks = [];
  request.on("data", (chunk) => chunks.push(chunk));
  request.on("end", () => {
    const body = Buffer.concat(chunks);
    if (body.length > 0) parseQuietly(body);
    dispatchTo(pool, request, response, body.length > 0 ? body : undefined, true);
  });
}

/**
 * undici's handler API: raw buffers, no stream objects on the response side; backpressure by pause/resume. With
 * `whole`, the answer is gathered, parsed and written at once (the parse floor).
 */
function dispatchTo(pool, request, response, body, whole, stream) {
  let resume;
  let abort;
  let status = 502;
  let headers = [];
  const answer = [];
  response.on("drain", () => resume?.());
  // A client that leaves mid-response would otherwise leave the upstream connection paused for good (its response
  // never drains), and the pool runs dry after a few load runs.
  response.on("close", () => {
    if (!response.writableFinished) abort?.();
  });
  pool.dispatch(
    { path: request.url, method: request.method, headers: forwardHeaders(request.headers), body },
    {
      onConnect(abortFn) {
        abort = abortFn;
      },
      onHeaders(statusCode, rawHeaders, resumeFn) {
        resume = resumeFn;
        status = statusCode;
        headers = clientHeaders(rawHeaders);
        if (!whole) response.writeHead(status, headers);
        return true;
      },
      onData(chunk) {
        if (stream !== undefined) readStreamPiece(stream, chunk);
        if (!whole) return response.write(chunk);
        answer.push(chunk);
        return true;
      },
      onComplete() {
        if (!whole) {
          response.end();
          return;
        }
        const bytes = Buffer.concat(answer);
        parseQuietly(bytes);
        response.writeHead(status, headers);
        response.end(bytes);
      },
      onError() {
        if (response.destroyed) return;
        if (!response.headersSent) response.writeHead(502);
        response.end();
      },
    },
  );
}

const TOOL_CALLS = Buffer.from("tool_calls");

/**
 * The streaming floor's reading: each whole event (up to its blank line) whose bytes name `tool_calls` is parsed
 * with JSON.parse, the least a proxy that repairs streamed calls reads; everything goes on as the bytes that came,
 * each piece written as it arrives. `held` is the start of an event that began in an earlier piece.
 */
function readStreamPiece(state, chunk) {
  const bytes = state.held.length === 0 ? chunk : Buffer.concat([state.held, chunk]);
  let at = 0;
  // Each byte is searched once: the next `tool_calls` is looked for again only past the event that held it.
  let found = bytes.indexOf(TOOL_CALLS);
  for (let end = bytes.indexOf("\n\n"); end !== -1 && found !== -1; end = bytes.indexOf("\n\n", at)) {
    if (found < end) {
      if (bytes[at + 6] === 0x7b) parseQuietly(bytes.subarray(at + 6, end));
      found = bytes.indexOf(TOOL_CALLS, end);
    }
    at = end + 2;
  }
  const last = found === -1 ? bytes.lastIndexOf("\n\n") : -1;
  if (last !== -1) at = Math.max(at, last + 2);
  state.held = at === bytes.length ? EMPTY : Buffer.from(bytes.subarray(at));
}

const EMPTY = Buffer.alloc(0);

export function startBareProxy({ upstreamPort, mode = "undici-dispatch", port = 0 }) {
  const origin = `http://127.0.0.1:${upstreamPort}`;
  let handler;
  if (mode === "http") {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
    handler = (request, response) => {
      const upstream = http.request(
        {
          host: "127.0.0.1",
          port: upstreamPort,
          method: request.method,
          path: request.url,
          headers: forwardHeaders(request.headers),
          agent,
        },
        (upstreamResponse) => {
          response.writeHead(upstreamResponse.statusCode, forwardHeaders(upstreamResponse.headers));
          pipeline(upstreamResponse, response, () => {});
        },
      );
      upstream.on("error", () => {
        if (!response.headersSent) response.writeHead(502);
        response.end();
      });
      pipeline(request, upstream, () => {});
    };
  } else if (mode === "undici-dispatch" || mode === "parse" || mode === "stream-parse") {
    // Plain callbacks, no promise per request (as toolcall-proxy's own handler).
    const pool = new Pool(origin, { connections: 256, pipelining: 1 });
    handler =
      mode === "parse"
        ? (request, response) => parseThenDispatch(pool, request, response)
        : (request, response) =>
            dispatchTo(
              pool,
              request,
              response,
              request.method !== "GET" && request.method !== "HEAD" ? request : undefined,
              false,
              mode === "stream-parse" ? { held: EMPTY } : undefined,
            );
  } else {
    const pool = new Pool(origin, { connections: 256, pipelining: 1 });
    handler = async (request, response) => {
      try {
        const hasBody = request.method !== "GET" && request.method !== "HEAD";
        if (mode === "undici-stream") {
          await pool.stream(
            {
              path: request.url,
              method: request.method,
              headers: forwardHeaders(request.headers),
              body: hasBody ? request : undefined,
            },
            ({ statusCode, headers }) => {
              response.writeHead(statusCode, forwardHeaders(headers));
              return response;
            },
          );
        } else {
          const upstream = await pool.request({
            path: request.url,
            method: request.method,
            headers: forwardHeaders(request.headers),
            body: hasBody ? request : undefined,
          });
          response.writeHead(upstream.statusCode, forwardHeaders(upstream.headers));
          pipeline(upstream.body, response, () => {});
        }
      } catch {
        if (!response.headersSent) response.writeHead(502);
        response.end();
      }
    };
  }
  const server = createServer(handler);
  server.keepAliveTimeout = 60_000;
  return new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve(server)));
}

if (process.argv[1] === import.meta.filename) {
  const server = await startBareProxy({
    upstreamPort: Number(process.argv[2]),
    mode: process.argv[3] ?? "undici-dispatch",
    port: Number(process.argv[4] ?? 0),
  });
  process.send?.({ port: server.address().port });
}
