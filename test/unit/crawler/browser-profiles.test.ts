// The throttling each profile applies, against Lighthouse 12.8.2's own figures
// (core/config/constants.js: throttling.mobileSlow4G and desktopDense4G; core/lib/emulation.js).
import { describe, expect, it } from "vitest";
import { appliedThrottling, networkConditions, PROFILES } from "../../../crawler/index.ts";

describe("throttling per profile", () => {
  it("mobile under devtools is Lighthouse's mobile DevTools throttling: 150 ms RTT × 3.75, 1.6 Mbit/s and 750 Kbit/s × 0.9, CPU 4×", () => {
    expect(appliedThrottling(PROFILES.mobile, "devtools")).toEqual({ method: "devtools", cpuSlowdown: 4, requestLatencyMs: 562.5, downloadKbps: 1474.56, uploadKbps: 675, rttMs: 0, throughputKbps: 0 });
    // What the page's CDP session is sent: Lighthouse's bytes per second, floored.
    expect(networkConditions(appliedThrottling(PROFILES.mobile, "devtools"))).toEqual({ offline: false, latency: 562.5, downloadThroughput: 188_743, uploadThroughput: 86_400 });
    // What Lantern would simulate, kept beside it (Lighthouse's rttMs and throughputKbps).
    expect({ rtt: PROFILES.mobile.throttling.rttMs, kbps: PROFILES.mobile.throttling.throughputKbps }).toEqual({ rtt: 150, kbps: 1638.4 });
  });

  it("desktop under devtools is Lighthouse's desktop preset: no network throttling (0 is unset) and CPU 1×", () => {
    expect(appliedThrottling(PROFILES.desktop, "devtools")).toEqual({ method: "devtools", cpuSlowdown: 1, requestLatencyMs: 0, downloadKbps: 0, uploadKbps: 0, rttMs: 0, throughputKbps: 0 });
    expect(networkConditions(appliedThrottling(PROFILES.desktop, "devtools"))).toBeNull();
    expect({ rtt: PROFILES.desktop.throttling.rttMs, kbps: PROFILES.desktop.throttling.throughputKbps }).toEqual({ rtt: 40, kbps: 10240 });
  });

  it("simulate applies nothing to the load and states what Lantern assumes: Lighthouse's mobileSlow4G and desktopDense4G", () => {
    expect(appliedThrottling(PROFILES.mobile, "simulate")).toEqual({ method: "simulate", cpuSlowdown: 4, requestLatencyMs: 0, downloadKbps: 0, uploadKbps: 0, rttMs: 150, throughputKbps: 1638.4 });
    expect(appliedThrottling(PROFILES.desktop, "simulate")).toEqual({ method: "simulate", cpuSlowdown: 1, requestLatencyMs: 0, downloadKbps: 0, uploadKbps: 0, rttMs: 40, throughputKbps: 10240 });
    expect(networkConditions(appliedThrottling(PROFILES.mobile, "simulate"))).toBeNull();
  });

  it("provided throttles nothing in either profile", () => {
    const none = { method: "provided", cpuSlowdown: 1, requestLatencyMs: 0, downloadKbps: 0, uploadKbps: 0, rttMs: 0, throughputKbps: 0 };
    expect(appliedThrottling(PROFILES.mobile, "provided")).toEqual(none);
    expect(appliedThrottling(PROFILES.desktop, "provided")).toEqual(none);
    expect(networkConditions(appliedThrottling(PROFILES.mobile, "provided"))).toBeNull();
  });
});
