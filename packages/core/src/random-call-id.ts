const ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/**
 * A random OpenAI-style tool call id (`call_` and 24 letters and digits), for calls recovered from text that
 * carried none.
 *
 * @example
 * randomCallId(); // "call_X3f…" (29 characters)
 */
export function randomCallId(): string {
  const bytes = new Uint8Array(24);
  globalThis.crypto.getRandomValues(bytes);
  let id = "call_";
  for (const byte of bytes) id += ID_ALPHABET[byte % ID_ALPHABET.length];
  return id;
}
