import type { Planner, PlannerContext } from "./planner.ts";
import { unavailableEngine } from "../../storage/index.ts";

/** The name of the lease the planners run under. */
export const PLANNERS_LEADERSHIP = "planners";

/**
 * Runs the planners on the one scheduler that holds the planners' leadership: every tick it takes
 * or renews the lease, then runs each planner whose interval has passed (one pass of a planner at a
 * time). A scheduler that loses the lease stops planning at its next tick; close() gives it up so
 * another scheduler takes over at once.
 */
export class PlannerRunner {
  private timer: NodeJS.Timeout | null = null;
  private leading = false;
  private readonly nextAt = new Map<string, number>();
  private readonly busy = new Set<string>();
  private readonly passes = new Set<Promise<void>>();
  private ticking: Promise<void> | null = null;
  /** Planners woken (Planner.watch) since their last pass: they run at the next tick, due or not. */
  private readonly woken = new Set<string>();
  private watching: Promise<{ close(): Promise<void> }[]> | null = null;
  /** When this scheduler last took or renewed the leadership (the injected clock's ms). */
  private renewedAt = -Infinity;

  constructor(
    private readonly planners: readonly Planner[],
    private readonly ctx: PlannerContext,
    private readonly holder: string,
    private readonly tickMs = 500,
  ) {}

  /** Whether this scheduler leads the planners now. */
  get isLeader(): boolean {
    return this.leading;
  }

  start(): void {
    if (this.timer) return;
    void this.watch();
    this.timer = setInterval(() => {
      this.ticking ??= this.tick().finally(() => (this.ticking = null));
    }, this.tickMs);
    this.timer.unref();
  }

  /**
   * Subscribes the planners that can be woken (Planner.watch); resolves once they listen. Every
   * scheduler listens, leader or not, so that a wake-up before a takeover is not lost. A
   * subscription that cannot be made leaves that planner to its interval. Called by start().
   */
  async watch(): Promise<void> {
    this.watching ??= Promise.all(
      this.planners.map(async (planner) => {
        if (!planner.watch) return { close: async () => undefined };
        try {
          return await planner.watch(this.ctx, () => this.woken.add(planner.name));
        } catch (err) {
          this.ctx.logger.warn({ err, planner: planner.name }, "planner wake-ups unavailable; it runs at its interval only");
          return { close: async () => undefined };
        }
      }),
    );
    await this.watching;
  }

  /** One tick: leadership, then the planners that are due or woken. */
  async tick(): Promise<void> {
    const { store, clock, config, logger } = this.ctx;
    const ttlMs = Math.max(3000, 6 * this.tickMs);
    // The leader renews a third of the way through its lease, not at every tick: a write a second
    // instead of two on an idle cluster (bench:distribution). A scheduler that does not lead asks
    // at every tick, so that it takes over as soon as the leader lets go.
    const nowMs = clock.nowMs();
    if (!this.leading || nowMs - this.renewedAt >= ttlMs / 3) {
      try {
        this.leading = await store.leaders.acquire(PLANNERS_LEADERSHIP, this.holder, nowMs, ttlMs);
        if (this.leading) this.renewedAt = nowMs;
      } catch (err) {
        this.leading = false;
        // Postgres away is logged once by the store (its outage), not at every tick.
        if (unavailableEngine(err)) logger.debug({ err }, "planner leadership unknown; not planning");
        else logger.warn({ err }, "planner leadership unknown; not planning");
        return;
      }
    }
    if (!this.leading) {
      this.nextAt.clear();
      return;
    }
    // Intervals are timer time, as setInterval's: a planner first runs one interval after this
    // scheduler starts leading, then every interval (the injected clock dates work, it does not pace it).
    const now = performance.now();
    for (const planner of this.planners) {
      const every = planner.everyMs(config);
      if (every <= 0 || this.busy.has(planner.name)) continue;
      const due = this.nextAt.get(planner.name);
      if (due === undefined) this.nextAt.set(planner.name, now + every);
      const woken = this.woken.delete(planner.name);
      if (!woken && (due === undefined || due > now)) continue;
      this.nextAt.set(planner.name, now + every);
      this.busy.add(planner.name);
      const pass = planner
        .run(this.ctx)
        .then(
          (n) => {
            if (n > 0) logger.debug({ planner: planner.name, n }, "planner pass");
          },
          (err: unknown) => logger.warn({ err, planner: planner.name }, "planner pass failed; it runs again at its next interval"),
        )
        .finally(() => {
          this.busy.delete(planner.name);
          this.passes.delete(pass);
        });
      this.passes.add(pass);
    }
  }

  /** Stops ticking, waits for passes under way, and gives the leadership up. */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.ticking;
    await Promise.allSettled([...this.passes]);
    const watches = await this.watching;
    this.watching = null;
    await Promise.allSettled((watches ?? []).map((w) => w.close()));
    if (this.leading) await this.ctx.store.leaders.release(PLANNERS_LEADERSHIP, this.holder).catch(() => undefined);
    this.leading = false;
  }
}
