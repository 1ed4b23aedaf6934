// Crawler traps: URL shapes that generate new URLs without end (calendars, session ids, parameter
// permutations, path loops). A whole-site crawl refuses them rather than spending its page budget.

/** The trap rules' bounds (CrawlLimits carries them, documented there). */
export interface TrapLimits {
  readonly maxPerPattern: number;
  readonly maxUrlLength: number;
  readonly maxQueryParameters: number;
  readonly maxSegmentRepeats: number;
}

/** Query parameters that carry a session id (a new URL per visit). */
const SESSION_PARAMETERS: ReadonlySet<string> = new Set(["sid", "sessionid", "session_id", "session", "phpsessid", "jsessionid", "sessid", "aspsessionid", "cfid", "cftoken", "zenid", "osc_sid"]);

/**
 * The trap a URL falls into, as a pattern the report shows, or null. `patterns` counts the URLs
 * seen per URL family across the crawl; this call counts `url` in.
 */
export function trapOf(url: URL, limits: TrapLimits, patterns: Map<string, number>): string | null {
  if (url.href.length > limits.maxUrlLength) return "long URL";
  const names = [...url.searchParams.keys()];
  if (names.length > limits.maxQueryParameters) return "too many parameters";
  if (new Set(names).size < names.length) return "repeated parameter";
  const segments = url.pathname.split("/").filter(Boolean);
  const counts = new Map<string, number>();
  for (const s of segments) counts.set(s, (counts.get(s) ?? 0) + 1);
  if ([...counts.values()].some((n) => n >= limits.maxSegmentRepeats)) return "repeated path segment";
  // Session ids make every visit a new URL: counted site-wide, by parameter.
  const session = names.find((n) => SESSION_PARAMETERS.has(n.toLowerCase()));
  if (session !== undefined) {
    const key = `session:${session.toLowerCase()}`;
    const n = (patterns.get(key) ?? 0) + 1;
    patterns.set(key, n);
    if (n > limits.maxPerPattern) return `more than ${limits.maxPerPattern} URLs with the session parameter ${session}`;
  }
  // Generated families: numbered paths (/calendar/2026/11) and parameter variations of one path.
  const numeric = segments.filter((s) => /^\d+$/.test(s)).length;
  if (numeric >= 2 || names.length > 0) {
    const key = `${segments.map((s) => (/^\d+$/.test(s) ? "N" : s)).join("/")}?${[...names].sort().join("&")}`;
    const n = (patterns.get(key) ?? 0) + 1;
    patterns.set(key, n);
    if (n > limits.maxPerPattern) return `more than ${limits.maxPerPattern} URLs of /${key}`;
  }
  return null;
}
