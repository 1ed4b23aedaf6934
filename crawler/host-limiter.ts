import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";

export interface HostLimiterOptions {
  /** Requests in flight per host. */
  readonly maxConcurrent: number;
  /** Minimum spacing between request starts per host. */
  readonly minDelayMs: number;
}

interface HostState {
  active: number;
  nextStartMs: number;
  delayMs: number;
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

  /** Runs `fn` once the host has a free slot and its delay since the previous start has passed. */
  async run<T>(host: string, fn: () => Promise<T>): Promise<T> {
    const s = this.state(host);
    while (s.active >= Math.max(1, this.opts.maxConcurrent)) await new Promise<void>((resolve) => s.waiters.push(resolve));
    s.active += 1;
    try {
      const now = performance.now();
      const start = Math.max(now, s.nextStartMs);
      s.nextStartMs = start + s.delayMs;
      if (start > now) await sleep(start - now);
      return await fn();
    } finally {
      s.active -= 1;
      s.waiters.shift()?.();
    }
  }

  private state(host: string): HostState {
    let s = this.hosts.get(host);
    if (!s) {
      s = { active: 0, nextStartMs: 0, delayMs: this.opts.minDelayMs, waiters: [] };
      this.hosts.set(host, s);
    }
    return s;
  }
}
