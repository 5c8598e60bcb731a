import { describe, expect, it } from "vitest";
import { repairToolName } from "./repair-tool-name.js";
import { sanitizeHistory } from "./sanitize-history.js";

const tools = [
  { type: "function", function: { name: "get_weather", parameters: { type: "object", properties: {} } } },
  { type: "function", function: { name: "bash", parameters: { type: "object" } } },
  {
    type: "function",
    function: {
      name: "read",
      parameters: {
        type: "object",
        properties: { filePath: { type: "string" }, limit: { type: "integer" } },
      },
    },
  },
];

describe("repairToolName maps a mangled name back to the one advertised tool it names", () => {
  it("a namespace in front (maki: unknown tool: functions.bash)", () => {
    expect(repairToolName({ name: "functions.bash", tools })).toEqual({
      name: "bash",
      repair: "namespace-prefix",
    });
    expect(repairToolName({ name: "default_api.get_weather", tools })?.name).toBe("get_weather");
  });

  it("harmony's channel markup around the name (gpt-oss)", () => {
    expect(repairToolName({ name: "get_weather<|channel|>commentary", tools })).toEqual({
      name: "get_weather",
      repair: "channel-marker",
    });
    expect(repairToolName({ name: "functions.get_weather <|constrain|>json", tools })?.name).toBe(
      "get_weather",
    );
    expect(repairToolName({ name: "assistant<|channel|>commentary to=functions.bash", tools })?.name).toBe(
      "bash",
    );
    // The role and channel alone name no tool.
    expect(repairToolName({ name: "assistant<|channel|>analysis", tools })).toBeUndefined();
  });

  it("GLM's arguments written into the name (zai-org/GLM-5#84)", () => {
    expect(
      repairToolName({
        name: "read<arg_key>filePath</arg_key><arg_value>/home/linj/wk/ebay_exam</arg_value>",
        tools,
      }),
    ).toEqual({ name: "read", repair: "glm-arguments", arguments: '{"filePath":"/home/linj/wk/ebay_exam"}' });
    // A value that does not close is not read.
    expect(
      repairToolName({ name: "read<arg_key>filePath</arg_key><arg_value>/home", tools }),
    ).toBeUndefined();
  });

  it("nothing when the name is advertised, unknown, only similar, or the tools cannot be read", () => {
    for (const name of ["bash", "functions.weather", "other.bash", "get-weather", "", 42])
      expect(repairToolName({ name, tools }), String(name)).toBeUndefined();
    expect(repairToolName({ name: "functions.bash", tools: "nope" })).toBeUndefined();
  });
});

describe("sanitize with the tools: names mapped back and arguments typed by the schema, each recorded", () => {
  it("repairs the name, takes GLM's arguments from it, types them, and keeps results paired", () => {
    const history = [
      {
        role: "assistant",
        content: null,
        tool_calls: [
          {
            id: "c1",
            type: "function",
            function: {
              name: "read<arg_key>filePath</arg_key><arg_value>/home/linj/wk/ebay_exam</arg_value>",
              arguments: "",
            },
          },
          {
            id: "c2",
            type: "function",
            function: { name: "functions.read", arguments: '{"filePath": "a", "limit": "40"}' },
          },
        ],
      },
      { role: "tool", tool_call_id: "c1", content: "…" },
      { role: "tool", tool_call_id: "c2", content: "…" },
    ];
    const { messages, changes } = sanitizeHistory(history, { tools });
    const calls = (messages[0] as { tool_calls: { function: { name: string; arguments: string } }[] })
      .tool_calls;
    expect(calls.map((call) => [call.function.name, call.function.arguments])).toEqual([
      ["read", '{"filePath":"/home/linj/wk/ebay_exam"}'],
      ["read", '{"filePath":"a","limit":40}'],
    ]);
    expect(changes.map((change) => change.rule)).toEqual([
      "call_name_repaired",
      "call_name_repaired",
      "arguments_canonicalized",
    ]);
    expect(changes[0]?.after).toEqual({ name: "read", arguments: '{"filePath":"/home/linj/wk/ebay_exam"}' });
    expect(changes[2]?.repairs).toEqual(["schema-types"]);
    expect(sanitizeHistory(messages, { tools }).changes).toEqual([]);
    // Without the tools, nothing is mapped.
    expect(sanitizeHistory(history).changes.some((change) => change.rule === "call_name_repaired")).toBe(
      false,
    );
  });
});
