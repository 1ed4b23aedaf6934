import type { UsageDelta, UsageSeries } from "../../storage/index.ts";

/**
 * Per-key, per-day request counts, kept in memory and flushed to the time-series port at least
 * every flush interval. A crash loses at most one interval of counts (documented).
 */
export class UsageMeter {
  private pending = new Map<string, { keyId: number; day: string; calls: number; errors: number; limited: number }>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  /** The UTC day of the last request, as a day number and as text (one date formatted per day, not per request). */
  private dayNumber = -1;
  private dayText = "";

  constructor(private readonly series: UsageSeries) {}

  record(keyId: number, nowMs: number, outcome: "ok" | "error" | "limited"): void {
    const dayNumber = Math.floor(nowMs / 86_400_000);
    if (dayNumber !== this.dayNumber) {
      this.dayNumber = dayNumber;
      this.dayText = new Date(nowMs).toISOString().slice(0, 10);
    }
    const day = this.dayText;
    const id = `${keyId}|${day}`;
    let row = this.pending.get(id);
    if (!row) {
      row = { keyId, day, calls: 0, errors: 0, limited: 0 };
      this.pending.set(id, row);
    }
    row.calls += 1;
    if (outcome === "error") row.errors += 1;
    if (outcome === "limited") row.limited += 1;
  }

  /** Writes what is pending; on failure the counts are kept for the next flush. */
  flush(): Promise<void> {
    // A failed flush must not poison the chain: its counts are back in pending for this one.
    this.flushing = this.flushing.catch(() => undefined).then(async () => {
      if (this.pending.size === 0) return;
      const batch = this.pending;
      this.pending = new Map();
      const deltas: UsageDelta[] = [...batch.values()];
      try {
        await this.series.add(deltas);
      } catch (err) {
        for (const d of deltas) {
          const id = `${d.keyId}|${d.day}`;
          const row = this.pending.get(id);
          if (row) {
            row.calls += d.calls;
            row.errors += d.errors;
            row.limited += d.limited;
          } else this.pending.set(id, { ...d });
        }
        throw err;
      }
    });
    return this.flushing;
  }

  start(everyMs: number): void {
    this.timer ??= setInterval(() => void this.flush().catch(() => undefined), everyMs);
    this.timer.unref();
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
  }
}
