import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

/** Which kind of request: the two repaired APIs, everything passed through, and the proxy's own endpoints. */
export type RouteName = "chat.completions" | "responses" | "passthrough" | "healthz" | "metrics" | "refused";

/** The proxy's Prometheus metrics, in a registry of its own (several proxies in one process do not mix). */
export interface ProxyMetrics {
  registry: Registry;
  requests: Counter<"route" | "method" | "status">;
  repairs: Counter<"api" | "source" | "rule">;
  upstreamErrors: Counter<"route" | "code">;
  inFlight: Gauge<"route">;
  duration: Histogram<"route" | "stream">;
  upstreamHeaders: Histogram<"route">;
  processing: Histogram<"route" | "stage">;
}

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
const PROCESSING_BUCKETS = [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.1];

/**
 * Creates the metrics `/metrics` serves: requests by route, method and status; repairs by rule; upstream errors by
 * code; requests in flight; latency histograms (whole request, upstream time to headers, the proxy's own
 * sanitize/repair time); and Node's process metrics.
 *
 * @example
 * const metrics = createProxyMetrics();
 * await metrics.registry.metrics(); // "# HELP toolcall_proxy_requests_total …"
 */
export function createProxyMetrics(options: { processMetrics?: boolean } = {}): ProxyMetrics {
  const registry = new Registry();
  if (options.processMetrics !== false) collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    requests: new Counter({
      name: "toolcall_proxy_requests_total",
      help: "Requests answered, by route, method and status.",
      labelNames: ["route", "method", "status"],
      registers,
    }),
    repairs: new Counter({
      name: "toolcall_proxy_repairs_total",
      help: "Tool calls repaired or normalized, by API, source (request, response, stream) and rule or status.",
      labelNames: ["api", "source", "rule"],
      registers,
    }),
    upstreamErrors: new Counter({
      name: "toolcall_proxy_upstream_errors_total",
      help: "Upstream faults, by route and error code.",
      labelNames: ["route", "code"],
      registers,
    }),
    inFlight: new Gauge({
      name: "toolcall_proxy_requests_in_flight",
      help: "Requests being answered.",
      labelNames: ["route"],
      registers,
    }),
    duration: new Histogram({
      name: "toolcall_proxy_request_duration_seconds",
      help: "From the request's arrival to the last byte of the response.",
      labelNames: ["route", "stream"],
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    upstreamHeaders: new Histogram({
      name: "toolcall_proxy_upstream_headers_seconds",
      help: "From sending to the upstream to its response headers.",
      labelNames: ["route"],
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    processing: new Histogram({
      name: "toolcall_proxy_processing_seconds",
      help: "Time the proxy itself spent sanitizing a request or repairing a whole response.",
      labelNames: ["route", "stage"],
      buckets: PROCESSING_BUCKETS,
      registers,
    }),
  };
}
