// The measurement profiles: the screens, user agents and throttling Lighthouse 12 emulates
// (core/config/constants.js: screenEmulationMetrics, throttling.mobileSlow4G and desktopDense4G).
// A profile is chosen per measurement; its throttling is Lighthouse's default, simulated
// (SVC_BROWSER_THROTTLING=simulate: the page loads unthrottled and Lantern estimates FCP, LCP and TBT
// on the profile's network and CPU, lantern.ts: what Lighthouse and PageSpeed Insights report by
// default), applied as Lighthouse's DevTools throttling does (devtools: slow 4G and a 4x slower CPU
// for real on mobile), or none (provided: the page loads as fast as the machine allows).

export interface Throttling {
  /** Round-trip time Lighthouse's simulation assumes (ms). */
  readonly rttMs: number;
  /** Download throughput Lighthouse's simulation assumes (Kbit/s). */
  readonly throughputKbps: number;
  /**
   * What DevTools throttling applies: on mobile the RTT and throughput adjusted as Lighthouse adjusts
   * them (×3.75, ×0.9); 0 is unset, as in Lighthouse's desktop preset (no network throttling).
   */
  readonly requestLatencyMs: number;
  readonly downloadThroughputKbps: number;
  readonly uploadThroughputKbps: number;
  /** CPU slowdown (Emulation.setCPUThrottlingRate). */
  readonly cpuSlowdownMultiplier: number;
}

export interface Profile {
  readonly name: ProfileName;
  readonly width: number;
  readonly height: number;
  readonly deviceScaleFactor: number;
  readonly mobile: boolean;
  readonly throttling: Throttling;
}

export type ProfileName = "mobile" | "desktop";
export const PROFILE_NAMES: readonly ProfileName[] = Object.freeze(["mobile", "desktop"]);

/** Lighthouse's DevTools adjustment of the simulated RTT and throughput (constants.js). */
const RTT_FACTOR = 3.75;
const THROUGHPUT_FACTOR = 0.9;

export const PROFILES: Readonly<Record<ProfileName, Profile>> = Object.freeze({
  // A Moto G Power (2022) on slow 4G, Lighthouse's default.
  mobile: Object.freeze({
    name: "mobile",
    width: 412,
    height: 823,
    deviceScaleFactor: 1.75,
    mobile: true,
    throttling: Object.freeze({
      rttMs: 150,
      throughputKbps: 1.6 * 1024,
      requestLatencyMs: 150 * RTT_FACTOR,
      downloadThroughputKbps: 1.6 * 1024 * THROUGHPUT_FACTOR,
      uploadThroughputKbps: 750 * THROUGHPUT_FACTOR,
      cpuSlowdownMultiplier: 4,
    }),
  }),
  // --preset=desktop: dense 4G for the simulation only; DevTools throttling leaves the network and
  // the CPU alone (desktopDense4G's requestLatencyMs, downloadThroughputKbps and
  // uploadThroughputKbps are 0, "unset"), which is what Lighthouse's desktop devtools run records.
  desktop: Object.freeze({
    name: "desktop",
    width: 1350,
    height: 940,
    deviceScaleFactor: 1,
    mobile: false,
    throttling: Object.freeze({
      rttMs: 40,
      throughputKbps: 10 * 1024,
      requestLatencyMs: 0,
      downloadThroughputKbps: 0,
      uploadThroughputKbps: 0,
      cpuSlowdownMultiplier: 1,
    }),
  }),
});

/** How a run is throttled (SVC_BROWSER_THROTTLING): Lighthouse's --throttling-method of the same name. */
export type ThrottlingMethod = "simulate" | "devtools" | "provided";
export const THROTTLING_METHODS: readonly ThrottlingMethod[] = Object.freeze(["simulate", "devtools", "provided"]);

/** The throttling of one run, as its result states it (0: that part is not throttled). */
export interface AppliedThrottling {
  readonly method: ThrottlingMethod;
  /** The CPU slowdown: Emulation.setCPUThrottlingRate's rate (devtools) or Lantern's multiplier (simulate); 1: the machine's speed. */
  readonly cpuSlowdown: number;
  /** devtools: Network.emulateNetworkConditions's latency added to each request (ms) and throughputs (Kbit/s). */
  readonly requestLatencyMs: number;
  readonly downloadKbps: number;
  readonly uploadKbps: number;
  /** simulate: the round trip and throughput Lantern assumes (the load itself is not throttled). */
  readonly rttMs: number;
  readonly throughputKbps: number;
}

/** What a run of `profile` states under `method`: the profile's simulated or DevTools figures, or nothing. */
export function appliedThrottling(profile: Profile, method: ThrottlingMethod): AppliedThrottling {
  const none = { cpuSlowdown: 1, requestLatencyMs: 0, downloadKbps: 0, uploadKbps: 0, rttMs: 0, throughputKbps: 0 };
  const t = profile.throttling;
  // 1.6 * 1024 * 0.9 is 1474.5600000000002 in binary: stated as 1474.56, the same bytes per second.
  const kbps = (x: number) => Math.round(x * 100) / 100;
  if (method === "provided") return { method, ...none };
  if (method === "simulate") return { method, ...none, cpuSlowdown: t.cpuSlowdownMultiplier, rttMs: t.rttMs, throughputKbps: kbps(t.throughputKbps) };
  return { method, ...none, cpuSlowdown: t.cpuSlowdownMultiplier, requestLatencyMs: t.requestLatencyMs, downloadKbps: kbps(t.downloadThroughputKbps), uploadKbps: kbps(t.uploadThroughputKbps) };
}

/**
 * Network.emulateNetworkConditions's parameters for `t`, as Lighthouse computes them
 * (core/lib/emulation.js: throughput in bytes per second, floored); null when the network is not throttled.
 */
export function networkConditions(t: Pick<AppliedThrottling, "requestLatencyMs" | "downloadKbps" | "uploadKbps">): { offline: false; latency: number; downloadThroughput: number; uploadThroughput: number } | null {
  if (t.requestLatencyMs <= 0 && t.downloadKbps <= 0 && t.uploadKbps <= 0) return null;
  return { offline: false, latency: t.requestLatencyMs, downloadThroughput: Math.floor((t.downloadKbps * 1024) / 8), uploadThroughput: Math.floor((t.uploadKbps * 1024) / 8) };
}

/** "mobile 412x823 @1.75x" */
export function viewportLabel(p: Profile): string {
  return `${p.name} ${p.width}x${p.height} @${p.deviceScaleFactor}x`;
}

/** Lighthouse's emulated user agents, on this Chromium's major version, with Svc's token appended. */
export function userAgentFor(version: string, profile: Profile, token: string | undefined): string {
  const chrome = `Chrome/${version.split(".")[0] ?? "0"}.0.0.0`;
  const base = profile.mobile
    ? `Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) ${chrome} Mobile Safari/537.36`
    : `Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) ${chrome} Safari/537.36`;
  return token ? `${base} ${token}` : base;
}
