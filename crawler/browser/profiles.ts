// The measurement profiles: the screens, user agents and throttling Lighthouse 12 emulates
// (core/config/constants.js: screenEmulationMetrics, throttling.mobileSlow4G and desktopDense4G).
// A profile is chosen per measurement; the throttling figures are applied only when the operator
// asks for DevTools throttling (SVC_BROWSER_THROTTLING=devtools); by default a run is unthrottled and
// compares with Lighthouse's --throttling-method=provided (web-measurement-notes.md).

export interface Throttling {
  /** Round-trip time Lighthouse's simulation assumes (ms). */
  readonly rttMs: number;
  /** Download throughput Lighthouse's simulation assumes (Kbit/s). */
  readonly throughputKbps: number;
  /** What DevTools throttling applies: the RTT and throughput adjusted as Lighthouse adjusts them (×3.75, ×0.9 on mobile). */
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
  // --preset=desktop: dense 4G, no CPU slowdown.
  desktop: Object.freeze({
    name: "desktop",
    width: 1350,
    height: 940,
    deviceScaleFactor: 1,
    mobile: false,
    throttling: Object.freeze({
      rttMs: 40,
      throughputKbps: 10 * 1024,
      requestLatencyMs: 40,
      downloadThroughputKbps: 10 * 1024,
      uploadThroughputKbps: 10 * 1024,
      cpuSlowdownMultiplier: 1,
    }),
  }),
});

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
