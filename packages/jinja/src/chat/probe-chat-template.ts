import type { Template } from "../compiler/template.js";
import { getCompiledTemplate } from "../compiler/template-cache.js";

/** What a chat template can render, learned by rendering probes (never by model name). */
export interface ChatTemplateCapabilities {
  /** `mapping`: the template takes arguments as an object (it iterates or serialises them); `string`: as JSON text (it concatenates them). */
  argumentsForm: "mapping" | "string";
  /** An assistant message's tool call shows up in the prompt. */
  toolCalls: boolean;
  /** Two calls in one assistant message both show up. */
  parallelToolCalls: boolean;
  /** A call's id shows up (in the call or in its result). */
  toolCallIds: boolean;
  /** A `tool` message's content shows up. */
  toolResponses: boolean;
  /** A `system` message's content shows up. */
  systemRole: boolean;
  /** An assistant message with tool calls and `content: null` renders. */
  nullContent: boolean;
  /** The tool list given in `tools` shows up. */
  tools: boolean;
}

const FN = "probe_fn_zq";
const FN2 = "probe_fn_xw";
const KEY = "probe_key_kx";
const VALUE = "probe_value_vy";
const ID = "call0Zq7X";
const ID2 = "call1Wv8Y";
const SYSTEM = "probe_system_sj";
const RESULT = "probe_result_rk";
const TOOL = "probe_tool_tl";

const tools = [
  {
    type: "function",
    function: {
      name: FN,
      description: TOOL,
      parameters: { type: "object", properties: { [KEY]: { type: "string" } }, required: [KEY] },
    },
  },
  {
    type: "function",
    function: {
      name: FN2,
      description: "second",
      parameters: { type: "object", properties: { [KEY]: { type: "string" } }, required: [KEY] },
    },
  },
];

function call(id: string, name: string, form: "mapping" | "string", index: number): unknown {
  const args = { [KEY]: `${VALUE}${index}` };
  return {
    id,
    type: "function",
    function: { name, arguments: form === "mapping" ? args : JSON.stringify(args) },
  };
}

function conversation(options: {
  form: "mapping" | "string";
  content: string | null;
  calls: number;
  system?: boolean;
}): unknown[] {
  const calls = [call(ID, FN, options.form, 0), call(ID2, FN2, options.form, 1)].slice(0, options.calls);
  const messages: unknown[] = [];
  if (options.system) messages.push({ role: "system", content: SYSTEM });
  messages.push({ role: "user", content: "probe question" });
  if (calls.length > 0) messages.push({ role: "assistant", content: options.content, tool_calls: calls });
  else messages.push({ role: "assistant", content: "probe answer" });
  calls.forEach((c, i) => {
    const id = (c as { id: string }).id;
    messages.push({ role: "tool", tool_call_id: id, name: i === 0 ? FN : FN2, content: `${RESULT}${i}` });
  });
  if (calls.length > 0) messages.push({ role: "assistant", content: "probe answer" });
  messages.push({ role: "user", content: "probe follow-up" });
  return messages;
}

/** The same tools without OpenAI's `{ type, function }` envelope: some templates (Apertus) read `tool.name`. */
const bareTools = tools.map((tool) => tool.function);

function tryRender(template: Template, messages: unknown[], withTools = true): string | undefined {
  for (const given of withTools ? [tools, bareTools] : [null]) {
    try {
      return template.render({
        messages,
        tools: given,
        documents: null,
        add_generation_prompt: false,
        bos_token: "<s>",
        eos_token: "</s>",
      });
    } catch {
      // The next form of the tools, or nothing.
    }
  }
  return undefined;
}

const probeCache = new WeakMap<Template, ChatTemplateCapabilities>();

/**
 * Learns what a chat template supports by rendering small conversations with needles in them, as llama.cpp and
 * minja do: whether it takes arguments as a mapping or as JSON text, renders tool calls (one, two in parallel),
 * call ids, tool results, a system message, `content: null` on a tool-calling turn, and the tool list.
 * Results are cached per compiled template.
 *
 * @example
 * probeChatTemplate(qwen3CoderSource).argumentsForm; // "mapping"
 * probeChatTemplate(deepSeekV3Source).argumentsForm; // "string"
 */
export function probeChatTemplate(template: string | Template): ChatTemplateCapabilities {
  const compiled = getCompiledTemplate(template);
  const cached = probeCache.get(compiled);
  if (cached !== undefined) return cached;

  const renders = (form: "mapping" | "string", content: string | null, calls = 1) =>
    tryRender(compiled, conversation({ form, content, calls }));
  // A mapping printed with Python's repr means the template wanted text.
  const shows = (text: string | undefined, form: "mapping" | "string") =>
    (text?.includes(`${VALUE}0`) ?? false) && (form === "string" || !text?.includes(`{'${KEY}': `));

  const variants = [null, ""] as const;
  const mappingWorks = variants.some((content) => shows(renders("mapping", content), "mapping"));
  const stringWorks = variants.some((content) => shows(renders("string", content), "string"));
  const argumentsForm = mappingWorks || !stringWorks ? "mapping" : "string";

  const single = variants.map((content) => renders(argumentsForm, content)).filter((t) => t !== undefined);
  const parallel = variants
    .map((content) => renders(argumentsForm, content, 2))
    .filter((t) => t !== undefined);
  const system = tryRender(
    compiled,
    conversation({ form: argumentsForm, content: "", calls: 0, system: true }),
  );
  const toolsShown = tryRender(compiled, [{ role: "user", content: "probe question" }]);
  const withoutTools = tryRender(compiled, [{ role: "user", content: "probe question" }], false);

  const capabilities: ChatTemplateCapabilities = {
    argumentsForm,
    toolCalls: single.some((t) => t.includes(`${VALUE}0`)),
    parallelToolCalls: parallel.some((t) => t.includes(`${VALUE}0`) && t.includes(`${VALUE}1`)),
    toolCallIds: [...single, ...parallel].some((t) => t.includes(ID)),
    toolResponses: single.some((t) => t.includes(`${RESULT}0`)),
    systemRole: system?.includes(SYSTEM) ?? false,
    nullContent: renders(argumentsForm, null) !== undefined,
    tools: (toolsShown?.includes(TOOL) ?? false) && !(withoutTools ?? "").includes(TOOL),
  };
  probeCache.set(compiled, capabilities);
  return capabilities;
}
