// A text shown exactly: special tokens set apart, whitespace made visible (on request), and one position marked (the
// first difference of a round trip). The copy buttons copy the text itself, never this view.
import { h } from "./dom.js";
import { segmentText, showWhitespace } from "./visible-text.js";

export interface TextViewOptions {
  /** Extra special tokens (the template's `bos_token`, `eos_token`). */
  tokens?: readonly string[];
  /** Show spaces, tabs and line ends as `·`, `→`, `↵`. */
  whitespace: boolean;
  /** A UTF-16 index to mark (the character there; at the end of the text, an end marker). */
  mark?: number;
  testId?: string;
}

function piece(kind: string, text: string, whitespace: boolean): Node {
  if (kind === "text") return document.createTextNode(text);
  if (kind === "token") return h("span", { class: "tok" }, text);
  if (!whitespace) return document.createTextNode(text);
  const shown = showWhitespace({ kind: kind as "space", text });
  // A line end still ends the line, after its sign.
  return h(
    "span",
    { class: "ws" },
    kind === "newline" ? `${shown}\n` : kind === "tab" ? `${shown}\t` : shown,
  );
}

/**
 * A `<pre>` of `text` with its tokens, whitespace and mark.
 *
 * @example
 * document.body.append(textView("<|im_start|>user\nhi", { whitespace: true }));
 */
export function textView(text: string, options: TextViewOptions): HTMLPreElement {
  const pre = h("pre", { class: "text-view", "data-testid": options.testId });
  let offset = 0;
  const mark = options.mark;
  for (const segment of segmentText(text, options.tokens ?? [])) {
    const end = offset + segment.text.length;
    if (mark !== undefined && mark >= offset && mark < end) {
      if (segment.kind === "text") {
        const at = mark - offset;
        const width = (segment.text.codePointAt(at) ?? 0) > 0xffff ? 2 : 1;
        pre.append(segment.text.slice(0, at));
        pre.append(
          h("mark", { class: "diff", "data-testid": "diff-mark" }, segment.text.slice(at, at + width)),
        );
        pre.append(segment.text.slice(at + width));
      } else {
        const marked = h("mark", { class: "diff", "data-testid": "diff-mark" });
        marked.append(piece(segment.kind, segment.text, options.whitespace));
        pre.append(marked);
      }
    } else pre.append(piece(segment.kind, segment.text, options.whitespace));
    offset = end;
  }
  if (mark !== undefined && mark >= text.length)
    pre.append(
      h("mark", { class: "diff end", "data-testid": "diff-mark", title: "the text ends here" }, "∎"),
    );
  return pre;
}
