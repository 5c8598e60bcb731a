// The page's whole state, and its place in the URL: JSON, deflated with the browser's own CompressionStream
// (`deflate-raw`, in every current browser), in base64url after `#s=`. A case is shared by sharing the address; the
// fragment never reaches a server.

/** The three tools of the page. */
export type Tab = "template" | "output" | "chat";

export interface PlaygroundState {
  tab: Tab;
  /** A template of the shared list, by name; `null` when `template` holds the user's own source. */
  templateName: string | null;
  /** The template's source when it is the user's own (or edited). */
  template: string;
  /** Messages, tools and template variables as JSON text (kept as typed, so a case with a syntax error is shared too). */
  messages: string;
  tools: string;
  variables: string;
  addGenerationPrompt: boolean;
  /** The clock `strftime_now` reads, `YYYY-MM-DD HH:MM:SS` (the reference renderer's fixed clock by default). */
  now: string;
  /** The model's raw output (tool b). */
  output: string;
  /** The syntax to parse with: `auto` (detected from the template) or a syntax id. */
  syntax: string;
  /** The saved chat (tool c), as pasted: JSON or JSON lines. */
  chat: string;
  /** The reader for the saved chat: `auto` or a format id. */
  format: string;
  /** A provider profile id, or `any` for R3's own checks (what every strict provider refuses). */
  provider: string;
}

/** The reference renderer's clock (../shared/parity/hf_render.py): renders stay reproducible and shareable. */
export const REFERENCE_CLOCK = "2026-01-02 03:04:05";

const TABS: readonly Tab[] = ["template", "output", "chat"];

/**
 * A state from anything (a decoded URL, an old version of the page): every field checked, each missing or wrong one
 * taken from `defaults`.
 *
 * @example
 * normalizeState({ tab: "chat", messages: 7 }, defaults).messages === defaults.messages; // true
 */
export function normalizeState(value: unknown, defaults: PlaygroundState): PlaygroundState {
  const source = typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
  const text = (key: keyof PlaygroundState): string => {
    const field = Object.hasOwn(source, key) ? source[key] : undefined;
    return typeof field === "string" ? field : (defaults[key] as string);
  };
  const tab = TABS.includes(source.tab as Tab) ? (source.tab as Tab) : defaults.tab;
  const name = Object.hasOwn(source, "templateName") ? source.templateName : defaults.templateName;
  return {
    tab,
    templateName: typeof name === "string" || name === null ? name : defaults.templateName,
    template: text("template"),
    messages: text("messages"),
    tools: text("tools"),
    variables: text("variables"),
    addGenerationPrompt:
      typeof source.addGenerationPrompt === "boolean"
        ? source.addGenerationPrompt
        : defaults.addGenerationPrompt,
    now: text("now"),
    output: text("output"),
    syntax: text("syntax"),
    chat: text("chat"),
    format: text("format"),
    provider: text("provider"),
  };
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

async function pipe(bytes: Uint8Array, stream: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  const body = new Blob([bytes as BlobPart]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(body).arrayBuffer());
}

/**
 * The state as a URL fragment: `s=` and the deflated JSON in base64url.
 *
 * @example
 * location.hash = await encodeState(state); // "s=…"
 */
export async function encodeState(state: PlaygroundState): Promise<string> {
  const json = new TextEncoder().encode(JSON.stringify(state));
  return `s=${toBase64Url(await pipe(json, new CompressionStream("deflate-raw")))}`;
}

/**
 * The state a fragment holds (`s=…`, with or without the `#`), or `undefined` when it holds none or cannot be read
 * (cut short, not ours): the page then starts from its defaults and says so.
 *
 * @example
 * await decodeState(location.hash, defaults);
 */
export async function decodeState(
  fragment: string,
  defaults: PlaygroundState,
): Promise<PlaygroundState | undefined> {
  const match = /^#?s=([A-Za-z0-9_-]+)$/.exec(fragment);
  if (!match?.[1]) return undefined;
  try {
    const json = await pipe(fromBase64Url(match[1]), new DecompressionStream("deflate-raw"));
    return normalizeState(JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(json)), defaults);
  } catch {
    return undefined;
  }
}
