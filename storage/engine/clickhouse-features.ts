/** What a ClickHouse server of a given version can do that Svc would use. */
export interface ClickHouseFeatures {
  /** `{name:Type}` placeholders sent as query parameters (19.x; 18.16: "Unknown setting param_x"). */
  readonly queryParams: boolean;
  /** TTL on tables and columns (19.6; 18.16: syntax error). Retention uses DROP PARTITION everywhere. */
  readonly ttl: boolean;
  /** `insert_deduplication_token` for retried inserts (22.2). Writes are idempotent without it. */
  readonly insertDedupToken: boolean;
}

export interface ServerVersion {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
}

/** "18.16.1" or "23.8.2.7" → { major, minor, patch }; throws on anything else. */
export function parseServerVersion(text: string): ServerVersion {
  const m = /^(\d+)\.(\d+)(?:\.(\d+))?/.exec(text.trim());
  if (!m) throw new Error(`not a ClickHouse version: ${JSON.stringify(text)}`);
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3] ?? 0) };
}

// The thresholds are the first releases known to have the feature, rounded up: a flag that is off
// only costs the portable path (escaped literals), a flag wrongly on would break queries.
export function serverFeatures(version: ServerVersion): ClickHouseFeatures {
  const atLeast = (major: number, minor: number) => version.major > major || (version.major === major && version.minor >= minor);
  return {
    queryParams: atLeast(19, 15),
    ttl: atLeast(19, 6),
    insertDedupToken: atLeast(22, 2),
  };
}
