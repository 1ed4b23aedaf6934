import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, untilJobDone, type TestGateway } from "../harness/gateway.ts";
import { page } from "../harness/sites/small-site.ts";
import { startScenarioSite, type ScenarioSite } from "./scenario-site.ts";

// A site whose links redirect into pages the sample already holds (depth audit D9): /old → /old2 →
// /about and /index.html → /. Every page has its own title and description, so nothing is a
// duplicate; /about is thin (53 words with its heading) and has a short title, so text_length and title_length fail
// on exactly one page, named once. Truth by construction: zero duplicate verdicts, zero duplicate tasks.

interface Item {
  code: string;
  status: string;
  value: unknown;
  detail: string;
  pages: string[];
}

let gw: TestGateway;
let site: ScenarioSite;
const u = (path: string) => `${site.url}${path}`;
let host = "";

beforeAll(async () => {
  site = await startScenarioSite();
  host = site.host;
  site.redirects.set("/old", "/old2").set("/old2", "/about").set("/index.html", "/");
  // The redirecting links come first: the sample meets each page through a redirect before directly.
  site.pages.set("/", page({ title: "Furniture shop home page, chairs and tables", description: "Chairs, tables and shelves made to order in our own workshop.", links: ["/old", "/index.html", "/about", "/contact"] }));
  site.pages.set("/about", page({ title: "About", description: "Who makes the furniture, and where the wood comes from.", links: ["/"], words: 50 }));
  site.pages.set("/contact", page({ title: "Contact the furniture shop by phone or mail", description: "Opening hours, the workshop's address and how to order.", links: ["/"] }));
  gw = await startTestGateway({ env: { SVC_ALLOW_PRIVATE_TARGETS: "1", SVC_PAGE_SAMPLE: "10", SVC_CRAWL_MIN_DELAY_MS: "0", SVC_FETCH_TIMEOUT_MS: "3000" } });
});
afterAll(async () => {
  await gw.close();
  await site.close();
});
afterEach(() => expect(gw.violations).toEqual([]));

async function report(): Promise<Map<string, Item>> {
  const items = (await gw.call("GET", `/api/v1/report/${host}`)).json<{ items: Item[] }>().items;
  return new Map(items.map((i) => [i.code, i]));
}

describe("links that redirect into the sample", () => {
  it("an analysis counts each page once: no duplicate verdict, no duplicate task, thin pages named once", async () => {
    expect((await gw.call("POST", "/api/v1/sites", { body: { host } })).statusCode).toBe(201);
    const job = (await gw.call("POST", "/api/v1/analyze", { body: { host } })).json().job;
    expect((await untilJobDone(gw, job.id as number)).state).toBe("done");
    const items = await report();
    expect(items.get("title_duplicate")).toMatchObject({ status: "pass", value: 0, detail: "3 pages checked, all pass", pages: [] });
    expect(items.get("description_duplicate")).toMatchObject({ status: "pass", value: 0, detail: "3 pages checked, all pass", pages: [] });
    expect(items.get("text_length")).toMatchObject({ status: "fail", value: 1, detail: `1 of 2 pages: fewer than 200 words of text (${u("/about")}: 53 words)`, pages: [u("/about")] });
    expect(items.get("title_length")).toMatchObject({ status: "fail", value: 1, pages: [u("/about")] });
    for (const item of items.values()) expect([item.code, new Set(item.pages).size]).toEqual([item.code, item.pages.length]);
    const tasks = (await gw.call("GET", `/api/v1/tasks/${host}`)).json<{ tasks: { code: string }[] }>().tasks.map((t) => t.code);
    expect(tasks.filter((c) => c === "title_duplicate" || c === "description_duplicate" || c === "duplicate_text")).toEqual([]);
  });

  it("a crawl stores a redirect as a redirect, and /links lists no duplicate", async () => {
    const job = (await gw.call("POST", `/api/v1/crawl/${host}`)).json().job;
    expect((await untilJobDone(gw, job.id as number)).state).toBe("done");
    const crawl = (await gw.call("GET", `/api/v1/crawl/${host}?limit=200`)).json<{ pages: { url: string; status: number; redirects: unknown[] }[]; summary: { pages: number } }>();
    // Every URL is listed once; a redirecting URL is a row of its own with its hops and no page facts.
    const rows = new Map(crawl.pages.map((p) => [p.url, p]));
    expect([...rows.keys()].sort()).toEqual([u("/"), u("/about"), u("/contact"), u("/index.html"), u("/old")].sort());
    const direct = crawl.pages.filter((p) => p.redirects.length === 0).map((p) => p.url).sort();
    expect(direct).toEqual([u("/"), u("/about"), u("/contact")].sort());
    expect(rows.get(u("/old"))).toMatchObject({ final_url: u("/about"), title: "", words: 0, issues: [] });
    expect(crawl.summary.pages).toBe(3);
    const links = (await gw.call("GET", `/api/v1/links/${host}`)).json<{ duplicates: { titles: unknown[]; descriptions?: unknown[]; urls: unknown[] } }>();
    expect(links.duplicates.titles).toEqual([]);
    expect(links.duplicates.urls).toEqual([]);
    if (links.duplicates.descriptions) expect(links.duplicates.descriptions).toEqual([]);
    const items = await report();
    expect(items.get("title_duplicate")).toMatchObject({ status: "pass", value: 0 });
    expect(items.get("description_duplicate")).toMatchObject({ status: "pass", value: 0 });
  });
});
