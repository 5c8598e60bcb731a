// The shared chat templates: their list (written into the script by the build, with each one's recorded licence)
// and each one's text (`templates/NAME.jinja`), which the build does not copy: `pnpm playground`'s server reads it
// from the local ../shared/templates when the page asks. A build made without ../shared lists none.
import builtIndex from "virtual:shared-templates";

export interface TemplateIndex {
  names: string[];
  /** Each template's model licence, as ../shared/templates/SOURCES.md records it. */
  licences?: Record<string, string>;
  /** Why the list is empty, when it is. */
  note?: string;
}

const sources = new Map<string, Promise<string | undefined>>();

/**
 * The list of shared templates this build carries (empty, with a note, when it was built without them).
 *
 * @example
 * sharedTemplateIndex().names.length; // 39
 */
export function sharedTemplateIndex(): TemplateIndex {
  return Array.isArray(builtIndex.names)
    ? builtIndex
    : { names: [], note: "the build wrote no template list" };
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
      // A server without the templates may answer with its index page (a single-page fallback): not a template.
      .then((response) =>
        response.ok && !(response.headers.get("content-type") ?? "").includes("text/html")
          ? response.text()
          : undefined,
      )
      .catch(() => undefined);
    sources.set(name, source);
  }
  return source;
}
