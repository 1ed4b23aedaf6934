/**
 * A node's view of its own probes: when most of its recent probes failed at once across many
 * domains, it is more likely that the node's resolver or network died than that all those sites
 * did. Then the node suspects itself: its failures are reported as held, not as outages.
 */
export class ProbeHealth {
  private readonly recent: { atMs: number; failed: boolean; domain: string }[] = [];

  constructor(
    private readonly windowMs = 60_000,
    /** Probes in the window before the node judges itself at all. */
    private readonly minProbes = 20,
    /** Distinct domains among the failures: one dead hosting provider is not the node's fault. */
    private readonly minDomains = 5,
    private readonly failShare = 0.8,
  ) {}

  record(atMs: number, failed: boolean, domain: string): void {
    this.recent.push({ atMs, failed, domain });
    this.trim(atMs);
  }

  /** Whether the node suspects itself now. */
  suspect(nowMs: number): boolean {
    this.trim(nowMs);
    if (this.recent.length < this.minProbes) return false;
    let failed = 0;
    const domains = new Set<string>();
    for (const r of this.recent) {
      if (!r.failed) continue;
      failed += 1;
      domains.add(r.domain);
    }
    return failed / this.recent.length >= this.failShare && domains.size >= this.minDomains;
  }

  private trim(nowMs: number): void {
    let drop = 0;
    while (drop < this.recent.length && this.recent[drop]!.atMs < nowMs - this.windowMs) drop += 1;
    if (drop > 0) this.recent.splice(0, drop);
  }
}
