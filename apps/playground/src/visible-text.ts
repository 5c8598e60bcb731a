// A rendered prompt cut into what a reader needs to see apart: special tokens and markers (`<|im_start|>`,
// `<｜tool▁sep｜>`, `[INST]`, `<turn|>`, the template's own bos and eos), spaces, tabs, line ends and other
// whitespace, and plain text. Joined back, the segments are the text, byte for byte.

export type SegmentKind = "text" | "token" | "space" | "tab" | "newline" | "whitespace";

export interface Segment {
  kind: SegmentKind;
  text: string;
}

// Marker shapes of the chat templates in use: `<|name|>` (Qwen, Llama, gpt-oss, Kimi, Gemma 4's `<|"|>`),
// Gemma 4's one-sided `<|turn>` / `<turn|>`, DeepSeek's full-width `<｜name｜>`, Mistral's `[INST]` / `[/INST]`,
// and the tags models are trained on as single tokens.
const TOKEN_SHAPES = [
  String.raw`<\|[^|<>\s]{1,40}\|>`,
  String.raw`<\|[A-Za-z_"]{1,40}>`,
  String.raw`<[A-Za-z_]{1,40}\|>`,
  String.raw`<｜[^｜\s]{1,40}｜>`,
  String.raw`\[/?[A-Z][A-Z_]{1,30}\]`,
  "</?(?:s|think|tool_call|tool_response|tools|arg_key|arg_value|start_of_turn|end_of_turn|bos|eos|sop|eop)>",
];

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * The segments of `text`: each special token (the shapes above, and each of `extraTokens`, such as the template's
 * `bos_token`), each run of spaces, each tab, each line end (`\n`, `\r\n`, `\r`), each other whitespace character,
 * and the text between. Concatenated, the segments give `text` back.
 *
 * @example
 * segmentText("<|im_start|>user\nhi  there", []);
 * // [{ kind: "token", text: "<|im_start|>" }, { kind: "text", text: "user" }, { kind: "newline", text: "\n" },
 * //  { kind: "text", text: "hi" }, { kind: "space", text: "  " }, { kind: "text", text: "there" }]
 */
export function segmentText(text: string, extraTokens: readonly string[] = []): Segment[] {
  const extras = [...new Set(extraTokens.filter((token) => token.trim() !== "" && token.length <= 200))]
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp);
  const token = [...extras, ...TOKEN_SHAPES].join("|");
  const pattern = new RegExp(`(${token})|( +)|(\\t)|(\\r\\n|\\n|\\r)|(\\s)`, "gu");
  const segments: Segment[] = [];
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    const at = match.index;
    if (at > last) segments.push({ kind: "text", text: text.slice(last, at) });
    const kind: SegmentKind =
      match[1] !== undefined
        ? "token"
        : match[2] !== undefined
          ? "space"
          : match[3] !== undefined
            ? "tab"
            : match[4] !== undefined
              ? "newline"
              : "whitespace";
    segments.push({ kind, text: match[0] });
    last = at + match[0].length;
  }
  if (last < text.length) segments.push({ kind: "text", text: text.slice(last) });
  return segments;
}

/**
 * What a whitespace segment shows in place of itself: `·` per space, `→` per tab, `↵` for a line end (`␍↵` for
 * CRLF, `␍` for a lone CR), and the code point (`U+00A0`) for other whitespace.
 *
 * @example
 * showWhitespace({ kind: "space", text: "  " }); // "··"
 */
export function showWhitespace(segment: Segment): string {
  switch (segment.kind) {
    case "space":
      return "·".repeat(segment.text.length);
    case "tab":
      return "→";
    case "newline":
      return segment.text === "\r\n" ? "␍↵" : segment.text === "\r" ? "␍" : "↵";
    case "whitespace":
      return `U+${(segment.text.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
    case "text":
    case "token":
      return segment.text;
    default: {
      const never: never = segment.kind;
      return never;
    }
  }
}

/**
 * The UTF-8 byte offset of a UTF-16 index in `text` (what "the first differing byte" counts).
 *
 * @example
 * utf8Offset("é!", 1); // 2
 */
export function utf8Offset(text: string, index: number): number {
  return new TextEncoder().encode(text.slice(0, index)).length;
}
