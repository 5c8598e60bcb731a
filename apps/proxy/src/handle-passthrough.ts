import type { IncomingMessage, ServerResponse } from "node:http";
import { requestHeadersForUpstream } from "./forward-headers.js";
import { type ProxyRuntime, type RequestState, sendError, upstreamHeadersArrived } from "./proxy-runtime.js";

/**
 * Every path the proxy does not repair (`/v1/models`, embeddings, …): method, headers, body and status go through
 * unchanged, and the response streams back as it arrives, with the client's pace setting the upstream's.
 *
 * @example
 * handlePassthrough({ runtime, state, request, response, body });
 */
export function handlePassthrough(args: {
  runtime: ProxyRuntime;
  state: RequestState;
  request: IncomingMessage;
  response: ServerResponse;
  body: Buffer | null;
}): void {
  const { runtime, state, request, response } = args;
  state.upstreamSent = process.hrtime.bigint();
  const call = runtime.upstream.send(
    {
      method: request.method ?? "GET",
      path: request.url as string,
      headers: requestHeadersForUpstream({
        rawHeaders: request.rawHeaders,
        identity: false,
        connection: request.headers.connection,
      }),
      body: args.body,
    },
    {
      onHeaders(status, rawHeaders) {
        const { headers, contentLength } = upstreamHeadersArrived({ runtime, state, rawHeaders });
        if (contentLength !== undefined) headers.push("content-length", contentLength);
        response.writeHead(status, headers);
      },
      onData(chunk) {
        return response.write(chunk);
      },
      onEnd() {
        response.end();
      },
      onError(error) {
        // After the headers, a cut body cannot be turned into an error message: the connection is closed so the
        // client sees the truncation instead of a response that looks complete.
        sendError({ runtime, state, response, error });
      },
    },
  );
  state.call = call;
  response.on("drain", () => call.resume());
}
