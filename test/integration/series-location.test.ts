import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../../bin/compose.ts";
import { ConfigError, Lifecycle, loadConfig, systemClock } from "../../runtime/index.ts";
import { seriesLocationOf } from "../../storage/index.ts";
import { tempDataDir } from "../harness/svc-process.ts";

// Where the time series live is recorded when the store is first set up; a process configured
// otherwise refuses to start, naming the variable, rather than serving empty pages beside full
// summaries (issue 20 §8: a gateway started without SVC_CLICKHOUSE_URL in a ClickHouse cluster).
// The store here is PGlite on a data directory; no ClickHouse is needed, as the refusal comes first.

let dir: { dir: string; remove(): Promise<void> };
beforeAll(async () => {
  dir = await tempDataDir();
});
afterAll(() => dir?.remove());

async function open(env: Record<string, string>): Promise<string> {
  const life = new Lifecycle();
  try {
    await openStore(loadConfig({ SVC_DATA_DIR: dir.dir, ...env }, "serve"), systemClock, life);
    return "opened";
  } catch (err) {
    if (err instanceof ConfigError) return err.problems.join("\n");
    throw err;
  } finally {
    await life.close();
  }
}

describe("the time series' location, recorded at set-up", () => {
  it("names the database of SVC_CLICKHOUSE_URL", () => {
    expect([seriesLocationOf(null), seriesLocationOf("http://ch:8123/svc_series"), seriesLocationOf("https://u:p@ch:8443")]).toEqual(["postgres", "clickhouse/svc_series", "clickhouse/default"]);
  });

  it("refuses a process without SVC_CLICKHOUSE_URL on a store whose series live in ClickHouse, naming the variable", async () => {
    // The first process of the store names ClickHouse (none answers here: it records, then fails to connect).
    await expect(open({ SVC_CLICKHOUSE_URL: "http://127.0.0.1:9/svc_series" })).rejects.toThrow("ClickHouse at http://127.0.0.1:9/svc_series did not answer");
    // A gateway started as the docs showed, without SVC_CLICKHOUSE_URL.
    expect(await open({})).toBe(
      "SVC_CLICKHOUSE_URL: this store's time series live in ClickHouse, database svc_series, recorded when the store was set up, " +
        "but this process is configured for them in the account database (no SVC_CLICKHOUSE_URL); set SVC_CLICKHOUSE_URL as the other roles have it " +
        "(every gateway and scheduler of one store must agree)",
    );
  });
});
