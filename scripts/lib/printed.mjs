// The check a README example's `console.log(…); // → TEXT` becomes (scripts/doc-tests.mjs): it prints what
// console.log would print, then fails unless that is TEXT, where `…` stands for any text and runs of white space
// compare equal (an object console.log spreads over lines reads as the one line the README shows).
import { format } from "node:util";

const squash = (text) => text.replace(/\s+/g, " ").trim();
const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Prints `values` as console.log does; throws unless the output matches `expected` (README line `line`). */
export function printed(expected, line, ...values) {
  const text = format(...values);
  console.log(text);
  const pattern = new RegExp(
    `^${squash(expected)
      .split(/\s*…\s*/)
      .map(escapeRegExp)
      .join("[\\s\\S]*?")}$`,
  );
  if (!pattern.test(squash(text)))
    throw new Error(`the console.log of line ${line} printed ${squash(text)}; the README says ${expected}`);
}
