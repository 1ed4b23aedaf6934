import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../bin/cli.ts";
import { CONTRACTS } from "../../gateway/contracts/index.ts";
import { keyPrefix } from "../../gateway/index.ts";
import { startTestGateway, type TestGateway } from "../harness/gateway.ts";
import { startSmallSite, type SmallSite } from "../harness/sites/small-site.ts";

// The CLI's answers as a person reads them, one command per operation group (the contracts'
// tags): each runs through the CLI's own code (runCli, what `svc` runs for a client command)
// against a listening gateway whose clock stands at 2026-11-22 10:00 UTC, after one analysis of a
// small loopback site, and its text is checked line by line where the lines are known. Figures
// that depend on the machine's speed (time to first byte, and the tasks it may add) are not pinned.

let gw: TestGateway;
let site: SmallSite;
let host: string;
let env: NodeJS.ProcessEnv;
const T = "2026-11-22 10:00:00Z";

beforeAll(async () => {
  site = await startSmallSite();
  host = site.host;
  gw = await startTestGateway({ env: { SVC_ALLOW_PRIVATE_TARGETS: "1", SVC_PAGE_SAMPLE: "1", SVC_CRAWL_MIN_DELAY_MS: "0", SVC_FETCH_TIMEOUT_MS: "3000" } });
  await gw.app.listen({ host: "127.0.0.1", port: 0 });
  env = { SVC_API_URL: `http://127.0.0.1:${(gw.app.server.address() as { port: number }).port}`, SVC_API_KEY: gw.ownerKey, SVC_CONFIG: "/nonexistent/svc.json" };
  expect((await svc("sites", "add", host, "--interval", "12")).out).toBe(`host: ${host}\nadded: true\ninterval_h: 12\n`);
}, 180_000);
afterAll(async () => {
  await gw?.close();
  await site?.close();
});

async function svc(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await runCli(argv, env, { out: (t) => void (out += t), err: (t) => void (err += t) });
  return { code, out, err };
}

/** The command's lines, after checking that it succeeded quietly. */
async function lines(...argv: string[]): Promise<string[]> {
  const r = await svc(...argv);
  expect(r.err, argv.join(" ")).toBe("");
  expect(r.code, argv.join(" ")).toBe(0);
  expect(r.out.endsWith("\n")).toBe(true);
  return r.out.slice(0, -1).split("\n");
}

/** A table row's cells (columns are two or more spaces apart). */
const cells = (line: string | undefined) => (line ?? "").trim().split(/\s{2,}/);

const tested = new Set<string>();
function group(tag: string, command: string) {
  tested.add(tag);
  return `${tag}: svc ${command}`;
}

describe("the CLI's text, one command per operation group", () => {
  it(group("Checks", "analyze <host>"), async () => {
    const out = await lines("analyze", host);
    expect(out.slice(0, 9)).toEqual([`host: ${host}`, `checked_at: ${T}`, "phase: done", "run: 1", "rank:", "  value: 49", "  label: poor", "  color: #f4511e", "  groups:"]);
    expect(cells(out[9])).toEqual(["ID", "SCORE", "CHECKS", "WEIGHT"]);
    expect(out.filter((l) => l.startsWith("    49   https_available"))).toEqual(["    49   https_available  Site is available over HTTPS"]);
    const header = out.find((l) => l.startsWith("CODE "));
    expect(cells(header)).toEqual(["CODE", "GAIN", "GROUP", "LEVEL", "PAGES", "SCORE", "TITLE", "VALUE", "DETAIL", "STATUS", "WEIGHT", "RANK_GROUP"]);
    expect(cells(out.find((l) => l.startsWith("robots_txt_fetch ")))).toEqual(["robots_txt_fetch", "0", "indexing", "bad", "[]", "1", "robots.txt can be fetched", "200", "robots.txt answers 200", "pass", "6", "indexing"]);
  }, 60_000);

  it(group("Service", "me"), async () => {
    expect(await lines("me")).toEqual([
      "user: id=1 email=owner@example.com",
      "key:",
      "  id: 1",
      "  name: first key",
      `  prefix: ${keyPrefix(gw.ownerKey)}`,
      "  scopes: read, run, write",
      "  expires: -",
      "  allowed_ips: (none)",
      `  created: ${T}`,
      expect.stringMatching(/^rate: limit_per_hour=120 used_this_hour=\d+ keys=1 keys_per_hour=120$/),
      "plan:",
      "  name: default",
      "  sites: 50",
      "  checks_per_day: 200",
      "  rechecks_per_day: 100",
      "  webhooks: 10",
      "  api_keys: 10",
      "  key_rate_per_hour: 10000",
    ]);
  });

  it(group("Keys", "keys list"), async () => {
    const out = await lines("keys", "list");
    expect(out).toHaveLength(4);
    expect(out.slice(0, 2)).toEqual(["page: limit=50 offset=0 total=1 next_offset=-", ""]);
    expect(cells(out[2])).toEqual(["ID", "NAME", "KIND", "PREFIX", "SCOPES", "EXPIRES", "ALLOWED_IPS", "RATE_LIMIT_PER_HOUR", "CREATED", "REVOKED", "OAUTH"]);
    expect(cells(out[3])).toEqual(["1", "first key", "api", keyPrefix(gw.ownerKey), '["read","run","write"]', "-", "[]", "120", T, "-", "-"]);
  });

  it(group("Sites", "sites list"), async () => {
    const out = await lines("sites", "list");
    expect(out).toHaveLength(4);
    expect(out.slice(0, 2)).toEqual(["page: limit=50 offset=0 total=1 next_offset=-", ""]);
    expect(cells(out[2])).toEqual(["HOST", "ADDED", "INTERVAL_H", "RANK", "PREV_RANK", "LABEL", "LAST_RUN", "IMPORTANCE", "PROJECT"]);
    expect(cells(out[3])).toEqual([host, T, "12", "49", "-", "poor", T, "normal", "-"]);
  });

  it(group("Jobs", "jobs list"), async () => {
    const out = await lines("jobs", "list");
    expect(out.slice(0, 2)).toEqual(["page: limit=50 offset=0 total=1 next_offset=-", ""]);
    expect(cells(out[2])).toEqual(["ID", "KIND", "HOST", "STATE", "PROGRESS", "ITEMS", "CREATED", "AGE_S", "POLL_AFTER_S", "RESULT", "ERROR", "SELF"]);
    const row = cells(out[3]);
    expect([...row.slice(0, 5), ...row.slice(6, 9), ...row.slice(10)]).toEqual(["1", "analyze", host, "done", "100", T, "0", "-", "-", "/api/v1/jobs/1"]);
    // Nested JSON in a cell is cut at 48 characters, marked with an ellipsis.
    expect(row[5]).toBe(`[{"host":"${host}","state":"done","progress":100}]`.slice(0, 47) + "…");
  });

  it(group("Site data", "site <host>"), async () => {
    const out = await lines("site", host);
    expect(out.slice(0, 5)).toEqual([`host: ${host}`, `checked_at: ${T}`, "rank:", "  value: 49", "  label: poor"]);
    expect(out).toContain("search: -");
    expect(out.find((l) => l.startsWith("stats: "))).toMatch(new RegExp(`^stats: runs=1 first_checked=${T} checks=\\d+ failing=\\d+ pages_checked=2$`));
    expect(out.slice(out.indexOf("uptime:"), out.indexOf("uptime:") + 4)).toEqual(["uptime:", "  up: -", "  state: unknown", "  since: -"]);
    const watched = out.indexOf("watched_pages:");
    expect(cells(out[watched + 1])).toEqual(["URL", "STATUS", "TITLE", "CHECKED_AT", "CHANGED_AT"]);
    expect(cells(out[watched + 2])).toEqual([`http://${host}/`, "200", "Small site home page for tests", T, "-"]);
  });

  it(group("Tasks", "tasks list <host>"), async () => {
    const out = await lines("tasks", "list", host);
    expect(out.slice(0, 2)).toEqual([`host: ${host}`, ""]);
    expect(cells(out[2])).toEqual(["ID", "HOST", "CODE", "TITLE", "LEVEL", "STATUS", "SOURCE", "GROUP", "IMPACT", "IMPACT_UNCAPPED", "HINT", "DETAIL", "EFFORT", "FIRST_SEEN", "LAST_SEEN", "RECHECK"]);
    const https = cells(out.find((l) => cells(l)[2] === "https_available"));
    // The impact (rank points) shares the cap with what the speed checks found on this machine: a number, not pinned.
    expect([...https.slice(0, 8), ...https.slice(12)]).toEqual(["1", host, "https_available", "Site is available over HTTPS", "bad", "open", "report", "security", "1", T, T, "true"]);
    expect(https[8]).toMatch(/^\d+$/);
    // The gain with the rank's caps lifted, to one decimal (tasks' impact_uncapped).
    expect(https[9]).toMatch(/^\d+(\.\d)?$/);
  });

  it(group("Reference", "explain list --limit 3"), async () => {
    const out = await lines("explain", "list", "--limit", "3");
    expect(out[0]).toMatch(/^page: limit=3 offset=0 total=\d+ next_offset=3$/);
    expect(out.slice(1)).toEqual(["", "CODE               HAS_HINT  HAS_GUIDE", "robots_txt_fetch   true      true", "robots_txt_syntax  true      true", "robots_blocks_all  true      true"]);
  });

  it(group("Monitoring", "uptime <host>"), async () => {
    expect(await lines("uptime", host)).toEqual([
      `host: ${host}`,
      "up: -",
      "state: unknown",
      "since: -",
      "interval_min: 5",
      "last_check: -",
      "last_status: -",
      "uptime_24h: -",
      "uptime_7d: -",
      "uptime_30d: -",
      "last_timings: -",
      "probes:",
      "  last_24h: probes=0 failed=0 avg_total_ms=-",
      "  last_7d: probes=0 failed=0 avg_total_ms=-",
      "incidents: (none)",
    ]);
  });

  it(group("Events", "events --limit 1"), async () => {
    const out = await lines("events", "--limit", "1");
    expect(out[0]).toMatch(/^total: \d+$/);
    expect(cells(out[3])).toEqual(["ID", "TYPE", "KIND", "LEVEL", "HOST", "TEXT", "CREATED", "DATA"]);
    expect(cells(out[4]).slice(1, 7)).toEqual(["events", "analysis.done", "good", host, `Analysis of ${host} done: rank 49`, T]);
  });

  it(group("Webhooks", "webhooks list"), async () => {
    expect(await lines("webhooks", "list")).toEqual(["page: limit=50 offset=0 total=0 next_offset=-", "", "(no webhooks)"]);
  });

  it(group("Search and links", "social <host>"), async () => {
    const out = await lines("social", host);
    expect(out.slice(0, 6)).toEqual([`host: ${host}`, `checked_at: ${T}`, "profiles: (none)", "card_score: 17", "pages: 2", "checks:"]);
    expect(cells(out[6])).toEqual(["CODE", "GROUP", "TITLE", "VALUE", "STATUS"]);
    expect(cells(out[7])).toEqual(["social_profiles", "social", "The site links its profiles on social networks", "0", "warn"]);
    expect(cells(out[8])).toEqual(["og_required", "social", "Pages carry the required Open Graph properties", "2/2", "pass"]);
  });

  it(group("Search data", "providers"), async () => {
    expect(await lines("providers")).toEqual([
      "data_states: fresh, stale, expired, partial, missing, error",
      "slo_days: gsc=4 gsc_indexing=14 yandex_webmaster=3 topvisor=2 keysso=35 ahrefs=35 semrush=35",
      "slo_target: 0.95",
      "providers: (none)",
    ]);
  });

  it(group("Utilities", "util hash hello --algorithms md5,crc32"), async () => {
    expect(await lines("util", "hash", "hello", "--algorithms", "md5,crc32")).toEqual([
      "blocks:",
      "  Bytes  5",
      "",
      "  Hashes:",
      "    ALGORITHM  VALUE",
      "    md5        5d41402abc4b2a76b9719d911017c592",
      "    crc32      3610a686",
      "",
      "  (html):",
      '    <script src="…" integrity="sha384-WeF0h3dEjGnea4ANejO7+5/xtGPkQ1TDVTvNucZm+pASWjx5+QOXvfX2oT3oKGhP" crossorigin="anonymous"></script>',
      "warnings: (none)",
    ]);
  });

  it(group("Diagnosis", "diagnosis list"), async () => {
    const out = await lines("diagnosis", "list");
    expect(out.map(cells)).toEqual([
      ["HOST", "LEVEL", "HEALTH", "ROOT_CAUSE", "RANK", "CHECKED_AT", "COMPLETENESS"],
      [host, "bad", "49", "-", "49", T, "50"],
    ]);
  });

  it(group("Summaries", "today"), async () => {
    const out = await lines("today");
    expect(out.slice(0, 4)).toEqual(["kpi:", "  sites: 1", "  checked: 1", "  avg_health: 49"]);
    const actions = out.indexOf("actions:");
    expect(cells(out[actions + 1])).toEqual(["HOST", "ORDER", "TASK_ID", "CODE", "TITLE", "LEVEL", "GAIN", "EFFORT", "TIME_MIN", "CAUSE"]);
    const first = cells(out[actions + 2]);
    expect([...first.slice(0, 6), ...first.slice(7)]).toEqual([host, "1", "1", "https_available", "Site is available over HTTPS", "bad", "1", "30", "-"]);
    expect(first[6]).toMatch(/^\d+$/);
  });

  it("covers every operation group", () => {
    expect([...new Set(CONTRACTS.flatMap((c) => c.tags))].filter((t) => !tested.has(t))).toEqual([]);
  });
});
