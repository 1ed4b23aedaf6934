/** Time as a port: production reads the system clock, tests inject their own. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  nowMs(): number;
}

export const systemClock: Clock = { nowMs: () => Date.now() };

/** Unix seconds of a clock, the unit of every timestamp in the API. */
export function unixSeconds(clock: Clock): number {
  return Math.floor(clock.nowMs() / 1000);
}

/** A clock tests move by hand. */
export class ManualClock implements Clock {
  constructor(private ms: number) {}
  nowMs(): number {
    return this.ms;
  }
  advance(ms: number): void {
    this.ms += ms;
  }
  set(ms: number): void {
    this.ms = ms;
  }
}
