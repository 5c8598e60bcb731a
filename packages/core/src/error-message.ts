/**
 * The message of something thrown, for a result that reports it. Never throws itself: hostile code may throw a
 * revoked proxy, or an object whose `message` or `toString` throws.
 */
export function errorMessage(error: unknown): string {
  try {
    if (error instanceof Error) return String(error.message);
    return typeof error === "string" ? error : String(error);
  } catch {
    return "something that cannot be read was thrown";
  }
}
