import type { CheckRow, Store } from "../storage/index.ts";

const CURSOR = "check_results";
const BATCH = 200;

/**
 * Follows the runs table into the per-check time series (ClickHouse in the distributed mode,
 * Postgres tables in the embedded one). A run is written after its transaction committed, from a
 * cursor that moves only once the write succeeded: a crash in between writes the run again, which
 * the series absorbs (it keeps one row per run and check). Returns the rows written.
 */
export async function syncCheckSeries(store: Store): Promise<number> {
  let written = 0;
  for (;;) {
    const from = await store.runs.cursor(CURSOR);
    const runs = await store.runs.after(from, BATCH);
    if (runs.length === 0) return written;
    const rows: CheckRow[] = [];
    for (const run of runs) {
      const report = run.report;
      for (const item of report.items ?? []) {
        rows.push({
          runId: run.id,
          jobId: run.job_id ?? run.id,
          attempt: run.attempt,
          host: run.host,
          checkedAt: run.checked_at,
          code: item.code,
          status: item.status,
          value: item.value === null ? null : String(item.value),
          group: item.group,
        });
      }
      rows.push(...browserRows(run));
    }
    await store.checks.write(rows);
    await store.runs.advanceCursor(CURSOR, (runs[runs.length - 1] as { id: number }).id);
    written += rows.length;
  }
}

/** The browser's metrics of a run, one series per page, profile and metric: code browser:<device>:<metric>:<path>. */
const BROWSER_SERIES = ["score", "lcp_ms", "cls", "inp_ms", "tbt_ms", "fcp_ms", "ttfb_ms"] as const;

function browserRows(run: Awaited<ReturnType<Store["runs"]["after"]>>[number]): CheckRow[] {
  const rows: CheckRow[] = [];
  for (const page of run.report.browser?.pages ?? []) {
    if (page.error) continue;
    let path: string;
    try {
      const url = new URL(page.url);
      path = `${url.pathname}${url.search}`;
    } catch {
      continue;
    }
    for (const metric of BROWSER_SERIES) {
      const value = page[metric];
      if (value === null) continue;
      rows.push({ runId: run.id, jobId: run.job_id ?? run.id, attempt: run.attempt, host: run.host, checkedAt: run.checked_at, code: `browser:${page.device}:${metric}:${path}`, status: "measured", value: String(value), group: "browser" });
    }
  }
  return rows;
}
