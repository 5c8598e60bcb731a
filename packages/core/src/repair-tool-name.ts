import { isPlainObject } from "./define-property.js";
import { glmMarkupArguments } from "./repairs/family-markup.js";

/** Namespaces models put before a tool's name (`functions.get_weather`: Codex and harmony training). */
export const TOOL_NAME_NAMESPACES: readonly string[] = ["functions", "default_api", "tools", "tool", "api"];

/** What repairing a name against the advertised tools found. */
export interface RepairedToolName {
  /** The advertised tool's name. */
  name: string;
  /** What was cut: a namespace, a harmony channel marker, GLM's argument markup (whose arguments come back too). */
  repair: "namespace-prefix" | "channel-marker" | "glm-arguments";
  /** GLM's arguments, written in the name, as JSON object text (`repair: "glm-arguments"`). */
  arguments?: string;
}

/** The names of advertised tools (`{ type: "function", function: { name } }` or `{ name }`); read without throwing. */
export function toolNamesOf(tools: unknown): Set<string> {
  return new Set(toolSchemasOf(tools).keys());
}

/**
 * The advertised tools by name, each with its JSON Schema (`parameters`, or `input_schema`), read without throwing.
 *
 * @example
 * toolSchemasOf([{ type: "function", function: { name: "f", parameters: { type: "object" } } }]).get("f"); // { type: "object" }
 */
export function toolSchemasOf(tools: unknown): Map<string, unknown> {
  const schemas = new Map<string, unknown>();
  if (!Array.isArray(tools)) return schemas;
  for (const tool of tools) {
    try {
      const fn = isPlainObject(tool) && isPlainObject(tool.function) ? tool.function : tool;
      const name = isPlainObject(fn) ? fn.name : undefined;
      if (typeof name === "string" && name !== "" && isPlainObject(fn))
        schemas.set(name, fn.parameters ?? fn.input_schema);
    } catch {
      // A tool that cannot be read names nothing.
    }
  }
  return schemas;
}

/** The name with one known namespace cut off, or `undefined` when it has none. */
function withoutNamespace(name: string): string | undefined {
  const dot = name.indexOf(".");
  if (dot < 0) return undefined;
  return TOOL_NAME_NAMESPACES.includes(name.slice(0, dot)) ? name.slice(dot + 1) : undefined;
}

/**
 * The name harmony's markup leaves around a tool's (gpt-oss): cut at its first special token (`<|channel|>`,
 * `<|constrain|>`, `<|message|>` …), the recipient after `to=` when the header leaked whole; `undefined` when there is
 * no token.
 */
function withoutChannel(name: string): string | undefined {
  const token = name.indexOf("<|");
  if (token < 0) return undefined;
  const recipient = /(?:^|[\s>])to=([^\s<]+)/.exec(name);
  return recipient?.[1] ?? name.slice(0, token).trim();
}

/**
 * A tool name the model mangled, mapped back to the one advertised tool it names, or `undefined` when the name is
 * advertised already, or no tool or more than one could be meant. Three shapes, from reports: a namespace in front
 * (`functions.bash`: "unknown tool: functions.bash", gpt-5 via maki), harmony's channel markup around the name
 * (`get_weather<|channel|>commentary`, gpt-oss), and GLM's argument markup written into the name
 * (`read<arg_key>filePath</arg_key><arg_value>/home/…</arg_value>`, GLM-5), whose arguments come back as JSON text.
 * Exact matches only: nothing is guessed from a similar name.
 *
 * @example
 * const tools = [{ type: "function", function: { name: "get_weather" } }];
 * repairToolName({ name: "functions.get_weather", tools }); // { name: "get_weather", repair: "namespace-prefix" }
 * repairToolName({ name: "weather", tools }); // undefined
 */
export function repairToolName(options: { name: unknown; tools: unknown }): RepairedToolName | undefined {
  const name = options?.name;
  if (typeof name !== "string" || name === "") return undefined;
  const names = toolNamesOf(options.tools);
  if (names.has(name)) return undefined;
  const known = (candidate: string | undefined): string | undefined => {
    if (candidate === undefined || candidate === "") return undefined;
    if (names.has(candidate)) return candidate;
    const bare = withoutNamespace(candidate);
    return bare !== undefined && names.has(bare) ? bare : undefined;
  };
  const glm = name.indexOf("<arg_key>");
  if (glm > 0) {
    const tool = known(name.slice(0, glm).trim());
    const args = glmMarkupArguments(name.slice(glm).replace(/<\/tool_call>\s*$/, ""));
    if (tool !== undefined && args !== undefined)
      return { name: tool, repair: "glm-arguments", arguments: args };
    return undefined;
  }
  // Harmony's markup leaks around a name, not a text: a longer one is not this shape (and is not read twice).
  const channel = name.length > 1024 ? undefined : withoutChannel(name);
  if (channel !== undefined) {
    const tool = known(channel);
    return tool === undefined ? undefined : { name: tool, repair: "channel-marker" };
  }
  const tool = known(name);
  return tool === undefined ? undefined : { name: tool, repair: "namespace-prefix" };
}
