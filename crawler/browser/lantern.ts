// Lighthouse's default throttling, simulated as Lighthouse and PageSpeed Insights simulate it: the
// page loads unthrottled with a trace recorded, and Lantern, Lighthouse's simulator (shipped with
// Chrome DevTools' trace engine, @paulirish/trace_engine, BSD-3-Clause: the package Lighthouse 12
// itself calls), estimates FCP, LCP and TBT on the profile's network and CPU from the trace's
// dependency graph of requests and main-thread tasks. The trace-only path (network requests read
// from the trace, not from a DevTools log) is the one Lighthouse runs with INTERNAL_LANTERN_USE_TRACE.
import type { Throttling } from "./profiles.ts";

/** A trace event as Chromium's Tracing domain reports it. */
export type TraceEvent = Record<string, unknown>;

/**
 * The categories Lighthouse records (core/gather/gatherers/trace.js, 12.8), all of them: what the
 * browser does while it records is part of the timeline Lantern reads. Screenshots and frames make
 * the compositor's frames slower, which moves the page's paints against the requests the browser
 * starts after load (its favicon above all); Lantern's LCP counts every request started before the
 * observed LCP, so on a fast page the favicon's one simulated round trip (150 ms on mobile) was in
 * Lighthouse's estimate and missing from Svc's with a lighter list (`/lab` 753 against 901). The
 * events only DevTools' panel reads (TRACE_DROPPED) are dropped as they arrive.
 */
export const TRACE_CATEGORIES = [
  "-*",
  "disabled-by-default-lighthouse",
  "loading",
  "v8",
  "v8.execute",
  "blink.user_timing",
  "blink.console",
  "devtools.timeline",
  "disabled-by-default-devtools.timeline",
  "disabled-by-default-devtools.screenshot",
  "disabled-by-default-devtools.timeline.stack",
  "disabled-by-default-devtools.timeline.frame",
  "latencyInfo",
  "disabled-by-default-devtools.target-rundown",
  "disabled-by-default-devtools.v8-source-rundown-sources",
  "disabled-by-default-devtools.v8-source-rundown",
].join(",");

/**
 * Recorded, never read by Lantern or the trace engine's handlers it uses, and large: the frames'
 * JPEGs (tens of kB each) and the scripts' sources. Dropped before a batch is kept.
 */
export function traceEventKept(e: TraceEvent): boolean {
  const cat = e.cat;
  return typeof cat !== "string" || !(cat === "disabled-by-default-devtools.screenshot" || cat.startsWith("disabled-by-default-devtools.v8-source-rundown"));
}

/** A trace longer than this many events is not simulated (a page busy for minutes): the run states it is unthrottled. */
export const MAX_TRACE_EVENTS = 400_000;

export interface SimulatedMetrics {
  readonly fcpMs: number;
  readonly lcpMs: number;
  readonly tbtMs: number;
}

type TraceEngine = typeof import("@paulirish/trace_engine");
let engine: Promise<TraceEngine> | null = null;

/** The trace engine, loaded at the first simulation (it is large: a node that never simulates never loads it). */
function traceEngine(): Promise<TraceEngine> {
  engine ??= import("@paulirish/trace_engine");
  return engine;
}

/**
 * Lantern's FCP, LCP and TBT of one navigation's trace under a profile's simulated throttling
 * (Lighthouse's `throttling` settings: mobile slow 4G, 150 ms RTT, 1.6 Mbit/s, 4× CPU; desktop
 * dense 4G, 40 ms, 10 Mbit/s, 1× CPU). Throws when the trace holds no navigation or no contentful
 * paint (the caller then states the run unthrottled and keeps what it observed).
 */
export async function simulateMetrics(events: TraceEvent[], t: Throttling): Promise<SimulatedMetrics> {
  const { Helpers, Lantern, LanternComputationData, Processor } = await traceEngine();
  type Events = Parameters<InstanceType<typeof Processor.TraceProcessor>["parse"]>[0];
  const traceEvents = events as unknown as Events;
  const processor = Processor.TraceProcessor.createWithAllHandlers();
  Helpers.SyntheticEvents.SyntheticEventsManager.createAndActivate(traceEvents);
  await processor.parse(traceEvents, {});
  const parsed = processor.parsedTrace;
  if (!parsed) throw new Error("the trace could not be parsed");
  const navigationId = parsed.Meta.mainFrameNavigations[0]?.args.data?.navigationId;
  if (!navigationId) throw new Error("the trace holds no navigation of the main frame");
  const trace = { traceEvents: events } as unknown as Parameters<typeof LanternComputationData.createNetworkRequests>[0];
  const requests = LanternComputationData.createNetworkRequests(trace, parsed);
  const graph = LanternComputationData.createGraph(requests, trace, parsed);
  const processedNavigation = LanternComputationData.createProcessedNavigation(parsed, parsed.Meta.mainFrameId, navigationId);
  const networkAnalysis = Lantern.Core.NetworkAnalyzer.analyze(requests);
  if (!networkAnalysis) throw new Error("the trace holds no network request to estimate from");
  const simulator = Lantern.Simulation.Simulator.createSimulator({
    networkAnalysis,
    throttlingMethod: "simulate",
    throttling: {
      rttMs: t.rttMs,
      throughputKbps: t.throughputKbps,
      cpuSlowdownMultiplier: t.cpuSlowdownMultiplier,
      requestLatencyMs: t.requestLatencyMs,
      downloadThroughputKbps: t.downloadThroughputKbps,
      uploadThroughputKbps: t.uploadThroughputKbps,
    },
  });
  const data = { simulator, graph, processedNavigation };
  const fcp = Lantern.Metrics.FirstContentfulPaint.compute(data);
  const lcp = Lantern.Metrics.LargestContentfulPaint.compute(data, { fcpResult: fcp });
  const interactive = Lantern.Metrics.Interactive.compute(data, { lcpResult: lcp });
  const tbt = Lantern.Metrics.TotalBlockingTime.compute(data, { fcpResult: fcp, interactiveResult: interactive });
  return { fcpMs: fcp.timing, lcpMs: lcp.timing, tbtMs: tbt.timing };
}
