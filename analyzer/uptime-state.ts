/**
 * The uptime state machine of one monitored host: a failed probe is only a suspicion until a
 * second probe confirms it; a confirmed down ends after consecutive successes; a run of slow
 * answers is "degraded". Pure: the scheduler applies it to each probe result in order.
 */

export type UptimeState = "unknown" | "up" | "suspect" | "down" | "degraded";

export interface UptimeTarget {
  readonly state: UptimeState;
  readonly since: number | null;
  readonly suspectAt: number | null;
  readonly fails: number;
  readonly successes: number;
  readonly slow: number;
  /** While down: when the first of the consecutive successes came (the down ends there once confirmed). */
  readonly recoveringAt: number | null;
}

export interface ProbeFacts {
  readonly ok: boolean;
  /** Unix seconds the probe ran. */
  readonly at: number;
  readonly totalMs: number;
  /** A confirmation probe (planned after a failure). */
  readonly confirm: boolean;
  /** A failure of a node that suspected itself: not evidence about the site. */
  readonly held: boolean;
  readonly cause: string;
}

export interface UptimeRules {
  /** An answer slower than this counts as slow. */
  readonly slowMs: number;
  /** Consecutive slow answers that make a site degraded. */
  readonly slowCount: number;
  /** Consecutive successes that end a down (or degraded) state. */
  readonly upAfter: number;
}

export const DEFAULT_UPTIME_RULES: UptimeRules = Object.freeze({ slowMs: 3000, slowCount: 3, upAfter: 2 });

export type UptimeTransition = "down" | "up" | "degraded" | "recovered";

export interface UptimeDecision {
  readonly target: UptimeTarget;
  /** Plan a confirmation probe now. */
  readonly confirm: boolean;
  /** What changed for people: an incident opens (down, degraded) or closes (up, recovered). */
  readonly transition: UptimeTransition | null;
  /**
   * When the transition's state began: a down with the failure that raised the suspicion, an up
   * with the first of the successes that confirmed it (the site answered again from then on).
   */
  readonly at: number;
}

/** The next state of a host after one probe result. */
export function nextUptimeState(t: UptimeTarget, p: ProbeFacts, rules: UptimeRules = DEFAULT_UPTIME_RULES): UptimeDecision {
  const same = (target: UptimeTarget): UptimeDecision => ({ target, confirm: false, transition: null, at: p.at });
  if (!p.ok && p.held) return same(t);
  if (!p.ok) {
    switch (t.state) {
      case "down":
        return same({ ...t, fails: t.fails + 1, successes: 0, recoveringAt: null });
      case "suspect":
        // The confirmation (or the next slot) failed too: the site is down since the first failure.
        return { target: { ...t, state: "down", since: t.suspectAt ?? p.at, fails: t.fails + 1, successes: 0, slow: 0 }, confirm: false, transition: "down", at: t.suspectAt ?? p.at };
      default:
        return { target: { ...t, state: "suspect", suspectAt: p.at, fails: 1, successes: 0 }, confirm: true, transition: null, at: p.at };
    }
  }
  const slow = p.totalMs > rules.slowMs ? t.slow + 1 : 0;
  switch (t.state) {
    case "down": {
      const successes = t.successes + 1;
      const recoveringAt = successes === 1 ? p.at : (t.recoveringAt ?? p.at);
      if (successes < rules.upAfter) return same({ ...t, successes, slow, recoveringAt });
      // Up since the first of the successes: the later ones only confirmed it.
      return { target: { ...t, state: "up", since: recoveringAt, suspectAt: null, fails: 0, successes, slow, recoveringAt: null }, confirm: false, transition: "up", at: recoveringAt };
    }
    case "degraded": {
      const successes = slow === 0 ? t.successes + 1 : 0;
      if (successes < rules.upAfter) return same({ ...t, successes, slow, fails: 0 });
      return { target: { ...t, state: "up", since: p.at, fails: 0, successes, slow }, confirm: false, transition: "recovered", at: p.at };
    }
    case "suspect":
      // The failure was a blip: back to up, its since unchanged, no incident.
      return same({ ...t, state: "up", since: t.since ?? p.at, suspectAt: null, fails: 0, successes: 1, slow });
    default: {
      const since = t.state === "up" ? t.since : p.at;
      if (slow >= rules.slowCount) {
        return { target: { ...t, state: "degraded", since: p.at, fails: 0, successes: 0, slow }, confirm: false, transition: "degraded", at: p.at };
      }
      return same({ ...t, state: "up", since, suspectAt: null, fails: 0, successes: t.successes + 1, slow });
    }
  }
}

/** Uptime of a window as a percentage of the time observed in it (null when nothing was observed). */
export function uptimePercent(downSeconds: number, observedSeconds: number): number | null {
  if (observedSeconds <= 0) return null;
  const share = 1 - Math.min(downSeconds, observedSeconds) / observedSeconds;
  return Math.round(share * 100_000) / 1000;
}
