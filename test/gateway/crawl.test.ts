import { readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, untilJobDone, type TestGateway } from "../harness/gateway.ts";
import { page, startSmallSite, type SmallSite } from "../harness/sites/small-site.ts";

// A whole-site crawl through the API: POST /crawl → job → crawler (parse threads, pages stored as
// they come) → crawl report → GET /crawl, /links, /external, /history, and the charge of three checks.

let gw: TestGateway;
let site: SmallSite;
beforeAll(async () => {
  site = await startSmallSite();
  site.pages.set("/", page({ title: "Small site home page for tests", description: "The home page of a small site served on loopback for Svc's tests.", links: ["/about", "/contact", "/blog", "/gone", "http://127.0.0.9:9/elsewhere"] }));
  site.pages.set("/blog", page({ title: "The blog of the small test site", description: "Posts of the small site.", links: ["/blog/one", "/gone", "/about/"] }));
  site.pages.set("/blog/one", page({ title: "The blog of the small test site", description: "The first post.", links: ["/"] }));
  site.pages.set("/about/", page({ title: "About the small test site", description: "Who runs the small site, and why it exists at all.", links: ["/"] }));
  site.pages.set("/lonely", page({ title: "A page only the sitemap knows", description: "Orphan.", links: [] }));
  site.pages.set(
    "/sitemap.xml",
    `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${["/", "/about", "/contact", "/lonely"].map((p) => `<url><loc>${site.url}${p}</loc></url>`).join("")}</urlset>`,
  );
  gw = await startTestGateway({ env: { SVC_ALLOW_PRIVATE_TARGETS: "1", SVC_PAGE_SAMPLE: "5", SVC_CRAWL_MIN_DELAY_MS: "0", SVC_FETCH_TIMEOUT_MS: "3000", SVC_PLAN_CHECKS_PER_DAY: "5" } });
});
afterAll(async () => {
  await gw.close();
  await site.close();
});
afterEach(() => expect(gw.violations).toEqual([]));

const untilDone = (jobId: number) => untilJobDone(gw, jobId);

describe("a whole-site crawl", () => {
  it("answers not_found before any crawl", async () => {
    expect((await gw.call("GET", `/api/v1/crawl/${site.host}`)).json().code).toBe("not_found");
    expect((await gw.call("GET", `/api/v1/links/${site.host}`)).json().code).toBe("not_found");
  });

  it("crawls every linked and sitemap page, and reports links, duplicates and orphans", async () => {
    const started = await gw.call("POST", `/api/v1/crawl/${site.host}`);
    expect(started.statusCode).toBe(202);
    expect(started.json().job).toMatchObject({ kind: "crawl", host: site.host, state: "queued", progress: 0 });
    const job = await untilDone(started.json().job.id as number);
    expect(job).toMatchObject({ state: "done", progress: 100 });
    // The pages' facts waited in a file for the analysis (crawler/crawl/facts-file.ts), in the node's
    // folder of them (the OS temp dir's svc-crawl-facts when SVC_CRAWL_FACTS_DIR is empty): gone with the job.
    expect(readdirSync(join(tmpdir(), "svc-crawl-facts")).filter((name) => name.startsWith(`svc-crawl-facts-${process.pid}-`))).toEqual([]);
    expect(job.result).toEqual({
      report: `/api/v1/report/${site.host}`,
      issues: `/api/v1/issues/${site.host}`,
      crawl: `/api/v1/crawl/${site.host}`,
      links: `/api/v1/links/${site.host}`,
      external: `/api/v1/external/${site.host}`,
    });

    const crawl = (await gw.call("GET", `/api/v1/crawl/${site.host}?limit=200`)).json();
    const byUrl = new Map((crawl.pages as { url: string; issues: string[] }[]).map((p) => [p.url, p]));
    const u = (p: string) => `${site.url}${p}`;
    expect([...byUrl.keys()].sort()).toEqual([u("/"), u("/about"), u("/about/"), u("/blog"), u("/blog/one"), u("/contact"), u("/gone"), u("/lonely")].sort());
    expect(byUrl.get(u("/"))).toMatchObject({ status: 200, depth: 0, title: "Small site home page for tests" });
    expect(byUrl.get(u("/blog/one"))).toMatchObject({ status: 200, depth: 2, inlinks: 1 });
    expect(byUrl.get(u("/gone"))).toMatchObject({ status: 404, depth: 1, inlinks: 2 });
    expect(byUrl.get(u("/lonely"))).toMatchObject({ status: 200, depth: null, inlinks: 0, in_sitemap: true });
    expect(byUrl.get(u("/contact"))?.issues).toContain("description_present");
    expect(crawl.summary).toMatchObject({ pages: 7, urls: 8, broken_links: 1, orphans: 1, truncated_by: null });
    expect(crawl.external).toMatchObject({ total: 1, domains: 1, unchecked: 1, broken: 0 });
    expect(crawl.page).toMatchObject({ total: 8 });

    const filtered = (await gw.call("GET", `/api/v1/crawl/${site.host}?status=4`)).json();
    expect(filtered.pages.map((p: { url: string }) => p.url)).toEqual([u("/gone")]);

    const links = (await gw.call("GET", `/api/v1/links/${site.host}`)).json();
    expect(links.orphans).toEqual([{ url: u("/lonely"), status: 200 }]);
    expect(links.broken).toEqual([{ url: u("/gone"), status: 404, error: null, links: 2, sources: [u("/"), u("/blog")] }]);
    // /about and /about/ are one page under two URLs: their title is shared, and they are URL variants.
    expect(links.duplicates.titles).toEqual([
      { title: "About the small test site", urls: [u("/about"), u("/about/")] },
      { title: "The blog of the small test site", urls: [u("/blog"), u("/blog/one")] },
    ]);
    expect(links.duplicates.urls).toEqual([{ key: u("/about"), urls: [u("/about"), u("/about/")] }]);
    expect(links.top_pages[0]).toMatchObject({ url: u("/"), score: 100 });
    // Every page carries the same 400 words: all 7 are one near-duplicate cluster, with the home
    // page (shortest of those alike to most) as its representative; /about and /about/ have the
    // same text, an exact duplicate and no near pair, so 20 of the 21 pairs are near.
    const members = [u("/"), u("/about"), u("/about/"), u("/blog"), u("/blog/one"), u("/contact"), u("/lonely")];
    expect(links.duplicates.clusters).toEqual([{ id: 1, size: 7, representative: u("/"), similarity: 0.938, pairs: 20, urls: members }]);
    expect(links.duplicates.near).toHaveLength(20);
    expect(links.counts).toMatchObject({ near: 20, clusters: 1 });
    const paged = (await gw.call("GET", `/api/v1/links/${site.host}?cluster=1&limit=2&offset=2`)).json();
    expect(paged.duplicates.clusters).toEqual([{ id: 1, size: 7, representative: u("/"), similarity: 0.938, pairs: 20, urls: [u("/about/"), u("/blog")] }]);
    expect(paged.page).toEqual({ limit: 2, offset: 2, total: 7, next_offset: 4 });
    const missing = await gw.call("GET", `/api/v1/links/${site.host}?cluster=2`);
    expect([missing.statusCode, missing.json().code]).toEqual([404, "not_found"]);

    const external = (await gw.call("GET", `/api/v1/external/${site.host}`)).json();
    expect(external.links).toEqual([{ url: "http://127.0.0.9:9/elsewhere", domain: "127.0.0.9", sources: 1, nofollow: false, status: null, error: null, state: "unchecked" }]);

    const history = (await gw.call("GET", `/api/v1/history/${site.host}`)).json();
    expect(history.runs).toHaveLength(1);
    expect(crawl.run).toBe(history.runs[0].id);
  });

  it("feeds its findings to later analyses of the host: the crawl checks are decided", async () => {
    expect((await gw.call("POST", "/api/v1/sites", { body: { host: site.host } })).statusCode).toBe(201);
    const started = (await gw.call("POST", "/api/v1/analyze", { body: { host: site.host, fresh: true } })).json().job;
    const job = await untilDone(started.id as number);
    expect(job.state).toBe("done");
    const report = (await gw.call("GET", `/api/v1/report/${site.host}`)).json<{ items: { code: string }[] }>();
    const item = (code: string) => report.items.find((i) => i.code === code);
    expect(item("broken_internal")).toMatchObject({ status: "fail", value: 1, pages: [`${site.url}/gone`] });
    expect(item("orphan_pages")).toMatchObject({ status: "fail", value: 1 });
    expect(item("duplicate_urls")).toMatchObject({ status: "fail", value: 1 });
    const tasks = (await gw.call("GET", `/api/v1/tasks/${site.host}`)).json().tasks as { code: string; recheck: boolean }[];
    expect(tasks.find((t) => t.code === "broken_internal")).toMatchObject({ recheck: false });
  });

  it("reuses a fresh crawl without charging, and charges three checks for a new one", async () => {
    const again = (await gw.call("POST", `/api/v1/crawl/${site.host}`)).json().job;
    expect(again).toMatchObject({ state: "done", items: [{ cached: true }] });
    // 5 checks a day: the first crawl took 3 and the analysis 1, so a fresh crawl (3 more) is refused.
    const refused = await gw.call("POST", `/api/v1/crawl/${site.host}?fresh=true`);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe("limit");
  });
});
