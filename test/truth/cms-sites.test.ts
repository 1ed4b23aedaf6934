import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, untilJobDone, type TestGateway } from "../harness/gateway.ts";
import { mediawikiSite, serveCrawlSite, wordpressSite, type CrawlSiteServer } from "../harness/crawl-sites/index.ts";

// The hold of issue 33 (real-sites.md): sites built like WordPress 6.1 and MediaWiki 1.39 with
// their real markup (test/harness/crawl-sites/cms-sites.ts), monitored, crawled and analysed
// through the API as their owner would. Truth by construction: the exact /plan, every task one the
// owner should act on, and none of the false ones the trial met on the real applications —
// localhost_links on a site linking to itself on loopback (R2), internal_nofollow on reply links
// and on a link robots.txt closes (R3), sitemap_missing_pages on pagination and date archives (R6),
// crawlable_anchors on javascript:print() (R8), url_hygiene on /wiki/Title_Case (R11). The crawl
// finds the 404s and the broken image with their sources (R1); the page checks speak for the crawl,
// "N of M crawled pages" (R5); under the HTTPS cap /plan orders by the gain with the cap lifted (R7).
//
// ttfb is left out of the lists: whether a loopback answer takes over 600 ms depends on the
// machine's load, and no test is gated on speed. Its presence changes no other task's figures
// (a check's gain depends on its own group's weights, not on its neighbours' scores).

interface Task {
  code: string;
  level: string;
  impact: number;
  impact_uncapped: number;
  detail: string;
}
interface Item {
  code: string;
  status: string;
  value: unknown;
  detail: string;
  pages: string[];
}

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway({ env: { SVC_ALLOW_PRIVATE_TARGETS: "1", SVC_PAGE_SAMPLE: "21", SVC_CRAWL_MIN_DELAY_MS: "0", SVC_FETCH_TIMEOUT_MS: "3000" } });
});
afterAll(async () => gw.close());
afterEach(() => expect(gw.violations).toEqual([]));

/** Monitors the site and crawls it (the crawl's run is its analysis): what an owner does first. */
async function monitorAndCrawl(site: CrawlSiteServer): Promise<void> {
  expect((await gw.call("POST", "/api/v1/sites", { body: { host: site.host } })).statusCode).toBe(201);
  const job = (await gw.call("POST", `/api/v1/crawl/${site.host}`)).json().job;
  expect((await untilJobDone(gw, job.id as number, 60_000)).state).toBe("done");
}

async function plan(host: string): Promise<Task[]> {
  return (await gw.call("GET", `/api/v1/plan?host=${host}&limit=100`)).json<{ tasks: Task[] }>().tasks.filter((t) => t.code !== "ttfb");
}

async function items(host: string): Promise<Map<string, Item>> {
  return new Map((await gw.call("GET", `/api/v1/report/${host}`)).json<{ items: Item[] }>().items.map((i) => [i.code, i]));
}

const row = (t: Task) => [t.code, t.level, t.impact, t.impact_uncapped];

/** Checks the trial met as false tasks on the real applications (localhost_links aside: a genuine stray link keeps it, and its detail is held below). */
const FALSE_ALARMS = ["internal_nofollow", "crawlable_anchors", "url_hygiene", "title_duplicate", "description_duplicate", "duplicate_content"];

describe("a WordPress-shaped blog, crawled and analysed", () => {
  let site: CrawlSiteServer;
  const u = (path: string) => `${site.origin}${path}`;
  beforeAll(async () => {
    site = await serveCrawlSite(wordpressSite());
    await monitorAndCrawl(site);
  }, 120_000);
  afterAll(async () => site.close());

  it("finds the missing post, the missing PDF and the broken <img>, each with the page linking it", async () => {
    const links = (await gw.call("GET", `/api/v1/links/${site.host}`)).json<{ broken: { url: string; status: number; sources: string[] }[] }>();
    expect(links.broken.map((b) => [b.url, b.status, b.sources])).toEqual([
      [u("/2022/05/nonexistent-article/"), 404, [u("/2022/11/hello-world/")]],
      [u("/wp-content/uploads/2022/03/annual-report.pdf"), 404, [u("/2022/11/hello-world/")]],
      [u("/wp-content/uploads/2023/01/missing-diagram.png"), 404, [u("/2022/11/weekly-roundup/")]],
    ]);
  });

  it("plans exactly the tasks the owner should act on: under the HTTPS cap, by level and then by the gain with the cap lifted", async () => {
    const tasks = await plan(site.host);
    expect(tasks.map(row)).toEqual([
      ["https_available", "bad", 34, 3.7], // the cap (49): no HTTPS on the loopback site
      ["broken_internal", "bad", 0, 0.5], // the post, the PDF and the image above
      ["og_required", "warn", 0, 2.1], // core writes no Open Graph tags
      ["compression", "warn", 0, 1.4], // the server sends HTML uncompressed
      ["description_present", "warn", 0, 1.1], // core writes no meta description
      ["text_length", "warn", 0, 1], // archives and the short posts
      ["image_dimensions", "warn", 0, 0.8], // the broken <img> has no width and height
      ["canonical_present", "warn", 0, 0.7], // core writes a canonical on single views only
      ["insecure_form", "warn", 0, 0.5], // the comment forms post over http
      ["localhost_links", "warn", 0, 0.2], // http://localhost:PORT/about/ and the dead http://127.0.0.1:9/old-site/, not the site's own links
      ["orphan_pages", "warn", 0, 0.2], // the author archive only the sitemap lists (R4)
      ["social_profiles", "info", 0, 0.7],
      ["twitter_card", "info", 0, 0.7],
      ["pwa_manifest", "info", 0, 0.7],
      ["schema_core_types", "info", 0, 0.7],
      ["frame_ancestors", "info", 0, 0.6], // this and the next four: the server's headers
      ["permissions_policy", "info", 0, 0.6],
      ["referrer_policy", "info", 0, 0.6],
      ["security_txt", "info", 0, 0.6],
      ["x_content_type_options", "info", 0, 0.6],
      ["csp", "info", 0, 0.6],
      ["schema_breadcrumbs", "info", 0, 0.6],
      ["favicon", "info", 0, 0.5],
      ["near_duplicate", "info", 0, 0.3], // the fixture's pages repeat one paragraph
      ["crawl_depth", "info", 0, 0.2], // /page/5/: next-only pagination buries old posts
      ["empty_anchor_text", "info", 0, 0.1], // the attachment page's image link, alt=""
      ["headings_order", "info", 0, 0.1], // posts: h1, then the comment form's h3
      ["sitemap_missing_pages", "info", 0, 0], // the attachment page: its fix is a 301 to the file or noindex
    ]);
    for (const code of FALSE_ALARMS) expect(tasks.map((t) => t.code)).not.toContain(code);
  });

  it("decides page checks from the crawl: N of M crawled pages, not the sample alone (R5)", async () => {
    const report = await items(site.host);
    expect(report.get("text_length")).toMatchObject({ status: "fail", value: 16 });
    expect(report.get("text_length")?.detail).toMatch(/^16 of 18 crawled pages fail \(crawl of 2026-11-22\); e\.g\. /);
    expect(report.get("headings_order")).toMatchObject({
      status: "fail",
      value: 3,
      pages: [u("/2022/11/hello-world/"), u("/2022/11/plank-stupidly-simple/"), u("/2022/11/weekly-roundup/")],
      detail: `3 of 18 crawled pages fail (crawl of 2026-11-22); e.g. ${u("/2022/11/hello-world/")}; ${u("/2022/11/plank-stupidly-simple/")}; ${u("/2022/11/weekly-roundup/")}; sampled now: 3 of 11 pages: a heading level skipped, or headings before the h1 (${u("/2022/11/hello-world/")}: h1 is followed by h3)`,
    });
    const task = (await plan(site.host)).find((t) => t.code === "localhost_links");
    expect(task?.detail).toBe(
      `2 of 18 crawled pages fail (crawl of 2026-11-22); e.g. ${u("/2022/11/hello-world/")}; ${u("/2022/11/weekly-roundup/")}; sampled now: 2 of 11 pages: links to localhost (${u("/2022/11/hello-world/")}: http://127.0.0.1:9/old-site/)`,
    );
    // The sample follows no nofollow link, as the crawl: no ?replytocom= copy of a post is judged.
    for (const item of report.values()) expect(item.pages.filter((p) => p.includes("replytocom")), item.code).toEqual([]);
  });

  it("a later analysis keeps the crawl's verdicts while the crawl is at most 30 days old", async () => {
    gw.clock.advance(86_400_000);
    const job = (await gw.call("POST", "/api/v1/analyze", { body: { host: site.host, fresh: true } })).json().job;
    expect((await untilJobDone(gw, job.id as number)).state).toBe("done");
    const report = await items(site.host);
    expect([report.get("text_length")?.value, report.get("headings_order")?.value, report.get("localhost_links")?.value]).toEqual([16, 3, 2]);
    expect((await plan(site.host)).map((t) => t.code)).toContain("headings_order");
  });
});

describe("a MediaWiki-shaped wiki, crawled and analysed", () => {
  let site: CrawlSiteServer;
  const u = (path: string) => `${site.origin}${path}`;
  beforeAll(async () => {
    site = await serveCrawlSite(mediawikiSite());
    await monitorAndCrawl(site);
  }, 120_000);
  afterAll(async () => site.close());

  it("finds the missing footer page linked from every page, crawls the File: page, fetches no red link", async () => {
    const links = (await gw.call("GET", `/api/v1/links/${site.host}`)).json<{ broken: { url: string; status: number; links: number }[] }>();
    expect(links.broken.map((b) => [b.url, b.status, b.links])).toEqual([[u("/wiki/Debian_Manual_Wiki:Privacy_policy"), 404, 5]]);
    const crawl = (await gw.call("GET", `/api/v1/crawl/${site.host}?limit=200`)).json<{ pages: { url: string; status: number; skipped: string | null; issues: string[] }[] }>();
    const byUrl = new Map(crawl.pages.map((p) => [p.url, p]));
    expect(byUrl.get(u("/wiki/File:Terminal-0.png"))?.status).toBe(200);
    expect(crawl.pages.filter((p) => p.url.includes("redlink=1")).map((p) => [p.url, p.skipped])).toEqual([
      [u("/index.php?title=Dircolors&action=edit&redlink=1"), "missing_target"],
      [u("/index.php?title=Coreutils&action=edit&redlink=1"), "missing_target"],
    ]);
    // No crawled page carries a false issue: not url_hygiene for /wiki/Title_Case (R11), nor the others.
    expect(crawl.pages.filter((p) => p.issues.some((i) => ["url_hygiene", "crawlable_anchors", "internal_nofollow", "localhost_links"].includes(i))).map((p) => p.url)).toEqual([]);
  });

  it("plans exactly the tasks the owner should act on", async () => {
    const tasks = await plan(site.host);
    expect(tasks.map(row)).toEqual([
      ["https_available", "bad", 27, 3.7],
      ["viewport", "bad", 0, 4.2], // Vector legacy: width=1000
      ["broken_internal", "bad", 0, 0.5], // the footer's privacy policy page does not exist
      ["document_redirects", "warn", 0, 2.9], // / → 301 /wiki/Main_Page ($wgMainPageIsDomainRoot serves it at /)
      ["og_required", "warn", 0, 2.1],
      ["compression", "warn", 0, 1.4],
      ["canonical_present", "warn", 0, 1.2],
      ["sitemap_present", "warn", 0, 1.2], // MediaWiki makes none unless generateSitemap.php runs
      ["description_present", "warn", 0, 1.1],
      ["text_length", "warn", 0, 0.9],
      ["social_profiles", "info", 0, 0.7],
      ["twitter_card", "info", 0, 0.7],
      ["pwa_manifest", "info", 0, 0.7],
      ["schema_core_types", "info", 0, 0.7],
      ["frame_ancestors", "info", 0, 0.6],
      ["permissions_policy", "info", 0, 0.6],
      ["referrer_policy", "info", 0, 0.6],
      ["security_txt", "info", 0, 0.6],
      ["x_content_type_options", "info", 0, 0.6],
      ["csp", "info", 0, 0.6],
      ["schema_breadcrumbs", "info", 0, 0.6],
      ["favicon", "info", 0, 0.5],
      ["near_duplicate", "info", 0, 0.3],
      ["empty_anchor_text", "info", 0, 0.1], // the thumbnail's link: an image with alt=""
    ]);
    for (const code of FALSE_ALARMS) expect(tasks.map((t) => t.code)).not.toContain(code);
    const report = await items(site.host);
    expect(report.get("url_hygiene")).toMatchObject({ status: "pass", detail: "4 pages checked, all pass; uppercase letters and underscores are the site's URL scheme on every sampled page, not counted" });
    expect(report.get("crawlable_anchors")).toMatchObject({ status: "pass" });
    expect(report.get("text_length")).toMatchObject({ status: "fail", value: 4 });
  });
});
