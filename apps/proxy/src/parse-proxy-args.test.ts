import { REPAIR_ORDER } from "@toolcall/core/kit";
import { describe, expect, it } from "vitest";
import { parseProxyArgs, USAGE } from "./parse-proxy-args.js";

const parse = (argv: string[], env: Record<string, string> = {}) => parseProxyArgs({ argv, env });

describe("parseProxyArgs", () => {
  it("names every repair core knows in its usage text", () => {
    for (const name of REPAIR_ORDER) expect(USAGE).toContain(name);
  });

  it("needs an upstream, and fills every default", () => {
    expect(parse([])).toMatchObject({ ok: false, error: expect.stringContaining("--upstream") });
    const parsed = parse(["--upstream", "http://127.0.0.1:8000"]);
    if (!parsed.ok || !("command" in parsed)) throw new Error("expected a command");
    expect(parsed.command.host).toBe("127.0.0.1");
    expect(parsed.command.port).toBe(8001);
    expect(parsed.command.options).toMatchObject({
      upstream: "http://127.0.0.1:8000",
      historyPolicy: "preserve",
      missingResult: "synthesize",
      maxBody: 10 * 1024 * 1024,
      connectTimeout: 10_000,
      headersTimeout: 120_000,
      requestTimeout: 0,
      idleTimeout: 300_000,
      logLevel: "info",
      logContent: false,
      contentCalls: [],
    });
    expect(parsed.command.options.repairs?.map((r) => r.id)).toEqual([
      "markdown-fence",
      "template-suffix",
      "python-literal",
      "control-characters",
      "trailing-commas",
      "repeated-object",
    ]);
  });

  it("takes repairs comma-separated or repeated, in a fixed order", () => {
    const parsed = parse([
      "--upstream",
      "http://h",
      "--repair",
      "jsonrepair,gemma-quote-markers",
      "--repair",
      "trailing-commas",
    ]);
    // Core's REPAIR_ORDER, not the order of the flags.
    expect(parsed.ok && "command" in parsed && parsed.command.options.repairs?.map((r) => r.id)).toEqual([
      "gemma-quote-markers",
      "trailing-commas",
      "jsonrepair",
    ]);
    const none = parse(["--upstream", "http://h", "--repair", "none"]);
    expect(none.ok && "command" in none && none.command.options.repairs).toEqual([]);
    expect(parse(["--upstream", "http://h", "--repair", "magic"])).toMatchObject({
      ok: false,
      error: expect.stringContaining('unknown repair "magic"'),
    });
    expect(parse(["--upstream", "http://h", "--repair", "none,core"])).toMatchObject({
      ok: false,
      error: "repair none cannot be combined with other repairs",
    });
  });

  it("reads units, content-call syntaxes and policies, and refuses what it does not know", () => {
    const parsed = parse([
      "--upstream=http://h:1/v1",
      "--port=0",
      "--max-body=512kb",
      "--idle-timeout=2m",
      "--headers-timeout=0",
      "--request-timeout=90s",
      "--content-calls=gemma,qwen",
      "--history-policy=drop",
      "--missing-result=drop-call",
      "--log-content",
    ]);
    if (!parsed.ok || !("command" in parsed)) throw new Error("expected a command");
    expect(parsed.command.port).toBe(0);
    expect(parsed.command.options).toMatchObject({
      maxBody: 512 * 1024,
      idleTimeout: 120_000,
      headersTimeout: 0,
      requestTimeout: 90_000,
      historyPolicy: "drop",
      missingResult: "drop-call",
      logContent: true,
    });
    expect(parsed.command.options.contentCalls?.map((e) => e.name)).toEqual(["gemma", "qwen"]);
    const every = parse([
      "--upstream=http://h",
      "--content-calls=glm47,kimi-k2,auto",
      "--chat-template=t.jinja",
    ]);
    if (!every.ok || !("command" in every)) throw new Error("expected a command");
    expect(every.command.options.contentCalls?.map((e) => e.name)).toEqual(["glm47", "kimi-k2"]);
    expect(every.command.contentCallsAuto).toEqual({ templateFile: "t.jinja" });
    expect(parse(["--upstream=http://h", "--chat-template=t.jinja"])).toMatchObject({ ok: false });
    // A call no tool can run on keeps the model's text: the old response policy is refused, with the reason.
    expect(parse(["--upstream", "http://h", "--policy", "keep"])).toMatchObject({
      ok: false,
      error: expect.stringContaining("--policy was removed"),
    });
    for (const bad of [
      ["--policy", "drop"],
      ["--history-policy", "keep"],
      ["--content-calls", "hermes-9000"],
      ["--max-body", "lots"],
      ["--port", "70000"],
      ["--idle-timeout", "soon"],
      ["--unknown-flag"],
    ])
      expect(parse(["--upstream", "http://h", ...bad]), bad.join(" ")).toMatchObject({ ok: false });
    expect(parse(["--upstream", "ftp://h"])).toMatchObject({ ok: false });
  });

  it("reads --max-response-body and --body-timeout (flags and environment), with their defaults", () => {
    const parsed = parse(["--upstream=http://h", "--max-response-body=2mb", "--body-timeout=5s"]);
    if (!parsed.ok || !("command" in parsed)) throw new Error(JSON.stringify(parsed));
    expect(parsed.command.options).toMatchObject({ maxResponseBody: 2 * 1024 * 1024, bodyTimeout: 5000 });
    const defaults = parse(["--upstream=http://h"]);
    if (!defaults.ok || !("command" in defaults)) throw new Error("expected a command");
    expect(defaults.command.options).toMatchObject({
      maxResponseBody: 64 * 1024 * 1024,
      bodyTimeout: 30_000,
    });
    const fromEnv = parse(["--upstream=http://h"], {
      TOOLCALL_PROXY_MAX_RESPONSE_BODY: "1mb",
      TOOLCALL_PROXY_BODY_TIMEOUT: "0",
    });
    if (!fromEnv.ok || !("command" in fromEnv)) throw new Error("expected a command");
    expect(fromEnv.command.options).toMatchObject({ maxResponseBody: 1024 * 1024, bodyTimeout: 0 });
    expect(parse(["--upstream=http://h", "--max-response-body=huge"])).toMatchObject({
      ok: false,
      error: expect.stringContaining("--max-response-body"),
    });
    expect(USAGE).toContain("--max-response-body SIZE");
    expect(USAGE).toContain("--body-timeout T");
  });

  it("reads the environment when a flag is absent; flags win", () => {
    const env = {
      TOOLCALL_PROXY_UPSTREAM: "http://env:1",
      TOOLCALL_PROXY_PORT: "9000",
      TOOLCALL_PROXY_REPAIR: "jsonrepair",
    };
    const fromEnv = parse([], env);
    expect(
      fromEnv.ok && "command" in fromEnv && [fromEnv.command.options.upstream, fromEnv.command.port],
    ).toEqual(["http://env:1", 9000]);
    expect(fromEnv.ok && "command" in fromEnv && fromEnv.command.options.repairs?.map((r) => r.id)).toEqual([
      "jsonrepair",
    ]);
    const flagged = parse(["--port", "9001"], env);
    expect(flagged.ok && "command" in flagged && flagged.command.port).toBe(9001);
  });

  it("answers --help and --version", () => {
    expect(parse(["--help"])).toEqual({ ok: true, help: true });
    expect(parse(["--version"])).toEqual({ ok: true, version: true });
  });
});
