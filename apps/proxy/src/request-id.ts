import { randomFillSync } from "node:crypto";

const VALID = /^[A-Za-z0-9._:-]{1,128}$/;
/** Random bytes per id: 96 bits, so copies of the proxy behind one load balancer never need to coordinate. */
const ID_BYTES = 12;
/** Ids made from one fill of the random pool. */
const POOL_IDS = 256;
const pool = Buffer.alloc(ID_BYTES * POOL_IDS);
let next = pool.length;

/** A new random id: 24 lower-case hex digits from a pool of random bytes refilled every `POOL_IDS` ids. */
function newRequestId(): string {
  if (next >= pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  const id = pool.toString("hex", next, next + ID_BYTES);
  next += ID_BYTES;
  return id;
}

/**
 * The id a request is logged under: the client's `x-request-id` when it is a plain token (so a caller can follow
 * its own id through the logs), a new random id (24 hex digits, 96 bits) otherwise.
 *
 * @example
 * requestIdOf("abc-123"); // "abc-123"
 * requestIdOf("bad id\n"); // "9f86d081884c7d659a2feaa0" (a new random id)
 */
export function requestIdOf(header: string | string[] | undefined): string {
  return typeof header === "string" && VALID.test(header) ? header : newRequestId();
}
