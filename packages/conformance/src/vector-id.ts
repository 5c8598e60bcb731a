/** What a vector id looks like: lowercase kebab-case words of letters and digits. */
export const VECTOR_ID_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** The longest id the suite accepts. */
export const VECTOR_ID_MAX_LENGTH = 100;

/**
 * The prefix every id of a vector file starts with: its folder and topic, kebab-case (`r1/statuses.json` →
 * `r1-statuses-`).
 *
 * @example
 * vectorIdPrefix("r1/statuses.json"); // "r1-statuses-"
 */
export function vectorIdPrefix(file: string): string {
  return `${slug(file.replace(/\\/g, "/").replace(/\.json$/, ""))}-`;
}

/** Lowercase kebab-case words of `text`: every run of other characters is one dash. */
export function slug(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** A description's words as an id part: kebab-case, a leading article dropped, at most `max` characters (whole words). */
function words(description: string, max: number): string {
  const parts = slug(description).split("-").filter(Boolean);
  if (parts.length > 1 && ["a", "an", "the"].includes(parts[0] as string)) parts.shift();
  let out = "";
  for (const part of parts) {
    const next = out === "" ? part : `${out}-${part}`;
    if (next.length > max && out !== "") break;
    out = next.slice(0, max);
  }
  return out === "" ? "test" : out;
}

/**
 * An id for a test that has none, unique among `taken`: the file's prefix and the test's description in kebab-case;
 * the group's description is added (then a number) when that is already taken.
 *
 * @example
 * suggestVectorId({ file: "r1/statuses.json", group: "no arguments", description: "null is absent", taken: new Set() });
 * // "r1-statuses-null-is-absent"
 */
export function suggestVectorId(args: {
  file: string;
  group: string;
  description: string;
  taken: ReadonlySet<string>;
}): string {
  const prefix = vectorIdPrefix(args.file);
  const room = Math.max(20, VECTOR_ID_MAX_LENGTH - prefix.length - 4);
  const plain = `${prefix}${words(args.description, Math.min(room, 56))}`;
  if (!args.taken.has(plain)) return plain;
  const grouped = `${prefix}${words(args.group, 28)}-${words(args.description, Math.min(room - 29, 56))}`;
  if (!args.taken.has(grouped)) return grouped;
  for (let n = 2; ; n++) if (!args.taken.has(`${grouped}-${n}`)) return `${grouped}-${n}`;
}
