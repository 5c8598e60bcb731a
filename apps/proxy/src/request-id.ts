import { randomUUID } from "node:crypto";

const VALID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The id a request is logged under: the client's `x-request-id` when it is a plain token (so a caller can follow
 * its own id through the logs), a new UUID otherwise.
 *
 * @example
 * requestIdOf("abc-123"); // "abc-123"
 * requestIdOf("bad id\n"); // "3b2c…" (a new UUID)
 */
export function requestIdOf(header: string | string[] | undefined): string {
  return typeof header === "string" && VALID.test(header) ? header : randomUUID();
}
