import type { OpenAIApi } from "../options.js";

/**
 * Which API an HTTP request is, when it is one whose answer carries tool calls: `POST …/chat/completions` or
 * `POST …/responses` (any prefix, a query string allowed). Anything else (`GET /v1/models`, `…/responses/{id}`,
 * embeddings) is `undefined`: an exchange the guard leaves alone.
 *
 * @example
 * exchangeApi({ method: "POST", url: "https://api.openai.com/v1/chat/completions" }); // "chat.completions"
 * exchangeApi({ method: "GET", url: "https://api.openai.com/v1/models" }); // undefined
 */
export function exchangeApi(args: { method: string | undefined; url: string }): OpenAIApi | undefined {
  if ((args.method ?? "GET").toUpperCase() !== "POST") return undefined;
  let path = args.url;
  const query = path.search(/[?#]/);
  if (query !== -1) path = path.slice(0, query);
  if (path.endsWith("/")) path = path.slice(0, -1);
  if (path.endsWith("/chat/completions")) return "chat.completions";
  if (path.endsWith("/responses")) return "responses";
  return undefined;
}
