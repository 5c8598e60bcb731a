// The shared chat templates: their list (`templates/index.json`, written by the build with each one's recorded
// licence) and each one's text (`templates/NAME.jinja`), which the build does not copy: `pnpm playground`'s server
// reads it from the local ../shared/templates when the page asks. A build made without ../shared lists none.

export interface TemplateIndex {
  names: string[];
  /** Each template's model licence, as ../shared/templates/SOURCES.md records it. */
  licences?: Record<string, string>;
  /** Why the list is empty, when it is. */
  note?: string;
}

const sources = new Map<string, Promise<string | undefined>>();

/**
 * The list of shared templates this build carries (empty, with a note, when it carries none).
 *
 * @example
 * (await loadTemplateIndex()).names.length; // 39
 */
export async function loadTemplateIndex(): Promise<TemplateIndex> {
  try {
    const response = await fetch(new URL("templates/index.json", document.baseURI));
    if (!response.ok) return { names: [], note: `templates/index.json: HTTP ${response.status}` };
    const index = (await response.json()) as TemplateIndex;
    return Array.isArray(index.names) ? index : { names: [], note: "templates/index.json has no names" };
  } catch (error) {
    return { names: [], note: `templates/index.json: ${(error as Error).message}` };
  }
}

/**
 * A shared template's source, fetched once; `undefined` when this build does not carry it.
 *
 * @example
 * await templateSource("Qwen-Qwen3-8B");
 */
export function templateSource(name: string): Promise<string | undefined> {
  let source = sources.get(name);
  if (source === undefined) {
    source = fetch(new URL(`templates/${encodeURIComponent(name)}.jinja`, document.baseURI))
      .then((response) => (response.ok ? response.text() : undefined))
      .catch(() => undefined);
    sources.set(name, source);
  }
  return source;
}
