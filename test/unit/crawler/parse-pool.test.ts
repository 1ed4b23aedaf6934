import { afterAll, describe, expect, it } from "vitest";
import { crawledPage } from "../../../crawler/page/crawled-page.ts";
import { extractPage } from "../../../crawler/page/extract.ts";
import { ParseThreadCrashedError, threadParsePool } from "../../../crawler/page/parse-pool.ts";
import { warmUp, warmUpPage } from "../../../crawler/page/warm-up.ts";
import { HttpResponse } from "../../../proto/index.ts";

const URL_ = "http://site.test/caf%C3%A9";

function input(body: Uint8Array, charset: string) {
  const response = HttpResponse.fromPartial({ requestedUrl: URL_, finalUrl: URL_, status: 200, contentType: "text/html", charset, bodyBytes: body.length });
  return { url: URL_, depth: 2, response, html: "", body, originHost: "site.test", origin: "http://site.test", site: "site.test", checkedAt: 1 };
}

const HTML = `<html lang="fr"><head><title>Café crème</title></head><body><h1>Crème brûlée</h1><p>${"déjà vu ".repeat(800)}</p><a href="/menu">Menu</a><a href="https://other.test/">ailleurs</a></body></html>`;

describe("warm-up pages", () => {
  it("run the page path a crawl runs: links of every kind, checks that fail, text that differs per page", () => {
    const a = crawledPage(warmUpPage(0));
    const b = crawledPage(warmUpPage(1));
    expect(a.isHtml).toBe(true);
    expect(a.title).toContain("Warm-up 0");
    expect(a.internalLinks.length).toBeGreaterThan(80);
    expect(a.externalLinks.length).toBeGreaterThan(3);
    expect(a.nofollowInternal.length).toBe(0);
    expect(a.hreflang.map((h) => h.hreflang)).toEqual(["en", "fr", "x-default"]);
    expect(a.words).toBeGreaterThan(2000);
    expect(a.issues.length).toBeGreaterThan(0);
    expect(a.contentHash).not.toBe(b.contentHash);
    // Features come and go between pages, as on real sites (V8 compiles for what it has seen).
    expect(b.hreflang).toEqual([]);
    expect(b.canonical).toBe("");
    expect(b.nofollowInternal.length).toBeGreaterThan(0);
    expect(a.canonical).toBe(a.url);
    expect(warmUp(3)).toBe([0, 1, 2].reduce((n, i) => n + crawledPage(warmUpPage(i)).internalLinks.length + crawledPage(warmUpPage(i)).externalLinks.length, 0));
  });
});

describe("threadParsePool", () => {
  const pool = threadParsePool(1, 2);
  afterAll(() => pool.close());

  it("is ready once its thread has loaded and warmed up", async () => {
    await expect(pool.ready()).resolves.toBeUndefined();
  });

  it("decodes a body on the thread by the response's charset: the same page as from the text", async () => {
    const latin1 = Buffer.from(HTML, "latin1");
    const { body: _bytes, ...asText } = input(latin1, "iso-8859-1");
    const expected = crawledPage({ ...asText, html: HTML });
    const own = new Uint8Array(latin1.length);
    own.set(latin1);
    const page = await pool.page(input(own, "iso-8859-1"));
    expect(page).toEqual(expected);
    expect(page.title).toBe("Café crème");
    // The bytes moved to the thread: the caller's view is empty now.
    expect(own.byteLength).toBe(0);
  });

  it("extracts an analysis's page on the thread: the same facts as in the calling thread", async () => {
    const response = HttpResponse.fromPartial({ requestedUrl: URL_, finalUrl: URL_, status: 200, contentType: "text/html", charset: "utf-8", bodyBytes: HTML.length });
    const input = { url: URL_, response, html: HTML, depth: 1 };
    const there = await pool.extract(input);
    expect(there).toEqual(extractPage(input));
    expect(there.facts.title).toBe("Café crème");
    expect(there.facts.links.map((l) => [l.href, l.internal])).toEqual([["http://site.test/menu", true], ["https://other.test/", false]]);
  });

  it("copies a body that shares its memory (a slice of a pooled Buffer) instead of moving it", async () => {
    const utf8 = Buffer.from(HTML, "utf8");
    const big = Buffer.concat([Buffer.from("xxxx"), utf8, Buffer.from("yyyy")]);
    const slice = big.subarray(4, 4 + utf8.length);
    const page = await pool.page(input(slice, "utf-8"));
    expect(page.title).toBe("Café crème");
    expect(page.internalLinks).toEqual(["http://site.test/menu"]);
    expect(big.subarray(0, 4).toString()).toBe("xxxx");
    expect(slice.toString("utf8")).toBe(HTML);
  });
});

// Real threads and a real out-of-memory crash (a stand-in thread with a 32 MB heap).

const page = (url: string) => ({ url, depth: 0, html: "", originHost: "x", origin: "http://x", site: "x", checkedAt: 0, response: {} }) as never;

describe("threadParsePool when a thread crashes", () => {
  it("loses only the task a thread crashed on; every other task, queued anywhere, completes", { timeout: 60_000 }, async () => {
    const pool = threadParsePool(2, 0, { entry: new URL("./threads/oom-thread.ts", import.meta.url), resourceLimits: { maxOldGenerationSizeMb: 32 } });
    try {
      await pool.ready();
      const urls = Array.from({ length: 200 }, (_, i) => (i === 37 ? "http://x/oom" : `http://x/${i}`));
      const outcomes = await Promise.allSettled(urls.map((url) => pool.page(page(url))));
      const failed = outcomes.flatMap((o, i) => (o.status === "rejected" ? [{ url: urls[i], reason: o.reason as Error }] : []));
      expect(failed.map((f) => f.url)).toEqual(["http://x/oom"]);
      expect(failed[0]?.reason).toBeInstanceOf(ParseThreadCrashedError);
      expect(failed[0]?.reason.message).toMatch(/^the parse thread running this page crashed: ERR_WORKER_OUT_OF_MEMORY/);
      expect(outcomes.filter((o) => o.status === "fulfilled").map((o) => (o as PromiseFulfilledResult<{ url: string }>).value.url)).toEqual(
        urls.filter((u) => u !== "http://x/oom"),
      );
      // The crashed thread was replaced: the pool still has two threads' worth of work in it.
      const again = await Promise.all(["http://x/a", "http://x/b", "http://x/c"].map((url) => pool.page(page(url))));
      expect(again).toEqual([{ url: "http://x/a" }, { url: "http://x/b" }, { url: "http://x/c" }]);
    } finally {
      await pool.close();
    }
  });

  it("replaces a thread once it analysed a crawl of 5,000 pages or more, and keeps one that analysed a smaller crawl", async () => {
    const pool = threadParsePool(1, 0, { entry: new URL("./threads/thread-id.ts", import.meta.url) });
    // The stand-in thread reads no facts: only the number of pages matters to the pool.
    const crawl = (pages: number) => ({ jobId: 1, crawledAt: 1, facts: { urls: [], pages: new Array(pages).fill(null) }, sitemapUrls: [], truncatedBy: "", traps: [], external: [], politeness: { delayMs: 0, connections: 1, throttled: 0, retryAfterWaitS: 0 }, durationMs: 1 }) as unknown as Parameters<typeof pool.analyze>[0];
    const idOf = async (p: Promise<unknown>) => ((await p) as { threadId: number }).threadId;
    try {
      await pool.ready();
      const first = await idOf(pool.page(page("http://x/1")));
      expect(await idOf(pool.analyze(crawl(4999)))).toBe(first);
      expect(await idOf(pool.page(page("http://x/2")))).toBe(first);
      expect(await idOf(pool.analyze(crawl(5000)))).toBe(first);
      const second = await idOf(pool.page(page("http://x/3")));
      expect(second).not.toBe(first);
      expect(await idOf(pool.page(page("http://x/4")))).toBe(second);
    } finally {
      await pool.close();
    }
  });
});

describe("threadParsePool with an idle limit", () => {
  it("lets its threads go when idle and starts them again, on fresh threads, for the next task", async () => {
    const pool = threadParsePool(2, 0, { entry: new URL("./threads/thread-id.ts", import.meta.url), idleMs: 50 });
    const idOf = async (p: Promise<unknown>) => ((await p) as { threadId: number }).threadId;
    const until = async (ok: () => boolean) => {
      while (!ok()) await new Promise((r) => setTimeout(r, 10));
    };
    try {
      await pool.ready();
      expect(pool.threads()).toBe(2);
      const before = await idOf(pool.page(page("http://x/1")));
      await until(() => pool.threads() === 0);
      const after = await Promise.all(["http://x/2", "http://x/3", "http://x/4"].map((url) => idOf(pool.page(page(url)))));
      expect(pool.threads()).toBe(2);
      expect(after).not.toContain(before);
      expect(new Set(after).size).toBeLessThanOrEqual(2);
    } finally {
      await pool.close();
    }
  });

  it("lets every thread go as soon as it has analysed a crawl of 5,000 pages or more, and starts them again for the next task", async () => {
    // An idle limit far beyond the test: only the analysis's end lets the threads go.
    const pool = threadParsePool(2, 0, { entry: new URL("./threads/thread-id.ts", import.meta.url), idleMs: 600_000 });
    const crawl = (pages: number) => ({ jobId: 1, crawledAt: 1, facts: { urls: [], pages: new Array(pages).fill(null) }, sitemapUrls: [], truncatedBy: "", traps: [], external: [], politeness: { delayMs: 0, connections: 1, throttled: 0, retryAfterWaitS: 0 }, durationMs: 1 }) as unknown as Parameters<typeof pool.analyze>[0];
    const idOf = async (p: Promise<unknown>) => ((await p) as { threadId: number }).threadId;
    try {
      await pool.ready();
      const before = await Promise.all(["http://x/1", "http://x/2"].map((url) => idOf(pool.page(page(url)))));
      await pool.analyze(crawl(4999));
      expect(pool.threads()).toBe(2);
      await pool.analyze(crawl(5000));
      expect(pool.threads()).toBe(0);
      const after = await Promise.all(["http://x/3", "http://x/4", "http://x/5"].map((url) => idOf(pool.page(page(url)))));
      expect(pool.threads()).toBe(2);
      for (const id of after) expect(before).not.toContain(id);
    } finally {
      await pool.close();
    }
  });

  it("lets the other threads go while one analyses a crawl of 5,000 pages or more, and starts one again for a task queued meanwhile", async () => {
    const pool = threadParsePool(2, 0, { entry: new URL("./threads/thread-id.ts", import.meta.url), idleMs: 600_000 });
    const crawl = (pages: number) => ({ jobId: 1, crawledAt: 1, facts: { urls: [], pages: new Array(pages).fill(null) }, sitemapUrls: [], truncatedBy: "", traps: [], external: [], politeness: { delayMs: 0, connections: 1, throttled: 0, retryAfterWaitS: 0 }, durationMs: 1 }) as unknown as Parameters<typeof pool.analyze>[0];
    const idOf = async (p: Promise<unknown>) => ((await p) as { threadId: number }).threadId;
    try {
      await pool.ready();
      const before = await Promise.all(["http://x/1", "http://x/2"].map((url) => idOf(pool.page(page(url)))));
      expect(new Set(before).size).toBe(2);
      const small = pool.analyze(crawl(4999));
      expect(pool.threads()).toBe(2);
      await small;
      const large = pool.analyze(crawl(5000));
      expect(pool.threads()).toBe(1);
      const meanwhile = idOf(pool.page(page("http://x/3")));
      expect(pool.threads()).toBe(2);
      const [, ran] = await Promise.all([large, meanwhile]);
      expect(before).not.toContain(ran);
    } finally {
      await pool.close();
    }
  });

  it("keeps its threads while tasks keep coming", async () => {
    const pool = threadParsePool(1, 0, { entry: new URL("./threads/thread-id.ts", import.meta.url), idleMs: 200 });
    const idOf = async (p: Promise<unknown>) => ((await p) as { threadId: number }).threadId;
    try {
      await pool.ready();
      const first = await idOf(pool.page(page("http://x/0")));
      // Ten tasks 50 ms apart: never 200 ms without one.
      for (let i = 1; i <= 10; i++) {
        await new Promise((r) => setTimeout(r, 50));
        expect(await idOf(pool.page(page(`http://x/${i}`)))).toBe(first);
      }
      expect(pool.threads()).toBe(1);
    } finally {
      await pool.close();
    }
  });
});

