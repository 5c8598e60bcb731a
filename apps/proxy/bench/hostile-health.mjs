/**
 * `/healthz` latency (wall-clock: p50, p90, max) while the proxy repairs a hostile whole (non-streamed) answer: 512 KB
 * of unclosed Qwen `<parameter=a>x` content, and 1 MB of Gemma `<|"|>` markers as one call's arguments; every repair
 * and the gemma, qwen and hermes content-call extractors on. Health checks are sent one after another until the
 * hostile answer is back; `node bench/hostile-health.mjs [rounds]` after `pnpm build`. Tests do not read this: they
 * count (test/hostile-health.test.ts).
 */
import http from "node:http";
import { CONTENT_CALL_EXTRACTORS, createProxy, REPAIR_NAMES, resolveRepairs } from "../dist/index.js";

const KB = 1024;
const repeatTo = (unit, size) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
const bodyOf = (message) =>
  JSON.stringify({
    id: "x",
    object: "chat.completion",
    created: 1,
    model: "m",
    choices: [{ index: 0, message, finish_reason: "stop", logprobs: null }],
  });
const ANSWERS = {
  "qwen-unclosed-512k": bodyOf({
    role: "assistant",
    content: `<tool_call>\n<function=f>\n${repeatTo("<parameter=a>x", 512 * KB)}`,
  }),
  "quote-markers-1m": bodyOf({
    role: "assistant",
    content: null,
    tool_calls: [
      { id: "t", type: "function", function: { name: "f", arguments: repeatTo('<|"|>', 1024 * KB) } },
    ],
  }),
};
const upstream = http.createServer((req, res) => {
  let model = "";
  req.on("data", (d) => {
    model += d;
  });
  req.on("end", () => {
    const m = JSON.parse(model).model;
    res.writeHead(200, { "content-type": "application/json" });
    res.end(ANSWERS[m]);
  });
});
await new Promise((r) => upstream.listen(0, "127.0.0.1", r));
const repairs = resolveRepairs(REPAIR_NAMES.filter((n) => n !== "none" && n !== "core")).repairs;
const created = createProxy({
  upstream: `http://127.0.0.1:${upstream.address().port}`,
  repairs,
  contentCalls: [CONTENT_CALL_EXTRACTORS.gemma, CONTENT_CALL_EXTRACTORS.qwen, CONTENT_CALL_EXTRACTORS.hermes],
  logLevel: "silent",
  maxBody: 4 * 1024 * KB,
});
const proxy = created.proxy;
const addr = await proxy.listen({ port: 0, host: "127.0.0.1" });
const origin = `http://127.0.0.1:${addr.port}`;
const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
const get = (path) =>
  new Promise((resolve, reject) => {
    const s = performance.now();
    http
      .get(`${origin}${path}`, { agent }, (res) => {
        res.resume();
        res.on("end", () => resolve(performance.now() - s));
      })
      .on("error", reject);
  });
const post = (model) =>
  new Promise((resolve, reject) => {
    const r = http.request(
      `${origin}/v1/chat/completions`,
      { method: "POST", agent, headers: { "content-type": "application/json" } },
      (res) => {
        let n = 0;
        res.on("data", (d) => {
          n += d.length;
        });
        res.on("end", () => resolve(n));
      },
    );
    r.on("error", reject);
    r.end(JSON.stringify({ model, messages: [{ role: "user", content: "x" }] }));
  });
const ROUNDS = Number(process.argv[2] ?? 8);
for (const model of Object.keys(ANSWERS)) {
  const lat = [];
  for (let round = 0; round < ROUNDS; round++) {
    let done = false;
    const hostile = post(model).then(() => {
      done = true;
    });
    while (!done) lat.push(await get("/healthz"));
    await hostile;
  }
  lat.sort((a, b) => a - b);
  console.log(
    `${model}: /healthz n=${lat.length} p50 ${lat[Math.floor(lat.length / 2)].toFixed(1)} ms, p90 ${lat[Math.floor(lat.length * 0.9)].toFixed(1)} ms, max ${lat[lat.length - 1].toFixed(1)} ms`,
  );
}
agent.destroy();
await proxy.close();
upstream.close();
