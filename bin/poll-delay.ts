/**
 * How long a client waits before asking about a job again: poll_after_s, or a tenth of the time it
 * has followed the job already when that is longer, at most a minute. A 6-minute crawl then costs
 * about 38 requests instead of 120 at a flat 3 s (a key's default hourly limit is 120), and a job
 * of an hour about 93; a short job is still seen within poll_after_s of finishing.
 */
export function pollDelayMs(pollAfterS: number | null, followedMs: number): number {
  const base = Math.max(1, pollAfterS ?? 3) * 1000;
  return Math.max(base, Math.min(60_000, Math.round(followedMs / 10)));
}
