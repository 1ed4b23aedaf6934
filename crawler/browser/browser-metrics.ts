// The pure parts of Svc's lab metrics (measured in crawler/browser/measure-page.ts, the way
// web-measurement-notes.md cross-checked against Lighthouse): CLS as the largest session window,
// TBT as blocking time after FCP, INP as the slowest interaction of the scripted one, bytes by type.
import { PROFILES, type ProfileName } from "./profiles.ts";

/** Chromium's flags for lab runs (web-measurement-notes.md; /dev/shm is small in containers). */
export const CHROMIUM_ARGS: readonly string[] = Object.freeze([
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
  // WebRTC could otherwise send UDP past the proxy.
  "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
]);

/** Lighthouse's screen emulations (config/constants.js): mobile is its default (a Moto G Power). */
export const VIEWPORTS = Object.freeze({
  mobile: Object.freeze({ width: PROFILES.mobile.width, height: PROFILES.mobile.height, deviceScaleFactor: PROFILES.mobile.deviceScaleFactor, isMobile: true }),
  desktop: Object.freeze({ width: PROFILES.desktop.width, height: PROFILES.desktop.height, deviceScaleFactor: PROFILES.desktop.deviceScaleFactor, isMobile: false }),
});
export type ViewportName = ProfileName;

export type ThirdPartyPolicy = "auto" | "none" | "all";

export interface LayoutShift {
  readonly t: number;
  readonly v: number;
  readonly input: boolean;
}

export interface LongTask {
  readonly t: number;
  readonly d: number;
}

/** Chromium flags shifts within 500 ms of the emulated viewport change as "recent input" (crbug 1094974). */
const RECENT_INPUT_WINDOW_MS = 500;

/**
 * CLS: the largest session window of shifts (gap < 1 s, window < 5 s). Shifts with recent input do
 * not count, except — as Lighthouse's CumulativeLayoutShift reads the trace — those within 500 ms of
 * navigation start before any shift without the flag: with mobile emulation Chromium flags them
 * although nobody touched the page.
 */
export function cumulativeLayoutShift(shifts: readonly LayoutShift[]): number {
  let best = 0;
  let current = 0;
  let windowStart = Number.NEGATIVE_INFINITY;
  let previous = Number.NEGATIVE_INFINITY;
  let respectInput = false;
  for (const s of [...shifts].sort((a, b) => a.t - b.t)) {
    if (s.input && (respectInput || s.t > RECENT_INPUT_WINDOW_MS)) continue;
    if (!s.input) respectInput = true;
    if (s.t - previous > 1000 || s.t - windowStart > 5000) {
      current = 0;
      windowStart = s.t;
    }
    current += s.v;
    previous = s.t;
    best = Math.max(best, current);
  }
  return best;
}

const BLOCKING_THRESHOLD_MS = 50;

/** TBT as Lighthouse clips it (TBTUtils.js): each long task cut to [fcp, end], the part over 50 ms. */
export function totalBlockingTime(tasks: readonly LongTask[], fcpMs: number, endMs = Number.POSITIVE_INFINITY): number {
  let sum = 0;
  for (const { t, d } of tasks) {
    if (d < BLOCKING_THRESHOLD_MS || t + d < fcpMs || t > endMs) continue;
    const clipped = Math.min(t + d, endMs) - Math.max(t, fcpMs);
    if (clipped >= BLOCKING_THRESHOLD_MS) sum += clipped - BLOCKING_THRESHOLD_MS;
  }
  return sum;
}


/** An Event Timing entry of an interaction (interactionId > 0). */
export interface InteractionEvent {
  readonly id: number;
  readonly d: number;
}

/**
 * INP of a lab run: the longest interaction (an interaction's duration is its longest event). With
 * fewer than 50 interactions, as in a scripted run, no outlier is dropped (web.dev's definition).
 */
export function interactionToNextPaint(events: readonly InteractionEvent[]): number | null {
  const byId = new Map<number, number>();
  for (const e of events) if (e.id > 0) byId.set(e.id, Math.max(byId.get(e.id) ?? 0, e.d));
  if (byId.size === 0) return null;
  return Math.max(...byId.values());
}

/** Playwright's resource types folded into the bytes-by-type groups Lighthouse's resource summary uses. */
export function resourceGroup(resourceType: string): string {
  switch (resourceType) {
    case "document":
    case "script":
    case "stylesheet":
    case "image":
    case "font":
      return resourceType;
    case "media":
      return "media";
    default:
      return "other";
  }
}
