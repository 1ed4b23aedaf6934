import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import type { PolitenessWait } from "./fetch-metrics.ts";

export interface HostLimiterOptions {
  /** Requests in flight per host. */
  readonly maxConcurrent: number;
  /** Minimum spacing between request starts per host. */
  readonly minDelayMs: number;
  /** Told of each wait a request made before it started (for the politeness metrics). */
  readonly onWait?: (reason: PolitenessWait, seconds: number) => void;
}

interface HostState {
  active: number;
  nextStartMs: number;
  delayMs: number;
  /** Lowered (never raised) when the host asks us to slow down. */
  maxConcurrent: number;
  /** No request starts before this (a Retry-After). */
  pausedUntilMs: number;
  readonly waiters: Array<() => void>;
}

/** Per-host politeness: a concurrency cap and a minimum delay between request starts. */
export class HostLimiter {
  private readonly hosts = new Map<string, HostState>();

  constructor(private readonly opts: HostLimiterOptions) {}

  /** Raises a host's delay (e.g. to its robots.txt Crawl-delay); never below the configured minimum. */
  setDelay(host: string, delayMs: number): void {
    this.state(host).delayMs = Math.max(this.opts.minDelayMs, delayMs);
  }

  /**
   * The host asked us to wait (429/503 with Retry-After): no request starts before `ms` from now,
   * and from now on one request at a time.
   */
  pause(host: string, ms: number): void {
    const s = this.state(host);
    s.pausedUntilMs = Math.max(s.pausedUntilMs, performance.now() + ms);
    s.nextStartMs = Math.max(s.nextStartMs, s.pausedUntilMs);
    s.maxConcurrent = 1;
  }

  /** Runs `fn` once the host has a free slot and its delay since the previous start has passed. */
  async run<T>(host: string, fn: () => Promise<T>): Promise<T> {
    const s = this.state(host);
    if (s.active >= s.maxConcurrent) {
      const queued = performance.now();
      while (s.active >= s.maxConcurrent) await new Promise<void>((resolve) => s.waiters.push(resolve));
      this.waited("connections", performance.now() - queued);
    }
    s.active += 1;
    try {
      // Starts are reserved in arrival order, each delayMs after the previous one.
      const now = performance.now();
      const start = Math.max(now, s.nextStartMs);
      s.nextStartMs = start + s.delayMs;
      // A start held back to the end of a pause waited for the host's Retry-After, not for the spacing.
      let reason: PolitenessWait = s.pausedUntilMs >= start ? "retry_after" : "delay";
      if (start > now) await sleep(start - now);
      // A pause that came while this one waited holds it back until the pause ends.
      while (s.pausedUntilMs > performance.now()) {
        reason = "retry_after";
        await sleep(s.pausedUntilMs - performance.now());
        s.nextStartMs = Math.max(s.nextStartMs, performance.now() + s.delayMs);
      }
      // One wait per request, however many sleeps it took (a timer may wake a little early).
      const waited = performance.now() - now;
      if (start > now || reason === "retry_after") this.waited(reason, waited);
      return await fn();
    } finally {
      s.active -= 1;
      s.waiters.shift()?.();
    }
  }

  private waited(reason: PolitenessWait, ms: number): void {
    this.opts.onWait?.(reason, Math.max(0, ms) / 1000);
  }

  private state(host: string): HostState {
    let s = this.hosts.get(host);
    if (!s) {
      s = { active: 0, nextStartMs: 0, delayMs: this.opts.minDelayMs, maxConcurrent: Math.max(1, this.opts.maxConcurrent), pausedUntilMs: 0, waiters: [] };
      this.hosts.set(host, s);
    }
    return s;
  }
}
