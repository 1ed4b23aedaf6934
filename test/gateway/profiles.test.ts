import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, T0_MS, type TestGateway } from "../harness/gateway.ts";
import { page, startSmallSite, type SmallSite } from "../harness/sites/small-site.ts";

// GET/PUT/DELETE /profile/{host} (spec "Profile", "Profile rules"; seo-anchors §3.7), against a
// real run of the loopback small site.

let gw: TestGateway;
let site: SmallSite;
const NOW = Math.floor(T0_MS / 1000);
const LIMITS = { max_exclusions: 5, max_group_share: 0.5, warn_lift: 5 };
beforeAll(async () => {
  site = await startSmallSite();
  // The waits poll GET /jobs/{id} every 100 ms: on a busy machine an analysis outlasts the default 120 calls an hour.
  gw = await startTestGateway({ env: { SVC_ALLOW_PRIVATE_TARGETS: "1", SVC_PAGE_SAMPLE: "5", SVC_CRAWL_MIN_DELAY_MS: "0", SVC_FETCH_TIMEOUT_MS: "3000", SVC_RATE_PER_HOUR: "100000" } });
});
afterAll(async () => {
  await gw.close();
  await site.close();
});
afterEach(() => expect(gw.violations).toEqual([]));

const path = () => `/api/v1/profile/${site.host}`;
const put = (body: unknown, key?: string) => gw.call("PUT", path(), { body, ...(key ? { key } : {}) });

async function untilDone(jobId: number): Promise<void> {
  const started = Date.now();
  for (;;) {
    const job = (await gw.call("GET", `/api/v1/jobs/${jobId}`)).json().job as { state: string };
    if (job.state === "done") return;
    if (job.state === "error" || Date.now() - started > 30_000) throw new Error(`job ${jobId} ended ${job.state}`);
    await sleep(100);
  }
}

describe("site profiles before the first run", () => {
  it("answers the default profile: general, no exclusions, nothing applied yet", async () => {
    expect((await gw.call("POST", "/api/v1/sites", { body: { host: site.host } })).statusCode).toBe(201);
    const res = await gw.call("GET", path());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      host: site.host,
      profile: "general",
      title: "General site",
      exclude: [],
      updated: null,
      applied: { base: null, value: null, delta: null, warn: false, excluded: [] },
      limits: LIMITS,
    });
  });

  it("applies each type's default exclusions when exclude is omitted, without confirmation", async () => {
    const defaults = { general: [], shop: ["pwa"], forum: ["bimi", "same_ip"], blog: ["pwa", "bimi"], corporate: ["pwa"], portal: [] };
    for (const [profile, exclude] of Object.entries(defaults)) {
      const res = await put({ profile });
      expect(res.statusCode, profile).toBe(200);
      expect(res.json(), profile).toMatchObject({ host: site.host, profile, exclude, updated: NOW, applied: { base: null, value: null, delta: null, warn: false } });
      expect((await gw.call("GET", path())).json(), profile).toMatchObject({ profile, exclude, updated: NOW });
    }
    const blog = (await put({ profile: "blog" })).json();
    expect(blog.title).toBe("Blog");
    expect(blog.applied.excluded).toEqual([
      { code: "pwa", title: "Progressive web app (manifest, service worker)", was: null, reason: expect.stringContaining("(pwa_manifest, pwa_icons) from the rank") },
      { code: "bimi", title: "BIMI brand logo in mail", was: null, reason: expect.stringContaining("(bimi) from the rank") },
    ]);
  });

  it("refuses exclusions against the rules with bad_param, naming the field, and keeps the stored profile", async () => {
    const before = (await gw.call("GET", path())).json();
    const cases: [unknown, string, RegExp][] = [
      [{ profile: "shop", exclude: ["title"], confirm: ["og"] }, "exclude.0", /must be one of text, pwa, hreflang, bimi, schema, security_txt, og, same_ip/],
      [{ profile: "shop", exclude: ["og"], confirm: ["title"] }, "confirm.0", /must be one of/],
      [{ profile: "store" }, "profile", /must be one of general, shop, forum, blog, corporate, portal/],
      [{ exclude: [] }, "profile", /is required/],
      [{ profile: "shop", exclude: ["text", "pwa", "hreflang", "bimi", "schema", "og"], confirm: ["text", "pwa", "hreflang", "bimi", "schema", "og"] }, "exclude", /^at most 5 exclusions \(max_exclusions\), got 6$/],
      [{ profile: "shop", exclude: ["og", "og"], confirm: ["og"] }, "exclude", /^og is named more than once$/],
      [{ profile: "shop", exclude: ["og"] }, "confirm", /^confirm the exclusion of og by naming it in confirm$/],
      [{ profile: "shop", exclude: ["og", "schema"], confirm: ["og"] }, "confirm", /^confirm the exclusion of schema by naming it in confirm$/],
      // Explicit exclusions need confirming even when they are the type's defaults.
      [{ profile: "shop", exclude: ["pwa"] }, "confirm", /^confirm the exclusion of pwa/],
      [
        { profile: "portal", exclude: ["hreflang", "schema", "og"], confirm: ["hreflang", "schema", "og"] },
        "exclude",
        /^the exclusions take 24 of the 36 weight of the presentation group; at most 50% \(max_group_share 0\.5\)$/,
      ],
    ];
    for (const [body, param, message] of cases) {
      const res = await put(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json(), JSON.stringify(body)).toMatchObject({ code: "bad_param", param, error: expect.stringMatching(message) });
    }
    expect((await gw.call("GET", path())).json()).toEqual(before);
  });

  it("allows exactly half of a group's weight: hreflang and og are 18 of presentation's 36", async () => {
    // hreflang (9) + og (9) of presentation's 36 is the largest pair the rule allows; adding schema (6) is
    // refused above, and the unit tests of analyzer/profiles.ts walk every combination.
    const res = await put({ profile: "portal", exclude: ["og", "hreflang"], confirm: ["hreflang", "og"] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ profile: "portal", title: "Portal or media", exclude: ["hreflang", "og"] });
  });

  it("keeps profiles to the account that monitors the site: not_found for everyone else", async () => {
    const other = await gw.newAccount("profile-stranger@example.com");
    for (const [method, body] of [["GET", undefined], ["PUT", { profile: "shop" }], ["DELETE", undefined]] as const) {
      const res = await gw.call(method, path(), { key: other.key, ...(body ? { body } : {}) });
      expect(res.statusCode, method).toBe(404);
      expect(res.json().code, method).toBe("not_found");
    }
    // The owner's profile is untouched by the stranger's attempts.
    expect((await gw.call("GET", path())).json()).toMatchObject({ profile: "portal", exclude: ["hreflang", "og"] });
    // Once the stranger monitors the host too, each account has its own profile.
    await gw.call("POST", "/api/v1/sites", { key: other.key, body: { host: site.host } });
    expect((await gw.call("GET", path(), { key: other.key })).json()).toMatchObject({ profile: "general", exclude: [], updated: null });
    expect((await put({ profile: "forum" }, other.key)).json()).toMatchObject({ profile: "forum", exclude: ["bimi", "same_ip"] });
    expect((await gw.call("GET", path())).json()).toMatchObject({ profile: "portal" });
    expect((await gw.call("GET", "/api/v1/profile/never-added.example.com")).json().code).toBe("not_found");
  });
});

describe("site profiles against a real run", () => {
  let report: { rank: { value: number }; checked_at: number };
  beforeAll(async () => {
    // Thin pages without Open Graph tags: text_length and og_required fail.
    const thin = (title: string, links: string[]) => page({ title, description: `${title}, a thin page of the small test site.`, links, words: 50 }).replace(/<meta property="og:[^\n]*\n/, "");
    site.pages.set("/", thin("Small site home page for tests", ["/about", "/contact"]));
    site.pages.set("/about", thin("About the small test site", ["/"]));
    site.pages.set("/contact", thin("Contact the small test site", ["/"]));
    const job = (await gw.call("POST", "/api/v1/analyze", { body: { host: site.host } })).json().job as { id: number };
    await untilDone(job.id);
    report = (await gw.call("GET", `/api/v1/report/${site.host}`)).json();
  });

  it("compares the latest run's rank without and with the exclusions; the no-HTTPS cap still binds", async () => {
    // The loopback site speaks plain HTTP: its rank is capped at 49, and no whitelisted check lifts a cap.
    expect(report.rank.value).toBe(49);
    const res = await put({ profile: "shop", exclude: ["og", "text", "security_txt", "schema"], confirm: ["text", "og", "schema", "security_txt"] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      host: site.host,
      profile: "shop",
      title: "Online shop",
      exclude: ["text", "schema", "security_txt", "og"],
      updated: NOW,
      applied: {
        base: 49,
        value: 49,
        delta: 0,
        warn: false,
        excluded: [
          { code: "text", title: "Amount of text on pages", was: 0, reason: expect.stringContaining("(text_length)") },
          // No page carries JSON-LD: only schema_core_types applies (it fails), the other three have no score.
          { code: "schema", title: "Structured data (JSON-LD)", was: 0, reason: expect.stringContaining("(jsonld_syntax, schema_required, schema_core_types, schema_breadcrumbs)") },
          { code: "security_txt", title: "security.txt", was: 0, reason: expect.stringContaining("(security_txt, security_txt_fields)") },
          { code: "og", title: "Open Graph tags", was: 0, reason: expect.stringContaining("(og_required, og_image, og_url_match, og_description, twitter_card)") },
        ],
      },
      limits: LIMITS,
    });
    expect((await gw.call("GET", path())).json()).toEqual(res.json());
    // The profile changes neither the report nor the history: they keep the standard rank.
    expect((await gw.call("GET", `/api/v1/report/${site.host}`)).json().rank.value).toBe(49);
    expect((await gw.call("GET", `/api/v1/history/${site.host}`)).json().runs.map((r: { rank: number }) => r.rank)).toEqual([49]);
  });

  it("shows a lift, or a loss, where no cap binds (the same run's items without its cap)", async () => {
    // A run stored with the real run's items but no cap, as an HTTPS twin of the site would give.
    const [latest] = await gw.db.query<{ report: { caps: unknown[] } }>("SELECT report FROM runs WHERE host = $1 ORDER BY id DESC LIMIT 1", [site.host]);
    await gw.db.query("INSERT INTO runs (host, job_id, checked_at, rank, label, color, report) VALUES ($1, NULL, $2, 84, 'good', '#7cb342', $3)", [
      site.host,
      report.checked_at + 1,
      JSON.stringify({ ...latest!.report, caps: [] }),
    ]);
    const failing = (await put({ profile: "general", exclude: ["security_txt"], confirm: ["security_txt"] })).json().applied;
    // 100·R = indexing 22·51/54 + technical 10·18/19 + security 14·11/23 + performance 16 + content 16·34/38
    //       + links 10·12/12 + presentation 12·9/16 = 84.01 → 84 (spf, dmarc, mx and caa, 8 of the security
    //       weight, do not apply to a site addressed by IP; localhost_links and crawlable_anchors pass: the
    //       site links to itself on its own loopback address, and has no javascript:void(0) anchor).
    // security_txt weighs 1 of the security group's 23 applicable (security_txt_fields does not apply without
    // the file): its share of the rank rounds away (84.01 → 84.32).
    expect(failing).toMatchObject({ base: 84, value: 84, delta: 0, warn: false, excluded: [{ code: "security_txt", was: 0 }] });
    const both = (await put({ profile: "general", exclude: ["og", "text"], confirm: ["og", "text"] })).json().applied;
    // og_required and twitter_card fail on every page, og's other checks do not apply (presentation 9/16 → 9/12),
    // text_length fails too (content 34/38 → 34/35): 84.01 → 87.49, +3, which is not over warn_lift.
    expect(both).toMatchObject({ base: 84, value: 87, delta: 3, warn: false, excluded: [{ code: "text", was: 0 }, { code: "og", was: 0 }] });
    // Excluding families whose checks do not apply here (bimi: an IP address sends no mail) or that have none
    // (same_ip) changes nothing.
    expect((await put({ profile: "general", exclude: ["bimi", "same_ip"], confirm: ["bimi", "same_ip"] })).json().applied).toMatchObject({
      base: 84,
      value: 84,
      delta: 0,
      excluded: [{ code: "bimi", was: null }, { code: "same_ip", was: null }],
    });
    // /report keeps the standard rank: applied.base, not applied.value.
    expect((await gw.call("GET", `/api/v1/report/${site.host}`)).json().rank.value).toBe(84);
  });

  it("uses the caller's profile in /overview, /issues?apply_profile=1 and /plan; /report and /history stay standard", async () => {
    // The latest run is the cap-less one (84); the site rows learn its rank as a completed run would tell them.
    await gw.db.query("UPDATE sites SET prev_rank = rank, rank = 84, label = 'good' WHERE host = $1", [site.host]);
    expect((await put({ profile: "general", exclude: ["og", "text"], confirm: ["og", "text"] })).json().applied).toMatchObject({ base: 84, value: 87 });

    // /overview: rank is the profile's, rank_without_exclusions the standard one; the summary follows rank.
    const ov = (await gw.call("GET", "/api/v1/overview")).json();
    expect(ov.sites).toEqual([
      expect.objectContaining({ host: site.host, rank: 87, rank_band: "good", rank_without_exclusions: 84, profile: "general", rank_delta: 35, falling: false, open_tasks: 16 }),
    ]);
    expect(ov.summary).toMatchObject({ n: 1, rated: 1, avg: 87, best: 87, worst: 87 });
    expect((await gw.call("GET", "/api/v1/overview?rmax=84")).json().sites).toEqual([]);
    // /sites keeps the standard rank (its items have no profile field).
    expect((await gw.call("GET", "/api/v1/sites")).json().sites[0]).toMatchObject({ host: site.host, rank: 84, prev_rank: 49 });
    // An account without a profile of the same site: nulls, and the standard rank.
    const third = await gw.newAccount("profile-third@example.com");
    await gw.call("POST", "/api/v1/sites", { key: third.key, body: { host: site.host } });
    expect((await gw.call("GET", "/api/v1/overview", { key: third.key })).json().sites).toEqual([
      expect.objectContaining({ host: site.host, rank: 84, rank_band: "good", profile: null, rank_without_exclusions: null }),
    ]);

    // /issues without apply_profile: the stored (standard) answer, with the caller's type.
    const std = (await gw.call("GET", `/api/v1/issues/${site.host}`)).json();
    expect(std).toMatchObject({ profile: "general", rank: 84, label: "good", total_issues: 16, after: 100, gain_all: 16, more: 11 });
    expect((await gw.call("GET", `/api/v1/issues/${site.host}?apply_profile=0`)).json()).toEqual(std);
    // With apply_profile=1: og_required, twitter_card and text_length are no problems; the others are priced
    // against the profiled rank. spf and dmarc, once two of the top five, do not apply to a site addressed by IP.
    const prof = (await gw.call("GET", `/api/v1/issues/${site.host}?apply_profile=1`)).json();
    expect(prof).toMatchObject({ profile: "general", rank: 87, label: "good", total_issues: 13, after: 100, gain_all: 13, more: 8 });
    expect(prof.problems.map((p: { code: string; gain: number; lifts_cap: boolean; status: string }) => [p.code, p.gain, p.lifts_cap, p.status])).toEqual([
      ["https_available", 4, false, "open"],
      ["canonical_present", 2, false, "open"],
      ["social_profiles", 1, false, "open"],
      ["frame_ancestors", 1, false, "open"],
      ["permissions_policy", 1, false, "open"],
    ]);
    // No stored profile: profile null, and apply_profile=1 is the standard answer as "general".
    const thirds = (await gw.call("GET", `/api/v1/issues/${site.host}`, { key: third.key })).json();
    expect(thirds).toMatchObject({ profile: null, rank: 84, total_issues: 16 });
    expect((await gw.call("GET", `/api/v1/issues/${site.host}?apply_profile=1`, { key: third.key })).json()).toEqual({ ...thirds, profile: "general" });

    // /plan leaves the excluded checks' tasks out (order and total too); /tasks keeps them open.
    const plan = (await gw.call("GET", "/api/v1/plan")).json();
    expect(plan.tasks.map((t: { code: string }) => t.code)).toEqual([
      "https_available",
      "canonical_present",
      // Equal impact and level under the cap: by their gain with the cap lifted (R7), then effort.
      "social_profiles",
      "pwa_manifest",
      "schema_core_types",
      "frame_ancestors",
      "permissions_policy",
      "referrer_policy",
      "security_txt",
      "x_content_type_options",
      "csp",
      "favicon",
      "description_length",
    ]);
    expect(plan.page).toEqual({ limit: 50, offset: 0, total: 13, next_offset: null });
    const paged = (await gw.call("GET", "/api/v1/plan?limit=2&offset=2")).json();
    expect(paged.tasks.map((t: { code: string }) => t.code)).toEqual(["social_profiles", "pwa_manifest"]);
    expect(paged.page).toEqual({ limit: 2, offset: 2, total: 13, next_offset: 4 });
    const tasks = (await gw.call("GET", `/api/v1/tasks/${site.host}`)).json().tasks as { code: string; status: string }[];
    expect(tasks.filter((t) => ["og_required", "text_length"].includes(t.code)).map((t) => t.status)).toEqual(["open", "open"]);
    // A profile whose families have no check (same_ip waits for a reverse-IP source) leaves the plan whole.
    await put({ profile: "general", exclude: ["same_ip"], confirm: ["same_ip"] });
    expect((await gw.call("GET", "/api/v1/plan")).json().page.total).toBe(16);
    expect((await gw.call("GET", `/api/v1/issues/${site.host}?apply_profile=1`)).json()).toEqual({ ...std, profile: "general" });

    // /report and /history keep the standard rank.
    expect((await gw.call("GET", `/api/v1/report/${site.host}`)).json().rank.value).toBe(84);
    expect((await gw.call("GET", `/api/v1/history/${site.host}`)).json().runs.map((r: { rank: number }) => r.rank)).toEqual([84, 49]);
  });

  it("resets to the standard set with DELETE, and a removed site takes its profile with it", async () => {
    const reset = await gw.call("DELETE", path());
    expect(reset.statusCode).toBe(200);
    expect(reset.json()).toEqual({ host: site.host, profile: "general", exclude: [], reset: true });
    expect((await gw.call("GET", path())).json()).toMatchObject({ profile: "general", title: "General site", exclude: [], updated: null, applied: { excluded: [] } });
    // Idempotent: the same answer when nothing is stored.
    expect((await gw.call("DELETE", path())).json()).toEqual({ host: site.host, profile: "general", exclude: [], reset: true });

    expect((await put({ profile: "blog" })).statusCode).toBe(200);
    expect((await gw.call("DELETE", `/api/v1/sites/${site.host}`)).statusCode).toBe(200);
    expect((await gw.call("GET", path())).json().code).toBe("not_found");
    expect((await gw.call("POST", "/api/v1/sites", { body: { host: site.host } })).statusCode).toBe(201);
    expect((await gw.call("GET", path())).json()).toMatchObject({ profile: "general", exclude: [], updated: null });
  });
});
