import { describe, expect, it } from "vitest";
import { DIAGNOSIS_RULES, type Cause, type DiagnosisRule, type SiteEvidence } from "../../../analyzer/index.ts";
import { parseRobots } from "../../../crawler/site/robots.ts";
import { robotsLines } from "../../../analyzer/diagnosis/index.ts";
import { DAY, NOW, daily, fail, repeat, run, site } from "./diagnosis-builder.ts";

// One history built to trigger each rule and one built not to, with the exact cause expected.

const rule = (code: string): DiagnosisRule => {
  const r = DIAGNOSIS_RULES.find((x) => x.code === code);
  if (!r) throw new Error(`no rule ${code}`);
  return r;
};
const ask = (code: string, ev: SiteEvidence, internal: Cause[] = []) => rule(code).evaluate({ ev, now: NOW, internal });

// A noindex appears in the check of 2026-11-17; the index held 200 pages to 2026-11-16 and 80 from 2026-11-19;
// clicks were 100 a day to 2026-11-14 and 50 a day from 2026-11-15 to 2026-11-21 (the export's last day).
const NOINDEX = fail("noindex", "Pages are not blocked by noindex");
const blockedRuns = [run(1, 10, 85), run(2, 5, 60, [NOINDEX])];
const INDEX_DROP = [...daily("2026-11-02", repeat(200, 15)), ...daily("2026-11-19", repeat(80, 3))];
const CLICKS_DROP = [...daily("2026-10-20", repeat(100, 26)), ...daily("2026-11-15", repeat(50, 7))];

describe("the rule table", () => {
  it("has one rule per code, each naming the evidence it needs", () => {
    expect(DIAGNOSIS_RULES.map((r) => [r.code, [...r.needs], r.kind])).toEqual([
      ["site_down", ["uptime"], "internal"],
      ["index_drop_after_block", ["report", "indexing"], "internal"],
      ["certificate", ["report"], "internal"],
      ["new_critical_problems", ["report"], "internal"],
      ["performance_regression", ["browser"], "internal"],
      ["position_drop", ["positions"], "internal"],
      ["lost_backlinks", ["backlinks"], "internal"],
      ["external_traffic_drop", ["search"], "external"],
    ]);
  });
});

describe("index_drop_after_block", () => {
  it("explains a traffic fall by pages dropping out of the index after a noindex", () => {
    expect(ask("index_drop_after_block", site({ runs: blockedRuns, indexed: INDEX_DROP, clicks: CLICKS_DROP }))).toEqual({
      code: "index_drop_after_block",
      title: "Pages dropped out of the index after they were blocked",
      text: "Traffic fell 50% because pages dropped out of the index (200 → 80) after a noindex on 2026-11-17.",
      severity: "critical",
      confidence: 0.95,
      since: NOW - 5 * DAY,
      evidence: [
        { source: "report", fact: "noindex fails since the check of 2026-11-17 (Pages are not blocked by noindex)" },
        { source: "indexing", fact: "indexed pages 200 (2026-11-16) → 80 (2026-11-21), -60%" },
        { source: "search", fact: "clicks per day 100 → 50, -50%" },
      ],
      fixedBy: ["noindex"],
      action: "Lift the block (robots.txt or the noindex directive), then ask the search engines to recrawl.",
    });
  });

  it("says less, less surely, without search data", () => {
    const c = ask("index_drop_after_block", site({ runs: blockedRuns, indexed: INDEX_DROP }))!;
    expect([c.text, c.confidence, c.evidence.length]).toEqual(["Pages dropped out of the index (200 → 80) after a noindex on 2026-11-17.", 0.8, 2]);
  });

  // robots.txt as analyses stored it: the version in force, then the change of 2026-11-17.
  const BEFORE = robotsLines(parseRobots("User-agent: *\nDisallow: /cart\n# shop\nSitemap: https://a.example/sitemap.xml\n"));
  const BLOCKING = robotsLines(parseRobots("# shop, new layout\nUser-agent: *\nDisallow: /cart\nDisallow: /blog/\n\nUser-agent: GPTBot\nDisallow: /\nSitemap: https://a.example/sitemap.xml\n"));
  const versions = (lines: string[][]) => lines.map((l, i) => ({ seenAt: NOW - (i === 0 ? 30 : 5) * DAY, status: 200, lines: l }));
  const cleanRuns = [run(1, 10, 85), run(2, 5, 80)];

  it("names the robots.txt rule a change added, from the diff of the stored versions (no check needs to fail)", () => {
    expect(BLOCKING.filter((l) => !BEFORE.includes(l))).toEqual(["Disallow: / (User-agent: gptbot)", "Disallow: /blog/ (User-agent: *)"]);
    expect(ask("index_drop_after_block", site({ runs: cleanRuns, indexed: INDEX_DROP, clicks: CLICKS_DROP, robots: versions([BEFORE, BLOCKING]) }))).toEqual({
      code: "index_drop_after_block",
      title: "Pages dropped out of the index after they were blocked",
      text: 'Traffic fell 50% because pages dropped out of the index (200 → 80) after robots.txt added "Disallow: /blog/" for User-agent: * on 2026-11-17.',
      severity: "critical",
      confidence: 0.95,
      since: NOW - 5 * DAY,
      evidence: [
        { source: "report", fact: "robots.txt changed on 2026-11-17: added Disallow: /blog/ (User-agent: *)" },
        { source: "indexing", fact: "indexed pages 200 (2026-11-16) → 80 (2026-11-21), -60%" },
        { source: "search", fact: "clicks per day 100 → 50, -50%" },
      ],
      fixedBy: [],
      action: 'Remove "Disallow: /blog/" for User-agent: * from robots.txt (or add Allow rules for the pages to index), then ask the search engines to recrawl.',
    });
  });

  it("does not blame robots.txt for a change that blocks no search engine, only reorders or comments, or was undone", () => {
    const aiOnly = robotsLines(parseRobots("User-agent: *\nDisallow: /cart\nUser-agent: GPTBot\nDisallow: /\nSitemap: https://a.example/sitemap.xml\n"));
    const reordered = robotsLines(parseRobots("Sitemap: https://a.example/sitemap.xml\n# moved\nUser-agent: *\nDisallow: /cart\n"));
    expect(reordered).toEqual(BEFORE);
    for (const history of [[BEFORE, aiOnly], [BEFORE, reordered], [BEFORE, BLOCKING, BEFORE]]) {
      const robots = history.map((l, i) => ({ seenAt: NOW - (30 - 10 * i) * DAY, status: 200, lines: l }));
      expect(ask("index_drop_after_block", site({ runs: cleanRuns, indexed: INDEX_DROP, clicks: CLICKS_DROP, robots }))).toBeNull();
    }
    // The failing check alone no longer makes a robots.txt cause: the diff does.
    const failingOnly = [run(1, 10, 85), run(2, 5, 60, [fail("robots_blocks_all", "robots.txt does not block the whole site")])];
    expect(ask("index_drop_after_block", site({ runs: failingOnly, indexed: INDEX_DROP }))).toBeNull();
  });

  it("does not fire when the index held, or when nothing blocks", () => {
    expect(ask("index_drop_after_block", site({ runs: blockedRuns, indexed: daily("2026-11-02", repeat(200, 20)), clicks: CLICKS_DROP }))).toBeNull();
    expect(ask("index_drop_after_block", site({ runs: [run(1, 10, 85), run(2, 5, 84)], indexed: INDEX_DROP, clicks: CLICKS_DROP }))).toBeNull();
  });

  it("does not blame a noindex first seen at the first check for a fall that began before it", () => {
    // The audit's site: added today with a noindex already there; the index had fallen 20% the day
    // before (2026-11-21) and fell on to 55 the same day. Nothing shows the block came first.
    const first = [run(1, 0.1, 49, [NOINDEX])];
    const indexed = [...daily("2026-11-02", repeat(100, 19)), ...daily("2026-11-21", [80, 55])];
    expect(ask("index_drop_after_block", site({ runs: first, indexed }))).toBeNull();
    // The same block, and the index falling on after it was seen: the fall from the level of the day it was seen, without claiming its start.
    const later = [...daily("2026-11-02", repeat(100, 10)), ...daily("2026-11-12", repeat(100, 5)), ...daily("2026-11-17", [90, 80, 70, 60, 55])];
    const c = ask("index_drop_after_block", site({ runs: [run(1, 5, 49, [NOINDEX]), run(2, 1, 49, [NOINDEX])], indexed: later }))!;
    expect([c.text, c.evidence[1]]).toEqual([
      "Pages dropped out of the index (90 → 55) after a noindex already there at the first check, on 2026-11-17.",
      { source: "indexing", fact: "indexed pages 90 (2026-11-17) → 55 (2026-11-21), -38.9%" },
    ]);
  });

  it("does not blame a block for a drop that came before it", () => {
    const late = [run(1, 10, 85), run(2, 0.1, 60, [NOINDEX])];
    expect(ask("index_drop_after_block", site({ runs: late, indexed: [...daily("2026-11-02", repeat(200, 10)), ...daily("2026-11-12", repeat(80, 3))] }))).toBeNull();
  });
});

describe("site_down", () => {
  const uptime = (incidents: { firstSeen: number; resolvedAt: number | null }[]) => ({
    firstProbe: NOW - 20 * DAY,
    incidents: incidents.map((i) => ({ kind: "down", title: "Site down", cause: "http 503", ...i })),
  });

  it("names an open outage, with its cause", () => {
    const c = ask("site_down", site({ uptime: uptime([{ firstSeen: NOW - 7200, resolvedAt: null }]) }))!;
    expect([c.text, c.severity, c.confidence, c.since]).toEqual(["The site has been down since 2026-11-22 08:00 UTC (http 503).", "critical", 0.95, NOW - 7200]);
  });

  it("counts outages of the last 7 days from 30 minutes on", () => {
    const twice = uptime([
      { firstSeen: NOW - 3 * DAY, resolvedAt: NOW - 3 * DAY + 1500 },
      { firstSeen: NOW - DAY, resolvedAt: NOW - DAY + 1200 },
    ]);
    const c = ask("site_down", site({ uptime: twice }))!;
    expect([c.text, c.severity, c.confidence]).toEqual(["The site was down 45 min in the last 7 days (2 incidents).", "bad", 0.6]);
  });

  it("does not fire for short or old outages", () => {
    expect(ask("site_down", site({ uptime: uptime([{ firstSeen: NOW - DAY, resolvedAt: NOW - DAY + 600 }, { firstSeen: NOW - 9 * DAY, resolvedAt: NOW - 8 * DAY }]) }))).toBeNull();
  });
});

describe("certificate", () => {
  const cert = (id: number, failing: Parameters<typeof run>[3], certificate: { problem: string | null; daysLeft: number | null }) => ({ ...run(id, 0, 80, failing), certificate });
  const incident = (cause: string, title: string) => ({ firstProbe: NOW - 2 * DAY, incidents: [{ kind: "certificate", title, cause, firstSeen: NOW - DAY, resolvedAt: null }] });

  it("says how many days a valid certificate has left, at the level of its stage: never critical", () => {
    // 29 days: tls_cert_expiry passes (it warns from 21), the 30-day incident is open.
    const at29 = ask("certificate", site({ runs: [cert(1, [], { problem: null, daysLeft: 29 })], uptime: incident("30d", "Certificate of a.example expires in 29 day(s), on 2026-12-21") }))!;
    expect([at29.severity, at29.text, at29.evidence]).toEqual([
      "warn",
      "The certificate expires in 29 day(s): renew it before browsers start refusing the site.",
      [
        { source: "report", fact: "the certificate expires in 29 day(s) (check of 2026-11-22)" },
        { source: "uptime", fact: "open certificate incident: Certificate of a.example expires in 29 day(s), on 2026-12-21" },
      ],
    ]);
    const at13 = ask("certificate", site({ runs: [cert(1, [fail("tls_cert_expiry", "TLS certificate is not about to expire", "warn")], { problem: null, daysLeft: 13 })], uptime: incident("14d", "x") }))!;
    expect([at13.severity, at13.text]).toEqual(["warn", "The certificate expires in 13 day(s): renew it before browsers start refusing the site."]);
    const at6 = ask("certificate", site({ runs: [cert(1, [fail("tls_cert_expiry", "TLS certificate is not about to expire")], { problem: null, daysLeft: 6 })], uptime: incident("7d", "x") }))!;
    expect([at6.severity, at6.text]).toEqual(["bad", "The certificate expires in 6 day(s): renew it before browsers start refusing the site."]);
  });

  it("is critical only when browsers refuse the certificate, and says why", () => {
    const expired = ask("certificate", site({ runs: [cert(1, [fail("tls_cert_valid", "TLS certificate is valid")], { problem: "CERT_HAS_EXPIRED", daysLeft: null })] }))!;
    expect([expired.severity, expired.text]).toEqual(["critical", "The certificate has expired: browsers refuse the site and visitors see a warning."]);
    const mismatch = ask("certificate", site({ runs: [cert(1, [fail("tls_cert_valid", "TLS certificate is valid")], { problem: "ERR_TLS_CERT_ALTNAME_INVALID", daysLeft: 90 })] }))!;
    expect([mismatch.severity, mismatch.text]).toEqual(["critical", "The certificate does not cover a.example: browsers refuse it and visitors see a warning."]);
    const untrusted = ask("certificate", site({ runs: [cert(1, [fail("tls_cert_valid", "TLS certificate is valid")], { problem: "DEPTH_ZERO_SELF_SIGNED_CERT", daysLeft: 90 })] }))!;
    expect([untrusted.severity, untrusted.text]).toEqual(["critical", "Browsers do not trust the certificate (DEPTH_ZERO_SELF_SIGNED_CERT): visitors see a warning and leave."]);
  });

  it("stages an expiry within 30 days from the check alone, before any probe brought the incident in; not at 30 days or more", () => {
    const at29 = ask("certificate", site({ runs: [cert(1, [], { problem: null, daysLeft: 29 })] }))!;
    expect([at29.severity, at29.text]).toEqual(["warn", "The certificate expires in 29 day(s): renew it before browsers start refusing the site."]);
    expect(ask("certificate", site({ runs: [cert(1, [], { problem: null, daysLeft: 30 })] }))).toBeNull();
  });

  it("does not fire when the latest check's certificate is fine (an earlier failure is history)", () => {
    expect(ask("certificate", site({ runs: [run(1, 3, 80, [fail("tls_cert_valid", "TLS certificate is valid")]), cert(2, [], { problem: null, daysLeft: 45 })] }))).toBeNull();
  });
});

describe("new_critical_problems", () => {
  const before = run(1, 3, 80, [fail("title_length", "Title length", "warn")]);

  it("links a rank fall to the critical checks that are new in the latest run", () => {
    const c = ask("new_critical_problems", site({ runs: [before, run(2, 0, 70, [fail("title_length", "Title length", "warn"), fail("home_status", "Home page answers 200")])] }))!;
    expect([c.text, c.severity, c.confidence, c.fixedBy]).toEqual(["The rank fell from 80 to 70 on 2026-11-22 with new critical problems: Home page answers 200.", "bad", 0.85, ["home_status"]]);
  });

  it("does not fire for a small fall, for new warnings only, or with one run", () => {
    expect(ask("new_critical_problems", site({ runs: [before, run(2, 0, 78, [fail("home_status", "Home page answers 200")])] }))).toBeNull();
    expect(ask("new_critical_problems", site({ runs: [before, run(2, 0, 70, [fail("h1_present", "H1", "warn")])] }))).toBeNull();
    expect(ask("new_critical_problems", site({ runs: [run(2, 0, 20, [fail("home_status", "Home page answers 200")])] }))).toBeNull();
  });
});

describe("performance_regression", () => {
  it("fires when the home page's score fell by 10 points or more", () => {
    const c = ask("performance_regression", site({ runs: [run(1, 3, 80, [], { score: 90, lcpMs: 1800 }), run(2, 0, 78, [], { score: 72, lcpMs: 3900 })] }))!;
    expect([c.text, c.severity]).toEqual(["The home page's performance score fell from 90 to 72 between the checks of 2026-11-19 and 2026-11-22, LCP 1800 → 3900 ms.", "warn"]);
  });

  it("does not fire within the noise, or with one measurement", () => {
    expect(ask("performance_regression", site({ runs: [run(1, 3, 80, [], { score: 90, lcpMs: 1800 }), run(2, 0, 78, [], { score: 81, lcpMs: 2000 })] }))).toBeNull();
    expect(ask("performance_regression", site({ runs: [run(1, 3, 80), run(2, 0, 78, [], { score: 40, lcpMs: 9000 })] }))).toBeNull();
  });
});

describe("position_drop", () => {
  const checks = (now: (number | null)[]) =>
    [3, 5, 2, 10].flatMap((then, i) => [
      { keyword: `q${i}`, day: "2026-11-14", position: then },
      { keyword: `q${i}`, day: "2026-11-21", position: now[i] ?? null },
    ]);

  it("fires when at least 30% of the tracked queries (and two) lost 3 places or the results", () => {
    const c = ask("position_drop", site({ positions: checks([8, null, 2, 11]) }))!;
    expect([c.text, c.evidence]).toEqual(["2 of 4 tracked queries lost 3+ places or fell out of the results in the week to 2026-11-21.", [{ source: "positions", fact: "2 of 4 queries dropped since 2026-11-14" }]]);
  });

  it("does not fire for one query", () => {
    expect(ask("position_drop", site({ positions: checks([8, 5, 2, 11]) }))).toBeNull();
  });
});

describe("lost_backlinks", () => {
  const links = (live: number, lost: number, lostAt: string) => [
    ...Array.from({ length: live }, () => ({ firstSeen: "2026-01-01", lostAt: null })),
    ...Array.from({ length: lost }, () => ({ firstSeen: "2026-01-01", lostAt })),
  ];

  it("fires for 3+ links and 10%+ of them lost in 30 days", () => {
    expect(ask("lost_backlinks", site({ backlinks: links(20, 5, "2026-11-10") }))!.text).toBe("5 backlinks were lost in the last 30 days (20% of the links the site had); 20 remain.");
  });

  it("does not fire for few links, a small share, or old losses", () => {
    expect(ask("lost_backlinks", site({ backlinks: links(20, 2, "2026-11-10") }))).toBeNull();
    expect(ask("lost_backlinks", site({ backlinks: links(50, 4, "2026-11-10") }))).toBeNull();
    expect(ask("lost_backlinks", site({ backlinks: links(20, 5, "2026-10-01") }))).toBeNull();
  });
});

describe("external_traffic_drop", () => {
  it("fires for a traffic fall with no internal cause", () => {
    const c = ask("external_traffic_drop", site({ clicks: CLICKS_DROP }))!;
    expect([c.text, c.confidence, c.severity]).toEqual(["Traffic fell 50% (100 → 50 clicks a day) with no cause found on the site: a seasonal dip or a change in the market.", 0.5, "warn"]);
  });

  it("is more certain when the fall shows as unusual days", () => {
    // Three days at 5 after 100 a day: (4·100 + 3·5) ÷ 7 = 59.3 a day, -40.7%; each of the three is far from its weekday.
    const sudden = [...daily("2026-10-20", repeat(100, 30)), ...daily("2026-11-19", repeat(5, 3))];
    const c = ask("external_traffic_drop", site({ clicks: sudden }))!;
    expect([c.text, c.confidence, c.evidence.at(-1)]).toEqual([
      "Traffic fell 40.7% (100 → 59.3 clicks a day) with no cause found on the site: a seasonal dip or a change in the market.",
      0.65,
      { source: "search", fact: "unusual drops on 2026-11-19, 2026-11-20, 2026-11-21" },
    ]);
  });

  it("does not fire when an internal cause explains it, or when traffic held", () => {
    const internal = ask("index_drop_after_block", site({ runs: blockedRuns, indexed: INDEX_DROP, clicks: CLICKS_DROP }))!;
    expect(ask("external_traffic_drop", site({ clicks: CLICKS_DROP }), [internal])).toBeNull();
    expect(ask("external_traffic_drop", site({ clicks: daily("2026-10-20", repeat(100, 33)) }))).toBeNull();
  });
});
