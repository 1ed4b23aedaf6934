import type { AuthRepo } from "../../storage/index.ts";

interface Window {
  readonly hour: number;
  readonly cap: number;
  /** Units this process reserved in Postgres and has not handed out yet. */
  unused: number;
  /** The window's stored count as last seen (everyone's admitted and reserved requests). */
  seen: number;
  /** Units asked for at the next reservation: 1, then doubling up to maxBlock(cap). */
  block: number;
  full: boolean;
  pending: Promise<void> | null;
}

export interface QuotaTake {
  readonly admitted: boolean;
  /** Requests counted in the window, as this process knows it (exact with one process). */
  readonly used: number;
}

/**
 * The largest block a process reserves at once. A process can hold at most maxBlock − 1 units it
 * never hands out, so with P gateway processes a busy key may be refused up to P × (maxBlock − 1)
 * requests before its limit: the limit itself is never exceeded. Small limits reserve one at a time.
 */
export function maxBlock(cap: number): number {
  return Math.max(1, Math.min(64, Math.floor(cap / 100)));
}

/**
 * Hourly windows (per key, per address) handed out from blocks reserved atomically in Postgres, so
 * that a busy key costs one write per block rather than one per request.
 */
export class Quota {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly repo: AuthRepo) {}

  /** Counts one request, or refuses it when the window is full. */
  take(subject: string, hour: number, cap: number): Promise<QuotaTake> {
    const now = this.takeNow(subject, hour, cap);
    return now === null ? this.takeReserving(subject, hour, cap) : Promise.resolve(now);
  }

  /**
   * take without a promise when this process can decide alone (units of its block left, or the
   * window known full); null when a block must be reserved first (call take).
   */
  takeNow(subject: string, hour: number, cap: number): QuotaTake | null {
    const w = this.window(subject, hour, cap);
    if (w.unused > 0) {
      w.unused -= 1;
      return { admitted: true, used: w.seen - w.unused };
    }
    if (w.full) return { admitted: false, used: Math.max(w.seen, cap) - w.unused };
    return null;
  }

  private async takeReserving(subject: string, hour: number, cap: number): Promise<QuotaTake> {
    const w = this.window(subject, hour, cap);
    for (;;) {
      if (w.unused > 0) {
        w.unused -= 1;
        return { admitted: true, used: w.seen - w.unused };
      }
      if (w.full) return { admitted: false, used: Math.max(w.seen, cap) - w.unused };
      w.pending ??= this.reserve(subject, w).finally(() => {
        w.pending = null;
      });
      await w.pending;
    }
  }

  /** Gives one admitted request back (a 304 costs nothing): it returns to this process's block. */
  giveBack(subject: string, hour: number): number | null {
    const w = this.windows.get(subject);
    if (!w || w.hour !== hour) return null;
    w.unused += 1;
    w.full = false;
    return w.seen - w.unused;
  }

  /** Requests counted in the window as this process knows it. */
  used(subject: string, hour: number): number | null {
    const w = this.windows.get(subject);
    return w && w.hour === hour ? w.seen - w.unused : null;
  }

  private window(subject: string, hour: number, cap: number): Window {
    let w = this.windows.get(subject);
    if (!w || w.hour !== hour || w.cap !== cap) {
      if (this.windows.size >= 100_000) this.prune(hour);
      w = { hour, cap, unused: 0, seen: 0, block: 1, full: false, pending: null };
      this.windows.set(subject, w);
    }
    return w;
  }

  private async reserve(subject: string, w: Window): Promise<void> {
    const got = await this.repo.reserve(subject, w.hour, w.block, w.cap);
    if (got === null) {
      w.full = true;
      w.seen = Math.max(w.seen, w.cap);
      return;
    }
    w.unused += got.granted;
    w.seen = got.n;
    w.block = Math.min(w.block * 2, maxBlock(w.cap));
  }

  private prune(hour: number): void {
    for (const [subject, w] of this.windows) if (w.hour < hour) this.windows.delete(subject);
  }
}
