#!/usr/bin/env node
import { once } from "node:events";
// The floor the repair is measured against: a bare streaming pass over the same JSONL file that reads it in
// chunks, splits lines, JSON.parse + JSON.stringify each line, and writes the result with backpressure. No rules,
// no checks: the least any tool that rewrites JSONL must do.
import { createReadStream, createWriteStream } from "node:fs";

const [input, output] = process.argv.slice(2);
const out = createWriteStream(output);
let carry = [];
let batch = [];
let batched = 0;
let lines = 0;

function handle(line) {
  lines++;
  let text;
  try {
    text = JSON.stringify(JSON.parse(line.toString("utf8")));
  } catch {
    text = line.toString("utf8");
  }
  batch.push(text, "\n");
  batched += text.length;
}

for await (const chunk of createReadStream(input, { highWaterMark: 1 << 20 })) {
  let start = 0;
  for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
    const piece = chunk.subarray(start, nl);
    handle(carry.length === 0 ? piece : Buffer.concat([...carry, piece]));
    carry = [];
    start = nl + 1;
  }
  if (start < chunk.length) carry.push(chunk.subarray(start));
  if (batched >= 1 << 20) {
    const ready = out.write(batch.join(""));
    batch = [];
    batched = 0;
    if (!ready) await once(out, "drain");
  }
}
if (carry.length > 0) handle(Buffer.concat(carry));
out.end(batch.join(""));
await once(out, "finish");
process.stderr.write(`${JSON.stringify({ lines, maxRSS: process.resourceUsage().maxRSS })}\n`);
