import {
  Counter,
  collectDefaultMetrics,
  Gauge,
  type LabelValues,
  type Metric,
  type MetricValueWithName,
  Registry,
} from "prom-client";

/** Which kind of request: the two repaired APIs, everything passed through, and the proxy's own endpoints. */
export type RouteName = "chat.completions" | "responses" | "passthrough" | "healthz" | "metrics" | "refused";

/**
 * Series by their label values, one map level per label name in the metric's order, so finding a series builds no
 * key string (label values are mostly constant strings, whose hashes are cached). A value that is not a string counts
 * as its text, as prom-client counts it (`200` and `"200"` are one series). Iterates in order of first use.
 */
class SeriesIndex<L extends string, S> {
  readonly #names: readonly L[];
  #root = new Map<string, unknown>();
  #all: S[] = [];

  constructor(names: readonly L[]) {
    this.#names = names;
  }

  get(labels: LabelValues<L>, create: (labels: LabelValues<L>) => S): S {
    const names = this.#names;
    let node = this.#root;
    for (let i = 0; i < names.length - 1; i++) {
      const key = labelText(labels[names[i] as L]);
      let child = node.get(key) as Map<string, unknown> | undefined;
      if (child === undefined) {
        child = new Map();
        node.set(key, child);
      }
      node = child;
    }
    const key = names.length === 0 ? "" : labelText(labels[names[names.length - 1] as L]);
    let series = node.get(key) as S | undefined;
    if (series === undefined) {
      series = create(labels);
      node.set(key, series);
      this.#all.push(series);
    }
    return series;
  }

  values(): readonly S[] {
    return this.#all;
  }

  clear(): void {
    this.#root = new Map();
    this.#all = [];
  }
}

function newCount<L extends string>(labels: LabelValues<L>): { labels: LabelValues<L>; count: number } {
  return { labels, count: 0 };
}

function labelText(value: string | number | undefined): string {
  return typeof value === "string" ? value : String(value);
}

/**
 * A counter whose increments are tallied in a plain map and handed to its prom-client counter when it is scraped.
 * A request then costs one map update instead of prom-client's label hashing; what `/metrics` shows is the same.
 */
export class TalliedCounter<L extends string> {
  readonly counter: Counter<L>;
  readonly #pending: SeriesIndex<L, { labels: LabelValues<L>; count: number }>;

  constructor(config: { name: string; help: string; labelNames: readonly L[]; registers: Registry[] }) {
    const pending = new SeriesIndex<L, { labels: LabelValues<L>; count: number }>(config.labelNames);
    this.#pending = pending;
    this.counter = new Counter<L>({
      ...config,
      collect() {
        for (const { labels, count } of pending.values()) this.inc(labels, count);
        pending.clear();
      },
    });
  }

  inc(labels: LabelValues<L>): void {
    this.#pending.get(labels, newCount).count++;
  }
}

interface HistogramSeries<L extends string> {
  labels: LabelValues<L>;
  counts: number[];
  sum: number;
  count: number;
}

/**
 * A histogram kept as plain per-series bucket counts, registered with a prom-client registry, which writes it out
 * in the same text format as its own histograms (`_bucket` with `le`, `_sum`, `_count`). An observation costs a
 * map lookup and a bucket search, without prom-client's per-call label hashing.
 */
export class TalliedHistogram<L extends string> {
  readonly name: string;
  readonly help: string;
  readonly type = "histogram";
  readonly aggregator = "sum";
  readonly #bounds: readonly number[];
  readonly #series: SeriesIndex<L, HistogramSeries<L>>;
  readonly #newSeries: (labels: LabelValues<L>) => HistogramSeries<L>;

  constructor(config: {
    name: string;
    help: string;
    labelNames: readonly L[];
    buckets: readonly number[];
    registers: Registry[];
  }) {
    this.name = config.name;
    this.help = config.help;
    this.#bounds = [...config.buckets].sort((a, b) => a - b);
    this.#series = new SeriesIndex(config.labelNames);
    const size = this.#bounds.length;
    this.#newSeries = (labels) => ({ labels, counts: new Array<number>(size).fill(0), sum: 0, count: 0 });
    for (const registry of config.registers) registry.registerMetric(this as unknown as Metric);
  }

  observe(labels: LabelValues<L>, value: number): void {
    const series = this.#series.get(labels, this.#newSeries);
    const bounds = this.#bounds;
    let at = 0;
    while (at < bounds.length && value > (bounds[at] as number)) at++;
    if (at < bounds.length) (series.counts[at] as number)++;
    series.sum += value;
    series.count++;
  }

  /** What prom-client's registry writes out: cumulative buckets, then `+Inf`, sum and count, per series. */
  get(): {
    name: string;
    help: string;
    type: "histogram";
    values: MetricValueWithName<string>[];
    aggregator: "sum";
  } {
    const values: MetricValueWithName<string>[] = [];
    for (const series of this.#series.values()) {
      const { counts, sum, count } = series;
      const labels = series.labels as LabelValues<string>;
      let cumulative = 0;
      this.#bounds.forEach((bound, i) => {
        cumulative += counts[i] as number;
        values.push({
          labels: { le: bound, ...labels },
          value: cumulative,
          metricName: `${this.name}_bucket`,
        });
      });
      values.push({ labels: { le: "+Inf", ...labels }, value: count, metricName: `${this.name}_bucket` });
      values.push({ labels: { ...labels }, value: sum, metricName: `${this.name}_sum` });
      values.push({ labels: { ...labels }, value: count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: "histogram", values, aggregator: "sum" };
  }

  reset(): void {
    this.#series.clear();
  }
}

/** The proxy's Prometheus metrics, in a registry of its own (several proxies in one process do not mix). */
export interface ProxyMetrics {
  registry: Registry;
  requests: TalliedCounter<"route" | "method" | "status">;
  repairs: TalliedCounter<"api" | "source" | "rule">;
  upstreamErrors: TalliedCounter<"route" | "code">;
  /** Requests being answered, by route; the gauge reads it when scraped. */
  inFlight: Map<RouteName, number>;
  duration: TalliedHistogram<"route" | "stream">;
  upstreamHeaders: TalliedHistogram<"route">;
  processing: TalliedHistogram<"route" | "stage">;
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
  const inFlight = new Map<RouteName, number>();
  new Gauge({
    name: "toolcall_proxy_requests_in_flight",
    help: "Requests being answered.",
    labelNames: ["route"],
    registers,
    collect() {
      for (const [route, count] of inFlight) this.set({ route }, count);
    },
  });
  return {
    registry,
    requests: new TalliedCounter({
      name: "toolcall_proxy_requests_total",
      help: "Requests answered, by route, method and status.",
      labelNames: ["route", "method", "status"],
      registers,
    }),
    repairs: new TalliedCounter({
      name: "toolcall_proxy_repairs_total",
      help: "Tool calls repaired or normalized, by API, source (request, response, stream) and rule or status.",
      labelNames: ["api", "source", "rule"],
      registers,
    }),
    upstreamErrors: new TalliedCounter({
      name: "toolcall_proxy_upstream_errors_total",
      help: "Upstream faults, by route and error code.",
      labelNames: ["route", "code"],
      registers,
    }),
    inFlight,
    duration: new TalliedHistogram({
      name: "toolcall_proxy_request_duration_seconds",
      help: "From the request's arrival to the last byte of the response.",
      labelNames: ["route", "stream"],
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    upstreamHeaders: new TalliedHistogram({
      name: "toolcall_proxy_upstream_headers_seconds",
      help: "From sending to the upstream to its response headers.",
      labelNames: ["route"],
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    processing: new TalliedHistogram({
      name: "toolcall_proxy_processing_seconds",
      help: "Time the proxy itself spent sanitizing a request or repairing a whole response.",
      labelNames: ["route", "stage"],
      buckets: PROCESSING_BUCKETS,
      registers,
    }),
  };
}
