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
    expect(responseHeadersForClient({ rawHeaders: raw }).headers).toEqual([
      "Content-Type",
      "text/event-stream",
      "Content-Length",
      "10",
      "Set-Cookie",
      "a=1",
      "Set-Cookie",
      "b=2",
    ]);
    const rewritten = responseHeadersForClient({ rawHeaders: raw, drop: new Set(["content-length"]) });
    expect(rewritten.headers).not.toContain("Content-Length");
    expect(rewritten.lower.get("content-type")).toBe("text/event-stream");
  });
});
