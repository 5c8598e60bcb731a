// Builds the server-sent events of a streamed Messages API answer from a whole message, as Anthropic's API sends
// them (message_start with empty content, per block content_block_start / deltas / content_block_stop with its
// `index`, a ping, message_delta with the stop reason, message_stop), each text and input cut at the given places;
// and adds the events a client gets back up to the message they make (the SDK's accumulator's rules: a block
// begins with content_block_start at the next index, deltas append, input JSON is parsed at the block's stop).

type Fields = Record<string, unknown>;

export interface MessageShape {
  id: string;
  model: string;
  content: Fields[];
  stop_reason: string | null;
}

function event(type: string, data: Fields): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

/** `text` cut at `cuts` (positions, any order, out-of-range ignored). */
export function pieces(text: string, cuts: readonly number[]): string[] {
  const at = [...new Set(cuts.filter((cut) => cut > 0 && cut < text.length))].sort((a, b) => a - b);
  const out: string[] = [];
  let from = 0;
  for (const cut of at) {
    out.push(text.slice(from, cut));
    from = cut;
  }
  out.push(text.slice(from));
  return out;
}

/** The SSE text of `message` streamed, each block's text or input cut at `cuts` (`inputs` gives raw input text). */
export function sseOf(args: {
  message: MessageShape;
  cuts?: readonly number[];
  inputs?: Record<number, string>;
}): string {
  const { message } = args;
  const cuts = args.cuts ?? [];
  let out = event("message_start", {
    message: {
      id: message.id,
      type: "message",
      role: "assistant",
      model: message.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 25, output_tokens: 1 },
    },
  });
  for (const [index, block] of message.content.entries()) {
    if (block.type === "text") {
      out += event("content_block_start", { index, content_block: { type: "text", text: "" } });
      if (index === 0) out += event("ping", {});
      for (const text of pieces(String(block.text), cuts))
        out += event("content_block_delta", { index, delta: { type: "text_delta", text } });
    } else if (block.type === "tool_use") {
      out += event("content_block_start", {
        index,
        content_block: { type: "tool_use", id: block.id, name: block.name, input: {} },
      });
      const input = args.inputs?.[index] ?? JSON.stringify(block.input);
      for (const partial_json of pieces(input, cuts))
        out += event("content_block_delta", { index, delta: { type: "input_json_delta", partial_json } });
    } else if (block.type === "thinking") {
      out += event("content_block_start", {
        index,
        content_block: { type: "thinking", thinking: "", signature: "" },
      });
      for (const thinking of pieces(String(block.thinking), cuts))
        out += event("content_block_delta", { index, delta: { type: "thinking_delta", thinking } });
      out += event("content_block_delta", {
        index,
        delta: { type: "signature_delta", signature: String(block.signature) },
      });
    }
    out += event("content_block_stop", { index });
  }
  out += event("message_delta", {
    delta: { stop_reason: message.stop_reason, stop_sequence: null },
    usage: { output_tokens: 40 },
  });
  return out + event("message_stop", {});
}

/** Input text as an object, or as it came when it is not JSON (a call kept unusable). */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The message a client's events add up to; throws where the SDK's accumulator would go wrong. */
export function messageOf(sse: string): MessageShape {
  let message: MessageShape | undefined;
  const inputs = new Map<number, string>();
  for (const frame of sse.split("\n\n")) {
    const line = frame.split("\n").find((part) => part.startsWith("data: "));
    if (line === undefined) continue;
    const data = JSON.parse(line.slice(6)) as Fields;
    const index = data.index as number;
    if (data.type === "message_start") {
      const { id, model } = data.message as MessageShape;
      message = { id, model, content: [], stop_reason: null };
    } else if (message === undefined) throw new Error(`${String(data.type)} before message_start`);
    else if (data.type === "content_block_start") {
      if (index !== message.content.length)
        throw new Error(`block ${index} began at ${message.content.length}`);
      message.content.push({ ...(data.content_block as Fields) });
    } else if (data.type === "content_block_delta") {
      const block = message.content[index];
      const delta = data.delta as Fields;
      if (block === undefined) throw new Error(`delta of block ${index} before its start`);
      if (delta.type === "text_delta") block.text = `${block.text}${delta.text}`;
      else if (delta.type === "thinking_delta") block.thinking = `${block.thinking}${delta.thinking}`;
      else if (delta.type === "signature_delta") block.signature = delta.signature;
      else if (delta.type === "input_json_delta")
        inputs.set(index, (inputs.get(index) ?? "") + delta.partial_json);
    } else if (data.type === "content_block_stop") {
      const block = message.content[index];
      if (block === undefined) throw new Error(`stop of block ${index} before its start`);
      if (block.type === "tool_use") block.input = parsed(inputs.get(index) || "{}");
    } else if (data.type === "message_delta")
      message.stop_reason = (data.delta as Fields).stop_reason as string;
  }
  if (message === undefined) throw new Error("no message_start");
  return message;
}

/** The message with each fresh `toolu_` id (24 letters and digits) named by its place, for comparing runs. */
export function withPlainIds(message: unknown): unknown {
  let count = 0;
  const names = new Map<string, string>();
  return JSON.parse(JSON.stringify(message), (key, value) => {
    if (key !== "id" || typeof value !== "string" || !/^toolu_[A-Za-z0-9]{24}$/.test(value)) return value;
    if (!names.has(value)) names.set(value, `toolu_${++count}`);
    return names.get(value);
  });
}
