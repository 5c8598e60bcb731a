import { createProxy, type ProxyOptions, type ToolcallProxy } from "../src/index.js";

export interface RunningProxy {
  proxy: ToolcallProxy;
  origin: string;
  /** What an OpenAI SDK is pointed at. */
  baseURL: string;
  /** Every log line written, parsed. */
  logs: Array<Record<string, unknown>>;
  /** Every log line as written, to search for what must never be there. */
  logText: () => string;
  close(): Promise<void>;
}

/** Starts a proxy on a free loopback port in front of `upstream`, capturing its log lines. */
export async function startProxy(
  options: Omit<ProxyOptions, "log"> & { upstream: string },
): Promise<RunningProxy> {
  const lines: string[] = [];
  const created = createProxy({ ...options, log: { write: (line: string) => lines.push(line) } });
  if (!created.ok) throw new Error(created.error);
  const { proxy } = created;
  const address = await proxy.listen({ port: 0, host: "127.0.0.1" });
  const origin = `http://127.0.0.1:${address.port}`;
  return {
    proxy,
    origin,
    baseURL: `${origin}/v1`,
    get logs() {
      return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    },
    logText: () => lines.join(""),
    close: () => proxy.close(),
  };
}
