import { describe, expect, it } from "vitest";
import { requestHeadersForUpstream, responseHeadersForClient } from "./forward-headers.js";

describe("forwarded headers", () => {
  it("drops connection-level headers and Host, keeps Authorization byte for byte", () => {
    expect(
      requestHeadersForUpstream({
        rawHeaders: [
          "Host",
          "evil.example",
          "Authorization",
          "Bearer  sk-Ünusual",
          "Connection",
          "keep-alive, X-Hop",
          "X-Hop",
          "1",
          "Proxy-Authorization",
          "Basic abc",
          "Transfer-Encoding",
          "chunked",
          "Content-Length",
          "12",
          "Accept-Encoding",
          "gzip",
          "X-Custom",
          "kept",
        ],
        identity: false,
        connection: "keep-alive, X-Hop",
      }),
    ).toEqual(["Authorization", "Bearer  sk-Ünusual", "Accept-Encoding", "gzip", "X-Custom", "kept"]);
  });

  it("asks for an uncompressed body when the proxy reads it", () => {
    expect(
      requestHeadersForUpstream({ rawHeaders: ["Accept-Encoding", "gzip, br", "A", "b"], identity: true }),
    ).toEqual(["A", "b", "accept-encoding", "identity"]);
  });

  it("passes response headers on, minus connection-level ones and what the proxy rewrites", () => {
    const raw = [
      "Content-Type",
      "text/event-stream",
      "Connection",
      "keep-alive",
      "Keep-Alive",
      "timeout=5",
      "Content-Length",
      "10",
      "Set-Cookie",
      "a=1",
      "Set-Cookie",
      "b=2",
    ].map((s) => Buffer.from(s));
    const forwarded = responseHeadersForClient({ rawHeaders: raw });
    expect(forwarded.headers).toEqual([
      "Content-Type",
      "text/event-stream",
      "Set-Cookie",
      "a=1",
      "Set-Cookie",
      "b=2",
    ]);
    expect(forwarded.contentLength).toBe("10");
    expect(forwarded.contentType).toBe("text/event-stream");
    expect(forwarded.contentEncoding).toBeUndefined();
    expect(forwarded.requestId).toBeUndefined();
  });

  it("drops the headers every Connection header names, and reports the first value of those it reads", () => {
    const raw = [
      "Connection",
      "X-Hop",
      "X-Hop",
      "1",
      "connection",
      "X-Other",
      "X-Other",
      "2",
      "X-Request-Id",
      "up-1",
      "x-request-id",
      "up-2",
      "Content-Encoding",
      "gzip",
      "X-Kept",
      "3",
    ].map((s) => Buffer.from(s));
    const forwarded = responseHeadersForClient({ rawHeaders: raw });
    expect(forwarded.headers).toEqual([
      "X-Request-Id",
      "up-1",
      "x-request-id",
      "up-2",
      "Content-Encoding",
      "gzip",
      "X-Kept",
      "3",
    ]);
    expect(forwarded.requestId).toBe("up-1");
    expect(forwarded.contentEncoding).toBe("gzip");
  });
});
