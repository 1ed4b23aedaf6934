// The pure parts of issue 16: the performance score of a lab run, the raw-against-rendered verdicts,
// social cards and profiles, card image sizes, and which pages the browser measures.
import { describe, expect, it } from "vitest";
import { browserSection, carryBrowserRun, CARRY_MAX_AGE_S, comparePage, networkOf, performanceRegressions, performanceScore, socialCard, UNTHROTTLED, type BrowserPageReport } from "../../../analyzer/index.ts";
import { imageSize, mostLinked } from "../../../crawler/index.ts";
import { BrowserMetrics, PageFacts, RenderedDom, SiteFacts, SocialImage } from "../../../proto/index.ts";
import { png } from "../../harness/lab-pages.ts";

describe("performance score", () => {
  it("is Lighthouse's weighted mean without Speed Index: every metric at its p10 scores 90, on the profile's curves", () => {
    const atMobileP10 = BrowserMetrics.fromPartial({ profile: "mobile", fcpMs: 1800, lcpMs: 2500, tbtMs: 200, cls: 0.1 });
    expect(performanceScore(atMobileP10)).toBe(90);
    // The same run judged on the desktop curves (p10 934/1200/150 ms) is worse: only CLS stays at 0.9.
    expect(performanceScore({ ...atMobileP10, profile: "desktop" })).toBeLessThan(75);
    expect(performanceScore(BrowserMetrics.fromPartial({ profile: "desktop", fcpMs: 934, lcpMs: 1200, tbtMs: 150, cls: 0.1 }))).toBe(90);
    // A fast page: 100; TBT (weight 30 of 90) at its median alone: 100 − 30·0.5/0.9 ≈ 83.
    expect(performanceScore(BrowserMetrics.fromPartial({ profile: "mobile", fcpMs: 100, lcpMs: 100, tbtMs: 0, cls: 0 }))).toBe(100);
    expect(performanceScore(BrowserMetrics.fromPartial({ profile: "mobile", fcpMs: 100, lcpMs: 100, tbtMs: 600, cls: 0 }))).toBe(83);
  });

  it("is null for a page that was not measured or never painted", () => {
    expect(performanceScore(BrowserMetrics.fromPartial({ error: "timeout", fcpMs: 100 }))).toBeNull();
    expect(performanceScore(BrowserMetrics.fromPartial({ cls: 0 }))).toBeNull();
  });
});

const raw = (p: Partial<PageFacts>) => PageFacts.fromPartial({ isHtml: true, title: "T", wordCount: 100, ...p });
const rendered = (r: Partial<RenderedDom>) => RenderedDom.fromPartial({ present: true, title: "T", wordCount: 100, ...r });

describe("JavaScript dependency of a page", () => {
  it("is none when the rendered DOM says what the HTML says", () => {
    const p = comparePage("https://a.test/", raw({ links: [{ href: "https://a.test/x", text: "x", nofollow: false, internal: true }] }), rendered({ links: ["https://a.test/x"] }));
    expect({ verdict: p.verdict, reasons: p.reasons }).toEqual({ verdict: "none", reasons: [] });
  });

  it("is low for a few words or links added, medium for a description, structured data or a fifth of the text, high for the title or half the text", () => {
    const nine = Array.from({ length: 9 }, (_, i) => `https://a.test/${i}`);
    const low = comparePage("u", raw({ links: nine.map((href) => ({ href, text: "", nofollow: false, internal: true })) }), rendered({ wordCount: 110, links: [...nine, "https://a.test/late"] }));
    expect({ verdict: low.verdict, reasons: low.reasons }).toEqual({ verdict: "low", reasons: ["10 words exist only after JavaScript", "1 links exist only after JavaScript"] });
    expect(comparePage("u", raw({}), rendered({ metaDescription: "late" })).verdict).toBe("medium");
    expect(comparePage("u", raw({}), rendered({ schemaTypes: ["Product"] })).reasons).toEqual(["structured data only after JavaScript: Product"]);
    expect(comparePage("u", raw({}), rendered({ wordCount: 130 })).verdict).toBe("medium"); // 30/130 = 23 %
    expect(comparePage("u", raw({}), rendered({ wordCount: 200 })).verdict).toBe("high"); // 50 %
    const retitled = comparePage("u", raw({}), rendered({ title: "Other" }));
    expect({ verdict: retitled.verdict, title: retitled.title }).toEqual({ verdict: "high", title: { raw: "T", rendered: "Other", state: "changed" } });
    expect(comparePage("u", raw({}), rendered({ metaRobots: "noindex" })).robots.state).toBe("added");
  });
});

describe("social cards", () => {
  const page = (og: Record<string, string>, tw: Record<string, string> = {}) =>
    PageFacts.fromPartial({
      isHtml: true,
      response: { status: 200, finalUrl: "https://a.test/p", requestedUrl: "https://a.test/p" },
      openGraph: Object.entries(og).map(([key, content]) => ({ key, content })),
      twitter: Object.entries(tw).map(([key, content]) => ({ key, content })),
    });
  const complete = { "og:title": "T", "og:type": "website", "og:image": "https://a.test/i.png", "og:url": "https://a.test/p", "og:description": "D" };
  const image = (width: number, height: number, status = 200) => new Map([["https://a.test/i.png", SocialImage.fromPartial({ url: "https://a.test/i.png", status, contentType: "image/png", width, height })]]);
  const states = (c: ReturnType<typeof socialCard>) => Object.fromEntries(c.checks.map((x) => [x.code, x.status]));

  it("passes a complete large card with a 1200 × 630 image", () => {
    const card = socialCard(page(complete, { "twitter:card": "summary_large_image" }), image(1200, 630));
    expect({ score: card.score, image: card.image?.url }).toEqual({ score: 100, image: "https://a.test/i.png" });
  });

  it("judges size and aspect by the card type: a 400 × 400 image suits a summary card, not a large one", () => {
    expect(states(socialCard(page(complete, { "twitter:card": "summary" }), image(400, 400)))).toMatchObject({ image_size: "pass", image_aspect: "pass" });
    expect(states(socialCard(page(complete, { "twitter:card": "summary_large_image" }), image(400, 400)))).toMatchObject({ image_size: "pass", image_aspect: "warn" });
    expect(states(socialCard(page(complete, { "twitter:card": "summary_large_image" }), image(300, 157)))).toMatchObject({ image_size: "fail" }); // under 200 px high
  });

  it("fails missing properties, an unknown card type and an image that does not load", () => {
    const card = socialCard(page({ "og:title": "T", "og:image": "/i.png" }, { "twitter:card": "big" }), image(0, 0, 404));
    expect(states(card)).toEqual({ og_required: "fail", og_description: "warn", twitter_card: "fail", image_reachable: "fail", image_size: "fail", image_aspect: "fail" });
    expect(card.checks[0]?.detail).toBe("missing og:type, og:url");
    expect(card.score).toBe(0);
  });

  it("judges a twitter:image other than the og:image on its own, and both must be absolute (B10)", () => {
    // The findings' social page: a good og:image, and twitter:image=/missing.png (relative, 404), which X would show.
    const images = new Map([...image(1200, 630), ["https://a.test/missing.png", SocialImage.fromPartial({ url: "https://a.test/missing.png", status: 404, contentType: "text/html" })]]);
    const card = socialCard(page(complete, { "twitter:card": "summary_large_image", "twitter:image": "/missing.png" }), images);
    expect(card.checks.find((c) => c.code === "image_reachable")).toEqual({
      code: "image_reachable",
      status: "fail",
      detail: 'twitter:image "/missing.png" is relative: scrapers need an absolute URL; twitter:image https://a.test/missing.png answered 404 (text/html)',
    });
    expect(states(card)).toMatchObject({ image_size: "pass", image_aspect: "pass" });
    // The same image under both names, absolute, is one image and passes.
    const same = socialCard(page(complete, { "twitter:card": "summary_large_image", "twitter:image": "https://a.test/i.png" }), image(1200, 630));
    expect([same.score, same.checks.find((c) => c.code === "image_reachable")?.detail]).toEqual([100, "https://a.test/i.png answered 200 (image/png)"]);
    // A relative og:image fails though it loads.
    const relative = socialCard(page({ ...complete, "og:image": "/i.png" }, { "twitter:card": "summary_large_image" }), image(1200, 630));
    expect(relative.checks.find((c) => c.code === "image_reachable")?.status).toBe("fail");
  });
});

describe("social profiles", () => {
  it("recognises profile links by network and leaves share links out", () => {
    expect(networkOf("https://www.facebook.com/svc")).toBe("facebook");
    expect(networkOf("https://www.facebook.com/sharer/sharer.php?u=x")).toBeNull();
    expect(networkOf("https://twitter.com/svc")).toBe("x");
    expect(networkOf("https://twitter.com/intent/tweet?text=x")).toBeNull();
    expect(networkOf("https://t.me/svc")).toBe("telegram");
    expect(networkOf("https://x.com/")).toBeNull();
    expect(networkOf("https://example.com/facebook.com")).toBeNull();
  });
});

describe("card image sizes", () => {
  it("reads PNG, GIF, JPEG and WebP headers", () => {
    expect(imageSize(png(1200, 630))).toEqual({ width: 1200, height: 630 });
    const gif = Buffer.from("GIF89a\x20\x03\x58\x02", "latin1");
    expect(imageSize(gif)).toEqual({ width: 800, height: 600 });
    // SOI, an APP0 segment of 16 bytes, then SOF0: precision 8, height 630, width 1200.
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.alloc(14), Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, 0x02, 0x76, 0x04, 0xb0]), Buffer.alloc(12)]);
    expect(imageSize(jpeg)).toEqual({ width: 1200, height: 630 });
    const webp = Buffer.alloc(30);
    webp.write("RIFF", 0, "ascii");
    webp.write("WEBPVP8X", 8, "ascii");
    webp.writeUIntLE(1199, 24, 3);
    webp.writeUIntLE(629, 27, 3);
    expect(imageSize(webp)).toEqual({ width: 1200, height: 630 });
    expect(imageSize(Buffer.from("<svg/>"))).toBeNull();
  });
});

describe("pages the browser measures", () => {
  it("takes the sample pages with the most internal links to them, HTML that answered 2xx only", () => {
    const link = (href: string) => ({ href, text: "", nofollow: false, internal: true });
    const page = (url: string, links: string[], status = 200) => PageFacts.fromPartial({ isHtml: true, response: { status, finalUrl: url, requestedUrl: url }, links: links.map(link) });
    const home = page("https://a.test/", ["https://a.test/a", "https://a.test/b", "https://a.test/c"]);
    const a = page("https://a.test/a", ["https://a.test/b"]);
    const b = page("https://a.test/b", ["https://a.test/c", "https://a.test/a", "https://a.test/gone"]);
    const c = page("https://a.test/c", []);
    const gone = page("https://a.test/gone", ["https://a.test/c"], 404);
    expect(mostLinked([home, a, b, c, gone], "https://a.test/", 2)).toEqual(["https://a.test/a", "https://a.test/b"]);
    expect(mostLinked([home, a, b, c, gone], "https://a.test/", 0)).toEqual([]);
    expect(mostLinked([home, c, gone], "https://a.test/", 5)).toEqual(["https://a.test/c"]);
  });
});

describe("performance regressions between two checks", () => {
  const run = (p: Partial<BrowserPageReport>): BrowserPageReport => ({
    device: "mobile", url: "https://a.test/", checked_at: 0, score: 95, lcp_ms: 1000, lcp_element: "", cls: 0, inp_ms: null, tbt_ms: 0, fcp_ms: 800, ttfb_ms: 50,
    requests: 1, bytes: 1, bytes_by_type: {}, dom_elements: 1, render_blocking: [], error: "", abandoned: "", ...p,
  });
  it("reports a page of the same profile that lost 10 points, and nothing for noise or other pages", () => {
    expect(performanceRegressions([run({})], [run({ score: 86, tbt_ms: 150 })])).toEqual([]);
    expect(performanceRegressions([run({})], [run({ score: 85 })])).toEqual([
      { device: "mobile", url: "https://a.test/", score_from: 95, score_to: 85, metrics: [{ metric: "score", from: 95, to: 85 }], changes: ["score 95 → 85"] },
    ]);
    expect(performanceRegressions([run({})], [run({ score: 90, tbt_ms: 250 })])[0]?.changes).toEqual(["tbt_ms 0 → 250"]);
    expect(performanceRegressions([run({})], [run({ device: "desktop", score: 10 }), run({ url: "https://a.test/x", score: 10 })])).toEqual([]);
    expect(performanceRegressions([run({ error: "timeout" })], [run({ score: 10 })])).toEqual([]);
    expect(performanceRegressions([run({})], [run({ error: "timeout", score: null, lcp_ms: null })])).toEqual([]);
  });

  it("compares only runs of the same throttling method: switching SVC_BROWSER_THROTTLING is no regression", () => {
    const devtools = { method: "devtools" as const, cpu_slowdown: 4, request_latency_ms: 562.5, download_kbps: 1474.56, upload_kbps: 675 };
    // A stored report from before runs stated their throttling was unthrottled, as is "provided".
    expect(performanceRegressions([run({})], [run({ throttling: devtools, score: 60, lcp_ms: 5000 })])).toEqual([]);
    expect(performanceRegressions([run({ throttling: UNTHROTTLED })], [run({ throttling: devtools, score: 60 })])).toEqual([]);
    expect(performanceRegressions([run({ throttling: devtools })], [run({ throttling: devtools, score: 60 })])[0]?.changes).toEqual(["score 95 → 60"]);
    expect(performanceRegressions([run({})], [run({ throttling: UNTHROTTLED, score: 60 })])[0]?.changes).toEqual(["score 95 → 60"]);
  });

  it("counts a metric as regressed only beyond both its relative and its absolute threshold, and past good", () => {
    const metricsOf = (before: Partial<BrowserPageReport>, after: Partial<BrowserPageReport>) => performanceRegressions([run(before)], [run(after)]).flatMap((r) => r.metrics);
    // LCP: +20 % and +300 ms, past 2500 ms on mobile (1200 on desktop).
    expect(metricsOf({ lcp_ms: 2300 }, { lcp_ms: 2599 })).toEqual([]);
    expect(metricsOf({ lcp_ms: 2300 }, { lcp_ms: 2800 })).toEqual([{ metric: "lcp_ms", from: 2300, to: 2800 }]);
    expect(metricsOf({ lcp_ms: 2500 }, { lcp_ms: 2999 })).toEqual([]);
    expect(metricsOf({ lcp_ms: 2500 }, { lcp_ms: 3000 })).toEqual([{ metric: "lcp_ms", from: 2500, to: 3000 }]);
    expect(metricsOf({ lcp_ms: 1000 }, { lcp_ms: 1400 })).toEqual([]);
    expect(metricsOf({ device: "desktop", lcp_ms: 1000 }, { device: "desktop", lcp_ms: 1400 })).toEqual([{ metric: "lcp_ms", from: 1000, to: 1400 }]);
    // FCP: +20 % and +200 ms, past 1800 ms; a fast page's +50 % is noise.
    expect(metricsOf({ fcp_ms: 60 }, { fcp_ms: 90 })).toEqual([]);
    expect(metricsOf({ fcp_ms: 800 }, { fcp_ms: 1000 })).toEqual([]);
    expect(metricsOf({ fcp_ms: 1600 }, { fcp_ms: 2000 })).toEqual([{ metric: "fcp_ms", from: 1600, to: 2000 }]);
    // TBT: +20 % and +200 ms, past 200 ms.
    expect(metricsOf({ tbt_ms: 0 }, { tbt_ms: 199 })).toEqual([]);
    expect(metricsOf({ tbt_ms: 0 }, { tbt_ms: 250 })).toEqual([{ metric: "tbt_ms", from: 0, to: 250 }]);
    expect(metricsOf({ tbt_ms: 1200 }, { tbt_ms: 1400 })).toEqual([]);
    expect(metricsOf({ tbt_ms: 1200 }, { tbt_ms: 1440 })).toEqual([{ metric: "tbt_ms", from: 1200, to: 1440 }]);
    // CLS: +20 % and +0.05, past 0.1.
    expect(metricsOf({ cls: 0 }, { cls: 0.09 })).toEqual([]);
    expect(metricsOf({ cls: 0.1 }, { cls: 0.15 })).toEqual([{ metric: "cls", from: 0.1, to: 0.15 }]);
    expect(metricsOf({ cls: 0.3 }, { cls: 0.35 })).toEqual([]);
    // INP: +20 % and +100 ms, past 200 ms; none before means nothing to compare.
    expect(metricsOf({ inp_ms: 50 }, { inp_ms: 180 })).toEqual([]);
    expect(metricsOf({ inp_ms: 200 }, { inp_ms: 299 })).toEqual([]);
    expect(metricsOf({ inp_ms: 200 }, { inp_ms: 300 })).toEqual([{ metric: "inp_ms", from: 200, to: 300 }]);
    expect(metricsOf({ inp_ms: null }, { inp_ms: 900 })).toEqual([]);
    // Better is never a regression.
    expect(metricsOf({ lcp_ms: 4000, tbt_ms: 900 }, { lcp_ms: 1000, tbt_ms: 0 })).toEqual([]);
    // Several at once, in a fixed order.
    expect(metricsOf({}, { score: 40, fcp_ms: 2000, lcp_ms: 5000, cls: 0.25 }).map((m) => m.metric)).toEqual(["score", "fcp_ms", "lcp_ms", "cls"]);
  });
});

describe("each run states its throttling", () => {
  const devtools = { method: "devtools", cpuSlowdown: 4, requestLatencyMs: 562.5, downloadKbps: 1474.56, uploadKbps: 675 };
  const facts = SiteFacts.fromPartial({
    checkedAt: 1000,
    browserState: "measured",
    browserPages: [
      { url: "https://a.test/", profile: "mobile", checkedAt: 1000, fcpMs: 900, throttling: devtools, nodeLoad: 0.42 },
      { url: "https://a.test/", profile: "desktop", checkedAt: 1000, fcpMs: 300, throttling: { method: "devtools", cpuSlowdown: 1 } },
    ],
  });

  it("shows the method, CPU slowdown, network figures and the node's load per run, and says them in the note", () => {
    const section = browserSection(facts);
    expect(section.pages.map((p) => ({ throttling: p.throttling, node_load: p.node_load }))).toEqual([
      { throttling: { method: "devtools", cpu_slowdown: 4, request_latency_ms: 562.5, download_kbps: 1474.56, upload_kbps: 675 }, node_load: 0.42 },
      { throttling: { method: "devtools", cpu_slowdown: 1, request_latency_ms: 0, download_kbps: 0, upload_kbps: 0 }, node_load: null },
    ]);
    expect(section.note).toBe(
      "Measured in headless Chromium, lab runs: 1 page mobile, DevTools throttling (4× CPU, 562.5 ms latency, 1474.56/675 Kbit/s); 1 page desktop, DevTools throttling (none, as Lighthouse's desktop preset). The rank's metric checks use the home page's first profile.",
    );
  });

  it("reads a run from before runs stated it as unthrottled, and carries a run's throttling forward with it", () => {
    const old = browserSection(SiteFacts.fromPartial({ browserState: "measured", browserPages: [{ url: "https://a.test/", profile: "mobile", fcpMs: 900 }] }));
    expect(old.pages[0]?.throttling).toEqual(UNTHROTTLED);
    expect(old.note).toContain("1 page mobile, unthrottled.");
    const carried = carryBrowserRun(SiteFacts.fromPartial({ checkedAt: 2000, browserState: "sync" }), browserSection(facts), 1000, 2000);
    expect(carried.browser?.throttling).toEqual({ ...devtools, rttMs: 0, throughputKbps: 0 });
    expect(carried.browser?.nodeLoad).toBe(0.42);
  });

  it("states a simulated run's assumed round trip and throughput, says it in the note, and carries them forward", () => {
    const simulate = { method: "simulate", cpuSlowdown: 4, rttMs: 150, throughputKbps: 1638.4 };
    const simulated = SiteFacts.fromPartial({ checkedAt: 1000, browserState: "measured", browserPages: [{ url: "https://a.test/", profile: "mobile", checkedAt: 1000, fcpMs: 1800, throttling: simulate }] });
    const section = browserSection(simulated);
    expect(section.pages[0]?.throttling).toEqual({ method: "simulate", cpu_slowdown: 4, request_latency_ms: 0, download_kbps: 0, upload_kbps: 0, rtt_ms: 150, throughput_kbps: 1638.4 });
    expect(section.note).toContain("1 page mobile, simulated throttling as Lighthouse's default (4× CPU, 150 ms RTT, 1638.4 Kbit/s)");
    const carried = carryBrowserRun(SiteFacts.fromPartial({ checkedAt: 2000, browserState: "sync" }), section, 1000, 2000);
    expect(carried.browser?.throttling).toEqual({ ...simulate, requestLatencyMs: 0, downloadKbps: 0, uploadKbps: 0 });
  });
});

describe("the rank's stability rule: a check without a home-page run carries the last one forward", () => {
  const measured = SiteFacts.fromPartial({
    checkedAt: 1000,
    browserState: "measured",
    browserPages: [{ url: "https://a.test/", profile: "mobile", checkedAt: 1000, fcpMs: 900, lcpMs: 1500, cls: 0.02, tbtMs: 40 }],
    browser: { url: "https://a.test/", profile: "mobile", checkedAt: 1000, fcpMs: 900, lcpMs: 1500, cls: 0.02, tbtMs: 40 },
  });
  const previous = browserSection(measured);

  it("uses the previous home-page run for a check that measured none, and says so", () => {
    const sync = SiteFacts.fromPartial({ checkedAt: 2000, browserState: "sync" });
    const carried = carryBrowserRun(sync, previous, 1000, 2000);
    expect(carried.browser).toMatchObject({ url: "https://a.test/", fcpMs: 900, lcpMs: 1500, cls: 0.02, tbtMs: 40 });
    const section = browserSection(carried);
    expect({ pages: section.pages, carried: section.carried?.lcp_ms }).toEqual({ pages: [], carried: 1500 });
    expect(section.note).toContain("carried forward");
    // A later check without a run carries the same run on, from the section that carried it.
    expect(carryBrowserRun(sync, section, 2000, 3000).browser?.lcpMs).toBe(1500);
  });

  it("does not carry over a check's own run, a failed run, or past seven days", () => {
    expect(carryBrowserRun(measured, previous, 1000, 2000)).toBe(measured);
    expect(browserSection(measured).carried).toBeUndefined();
    const failed = SiteFacts.fromPartial({ browserState: "measured", browserPages: [{ url: "https://a.test/", error: "timeout" }], browser: { url: "https://a.test/", error: "timeout" } });
    expect(carryBrowserRun(failed, previous, 1000, 2000).browser?.fcpMs).toBe(900);
    const none = SiteFacts.fromPartial({ browserState: "absent" });
    expect(carryBrowserRun(none, previous, 1000, 1000 + CARRY_MAX_AGE_S + 1).browser).toBeUndefined();
    expect(carryBrowserRun(none, browserSection(failed), 1000, 2000).browser).toBeUndefined();
  });
});
