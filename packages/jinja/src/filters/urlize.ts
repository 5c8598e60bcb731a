import { escapeText } from "../runtime/markup.js";
import { PY_WHITESPACE } from "../runtime/strings/str-methods.js";

/** Jinja's `urlize` (3.1): links for URLs and email addresses in a text, the text itself escaped (unless safe). */

const W = "[\\p{L}\\p{N}_]";
const D = "\\p{Nd}";
const S = `[^${PY_WHITESPACE}]`;
const HTTP = new RegExp(
  `^((https?://|www\\.)((${W.slice(0, -1)}%-]+\\.)+)?([a-z]{2,63}|xn--${W.slice(0, -1)}%]{2,59})|(${W.slice(0, -1)}%-]{2,63}\\.)+(com|net|int|edu|gov|org|info|mil)|(https?://)(((${D}{1,3})(\\.${D}{1,3}){3})|(\\[([\\da-f]{0,4}:){2}([\\da-f]{0,4}:?){1,6}\\])))(?::${D}{1,5})?(?:[/?#]${S}*)?$`,
  "iu",
);
const EMAIL = new RegExp(`^${S}+@${W}${W.slice(0, -1)}.-]*\\.${W}+$`, "u");
const SPLIT = new RegExp(`([${PY_WHITESPACE}]+)`, "u");
const HEAD = /^(?:[(<]|&lt;)+/;
const TAIL = /(?:[)>.,\n]|&gt;)+$/;

function count(text: string, part: string): number {
  return text.split(part).length - 1;
}

/**
 * `urlize(text, trim_url_limit, rel, target, extra_schemes)`.
 *
 * @example
 * urlize("see www.example.com", { rel: "noopener" }); // 'see <a href="https://www.example.com" rel="noopener">www.example.com</a>'
 */
export function urlize(
  text: string,
  options: {
    trimUrlLimit?: number | null;
    rel?: string | null;
    target?: string | null;
    extraSchemes?: readonly string[];
    /** The text is safe already (a Markup's): it is not escaped again. */
    safe?: boolean;
  },
): string {
  const limit = options.trimUrlLimit ?? null;
  const trim = (x: string) => {
    if (limit === null) return x;
    const cps = Array.from(x);
    return cps.length > limit ? `${cps.slice(0, Math.max(0, limit)).join("")}...` : x;
  };
  const relAttr = options.rel ? ` rel="${escapeText(options.rel)}"` : "";
  const targetAttr = options.target ? ` target="${escapeText(options.target)}"` : "";
  const words = (options.safe ? text : escapeText(text)).split(SPLIT);
  return words
    .map((word) => {
      let head = "";
      let middle = word;
      let tail = "";
      const lead = HEAD.exec(middle);
      if (lead !== null) {
        head = lead[0];
        middle = middle.slice(head.length);
      }
      if (/(?:[)>.,\n]|&gt;)$/.test(middle)) {
        const trail = TAIL.exec(middle);
        if (trail !== null) {
          tail = trail[0];
          middle = middle.slice(0, trail.index);
        }
      }
      for (const [open, close] of [
        ["(", ")"],
        ["<", ">"],
        ["&lt;", "&gt;"],
      ] as const) {
        const opens = count(middle, open);
        if (opens <= count(middle, close)) continue;
        const moves = Math.min(opens, count(tail, close));
        for (let k = 0; k < moves; k++) {
          const end = tail.indexOf(close) + close.length;
          middle += tail.slice(0, end);
          tail = tail.slice(end);
        }
      }
      if (HTTP.test(middle)) {
        const href =
          middle.startsWith("https://") || middle.startsWith("http://") ? middle : `https://${middle}`;
        middle = `<a href="${href}"${relAttr}${targetAttr}>${trim(middle)}</a>`;
      } else if (middle.startsWith("mailto:") && EMAIL.test(middle.slice(7))) {
        middle = `<a href="${middle}">${middle.slice(7)}</a>`;
      } else if (
        middle.includes("@") &&
        !middle.startsWith("www.") &&
        !middle.includes(":") &&
        EMAIL.test(middle)
      ) {
        middle = `<a href="mailto:${middle}">${middle}</a>`;
      } else if (options.extraSchemes !== undefined) {
        for (const scheme of options.extraSchemes) {
          if (middle !== scheme && middle.startsWith(scheme))
            middle = `<a href="${middle}"${relAttr}${targetAttr}>${middle}</a>`;
        }
      }
      return head + middle + tail;
    })
    .join("");
}
