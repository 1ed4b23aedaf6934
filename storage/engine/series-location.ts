import type { Db } from "./db.ts";

/** Where a store's time series (usage, per-check results, crawl pages) live: "postgres", or "clickhouse/<database>". */
export type SeriesLocation = string;

const FACT = "series_location";

/** The location a configuration names: SVC_CLICKHOUSE_URL's database (its path, "default" without one), or the account database. */
export function seriesLocationOf(clickhouseUrl: string | null): SeriesLocation {
  if (!clickhouseUrl) return "postgres";
  let database = "default";
  try {
    database = decodeURIComponent(new URL(clickhouseUrl).pathname.replace(/^\/+|\/+$/g, "")) || "default";
  } catch {
    // config validated the URL; keep the default
  }
  return `clickhouse/${database}`;
}

function describe(location: SeriesLocation): string {
  return location === "postgres" ? "in the account database (no SVC_CLICKHOUSE_URL)" : `in ClickHouse, database ${location.slice("clickhouse/".length)}`;
}

/** A process configured for time series elsewhere than where the store keeps them. */
export class SeriesLocationError extends Error {
  constructor(
    readonly recorded: SeriesLocation,
    readonly configured: SeriesLocation,
  ) {
    super(
      `SVC_CLICKHOUSE_URL: this store's time series live ${describe(recorded)}, recorded when the store was set up, ` +
        `but this process is configured for them ${describe(configured)}; ` +
        (recorded === "postgres" ? "remove SVC_CLICKHOUSE_URL" : "set SVC_CLICKHOUSE_URL as the other roles have it") +
        " (every gateway and scheduler of one store must agree)",
    );
    this.name = "SeriesLocationError";
  }
}

/**
 * Records where the time series live when the store is first set up, and refuses a later process
 * whose configuration disagrees (SeriesLocationError): a gateway started without SVC_CLICKHOUSE_URL
 * beside schedulers writing to ClickHouse would otherwise answer empty pages beside full summaries.
 * Returns the recorded location.
 */
export async function checkSeriesLocation(db: Db, configured: SeriesLocation, nowSeconds: number): Promise<SeriesLocation> {
  const recorded = await db.tx(async (q) => {
    await q.query("INSERT INTO store_facts (name, value, recorded) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING", [FACT, configured, nowSeconds]);
    const [row] = await q.query<{ value: string }>("SELECT value FROM store_facts WHERE name = $1", [FACT]);
    return (row as { value: string }).value;
  });
  if (recorded !== configured) throw new SeriesLocationError(recorded, configured);
  return recorded;
}
