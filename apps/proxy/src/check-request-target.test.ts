import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkRequestTarget } from "./check-request-target.js";
import { parseByteSize } from "./parse-byte-size.js";
import { parseDuration } from "./parse-duration.js";
import { parseUpstream } from "./upstream-target.js";

describe("checkRequestTarget", () => {
  it("accepts origin-form paths, with their query", () => {
    expect(checkRequestTarget("/v1/chat/completions?x=1")).toEqual({
      ok: true,
      path: "/v1/chat/completions?x=1",
      pathname: "/v1/chat/completions",
    });
    expect(checkRequestTarget("/v1/models/Qwen%2FQwen3-Coder")).toMatchObject({ ok: true });
  });

  it("refuses absolute URIs, authority form, asterisk, protocol-relative paths and dot segments", () => {
    for (const target of [
      "http://169.254.169.254/latest/meta-data",
      "https://example.com/v1/models",
      "example.com:443",
      "*",
      "//example.com/v1/models",
      "/v1/../admin",
      "/v1/./models",
      "/v1/%2E%2E/admin",
      "/v1/%2e/models",
      undefined,
    ])
      expect(checkRequestTarget(target), String(target)).toMatchObject({
        ok: false,
        code: "invalid_request_target",
      });
  });

  it("refuses dot segments and second roots in every encoding: escaped, escaped twice, with backslashes", () => {
    for (const target of [
      "/v1/..%2fadmin",
      "/v1/..%2Fadmin",
      "/v1/..\\admin",
      "/v1/..%5cadmin",
      "/v1/%252e%252e/admin",
      "/v1/%25252e%25252e/admin",
      "/v1/.%2e/admin",
      "/v1/%2e%2e%252fadmin",
      "/v1/..;x=1/admin",
      "/v1/.. /admin",
      "/v1/..%00/admin",
      "/\\127.0.0.1:9/x",
      "/%5c127.0.0.1:9/x",
      "/%2f127.0.0.1:9/x",
      "/v1/%2525252525252e/admin",
    ])
      expect(checkRequestTarget(target), target).toMatchObject({ ok: false, code: "invalid_request_target" });
  });

  it("property: a dot segment is refused whatever each of its characters and separators is written as", () => {
    const dot = fc.constantFrom(".", "%2e", "%2E", "%252e", "%252E", "%25252e");
    const slash = fc.constantFrom("/", "\\", "%2f", "%2F", "%5c", "%5C", "%252f", "%255c");
    const plain = fc.stringMatching(/^[A-Za-z0-9_-]{1,8}$/);
    fc.assert(
      fc.property(
        fc.array(plain, { maxLength: 3 }),
        fc.array(dot, { minLength: 1, maxLength: 2 }),
        slash,
        fc.array(plain, { maxLength: 3 }),
        fc.option(fc.constantFrom("", "?a=1", "?b=%2e%2e")),
        (before, dots, separator, after, query) => {
          const target = `/${[...before, ""].join("/")}${dots.join("")}${separator}${after.join("/")}${query ?? ""}`;
          expect(checkRequestTarget(target), target).toMatchObject({ ok: false });
        },
      ),
    );
  });

  it("property: paths without dot segments are accepted in any encoding of their slashes", () => {
    const segment = fc
      .stringMatching(/^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,8}$/)
      .filter((s) => s !== "." && s !== "..");
    fc.assert(
      fc.property(
        fc.array(segment, { minLength: 1, maxLength: 5 }),
        fc.constantFrom("/", "%2F"),
        (parts, sep) => {
          const target = `/${parts.join(sep)}`;
          expect(checkRequestTarget(target), target).toMatchObject({ ok: true, path: target });
        },
      ),
    );
  });

  it("is total: any string gets an answer, never a throw, and an accepted path starts with one slash", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (text) => {
        const result = checkRequestTarget(text);
        if (result.ok) expect(result.path.startsWith("/") && !result.path.startsWith("//")).toBe(true);
      }),
    );
  });
});

describe("units and the upstream URL", () => {
  it("reads sizes and durations", () => {
    expect(parseByteSize("10mb")).toEqual({ ok: true, value: 10 * 1024 * 1024 });
    expect(parseByteSize("1.5kb")).toEqual({ ok: true, value: 1536 });
    expect(parseByteSize("0")).toMatchObject({ ok: false });
    expect(parseDuration("250ms")).toEqual({ ok: true, value: 250 });
    expect(parseDuration("1.5s")).toEqual({ ok: true, value: 1500 });
    expect(parseDuration("0")).toEqual({ ok: true, value: 0 });
    expect(parseDuration("-1s")).toMatchObject({ ok: false });
  });

  it("never throws on any text", () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        for (const result of [parseByteSize(text), parseDuration(text), parseUpstream(text)])
          expect(typeof result.ok).toBe("boolean");
      }),
    );
  });

  it("reads a trailing /v1 as the same server, and keeps another prefix", () => {
    expect(parseUpstream("http://127.0.0.1:8000/v1/")).toEqual({
      ok: true,
      origin: "http://127.0.0.1:8000",
      pathPrefix: "",
    });
    expect(parseUpstream("https://gw.example/openai/v1")).toEqual({
      ok: true,
      origin: "https://gw.example",
      pathPrefix: "/openai",
    });
    expect(parseUpstream("http://h/?key=1")).toMatchObject({ ok: false });
  });

  it("understands an upstream given without a scheme as plain HTTP", () => {
    expect(parseUpstream("127.0.0.1:8000")).toEqual({
      ok: true,
      origin: "http://127.0.0.1:8000",
      pathPrefix: "",
    });
    expect(parseUpstream("localhost:8000/v1")).toEqual({
      ok: true,
      origin: "http://localhost:8000",
      pathPrefix: "",
    });
    expect(parseUpstream("ftp://h")).toMatchObject({ ok: false });
    expect(parseUpstream("")).toMatchObject({ ok: false });
  });
});
