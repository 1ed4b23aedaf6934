import { describe, expect, it } from "vitest";
import { analyzeSite } from "../../../analyzer/analyze.ts";
import { CHECKS } from "../../../analyzer/checks/index.ts";
import { judgeNarrow, projectRank, RECHECK_SCOPES, recheckModeOf, recheckScopeOf, type NarrowContext, type NarrowResult } from "../../../analyzer/followup/index.ts";
import { PageFacts, type DnsFacts, type SiteFacts, type TlsFacts } from "../../../proto/index.ts";
import { healthySite } from "./site-builder.ts";

// Issue 18 §1: the re-check table names, for every catalogued check, the narrowest run that yields
// the facts it reads; a narrow look's facts decide the check, and the rank is projected from the
// last report with the check's result replaced.

// A narrow look's answer: the sync lane's result arm of its kind.
const pageArm = (facts: PageFacts): NarrowResult => ({ $case: "page", value: { facts } });
const dnsArm = (facts: DnsFacts): NarrowResult => ({ $case: "dns", value: { facts } });
const tlsArm = (facts: TlsFacts): NarrowResult => ({ $case: "tls", value: { facts } });

function ctxOf(facts: SiteFacts, code: string, pages?: string[]): NarrowContext {
  const item = analyzeSite(facts).items.find((i) => i.code === code);
  return { host: facts.host, origin: facts.origin, item: item && pages ? { ...item, pages } : item, now: facts.checkedAt };
}

describe("re-check table", () => {
  it("has exactly one family for every catalogued check, and no code the catalogue lacks", () => {
    const listed = RECHECK_SCOPES.flatMap((s) => s.codes);
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual(CHECKS.map((c) => c.code).sort());
  });

  it("sends crawl checks (recheck false) and only them to the crawl family, or to a crawl subset that falls back to it", () => {
    const crawl = CHECKS.filter((c) => !c.recheck).map((c) => c.code).sort();
    expect(RECHECK_SCOPES.filter((s) => s.mode === "crawl" || s.fallback === "crawl").flatMap((s) => s.codes).sort()).toEqual(crawl);
    expect(recheckScopeOf("broken_internal")?.id).toBe("links");
  });

  it("uses the dns kind for DNS checks, tls for certificates, the robots look for robots.txt and sitemaps", () => {
    const facts = healthySite();
    expect(["spf", "dmarc", "mx", "caa", "bimi"].map((c) => recheckModeOf(c, ctxOf(facts, c)).mode)).toEqual(["dns", "dns", "dns", "dns", "dns"]);
    expect(["tls_cert_valid", "tls_cert_expiry", "tls_protocols"].map((c) => recheckModeOf(c, ctxOf(facts, c)).mode)).toEqual(["tls", "tls", "tls"]);
    expect(["robots_txt_fetch", "sitemap_valid", "ai_crawlers_blocked", "lcp", "host_canonical"].map((c) => recheckModeOf(c, ctxOf(facts, c)).mode)).toEqual(["robots", "robots", "robots", "analysis", "analysis"]);
    expect(recheckModeOf("broken_internal", ctxOf(facts, "broken_internal")).mode).toBe("crawl");
    expect(recheckModeOf("home_status", ctxOf(facts, "home_status")).mode).toBe("page");
  });

  it("takes the page kind for a page check only when it failed on one page, and fetches that page", () => {
    const facts = healthySite();
    const scope = recheckScopeOf("h1_present")!;
    const home = ctxOf(facts, "h1_present", [`${facts.origin}/`]);
    const inner = ctxOf(facts, "h1_present", [`${facts.origin}/about/`]);
    expect([home, inner].map((c) => [recheckModeOf("h1_present", c).mode, scope.target!(c)])).toEqual([
      ["page", { $case: "page", value: { url: `${facts.origin}/` } }],
      ["page", { $case: "page", value: { url: `${facts.origin}/about/` } }],
    ]);
    const two = ctxOf(facts, "h1_present", [`${facts.origin}/`, `${facts.origin}/about/`]);
    expect(recheckModeOf("h1_present", two).mode).toBe("pages");
    expect(scope.target!(two)).toEqual({ $case: "recheck", value: { origin: facts.origin, robots: false, urls: [`${facts.origin}/`, `${facts.origin}/about/`] } });
    const ten = Array.from({ length: 10 }, (_, i) => `${facts.origin}/p${i}`);
    expect(recheckModeOf("h1_present", ctxOf(facts, "h1_present", ten)).mode).toBe("pages");
    // Eleven failing pages: more than a re-check fetches; the whole analysis decides.
    expect(recheckModeOf("h1_present", ctxOf(facts, "h1_present", [...ten, `${facts.origin}/p10`])).mode).toBe("analysis");
    // One of the pages on another origin: not this site's fetch to make.
    expect(recheckModeOf("h1_present", ctxOf(facts, "h1_present", [`${facts.origin}/`, "https://elsewhere.example/a"])).mode).toBe("analysis");
    expect(recheckModeOf("h1_present", ctxOf(facts, "h1_present", [])).mode).toBe("analysis");
    expect(recheckModeOf("h1_present", ctxOf(facts, "h1_present", ["https://elsewhere.example/"])).mode).toBe("analysis");
  });

  it("takes the robots look for sitemap_non_canonical only with the pages it failed on, and fetches them with robots.txt", () => {
    const facts = healthySite();
    const scope = recheckScopeOf("sitemap_non_canonical")!;
    const failing = ctxOf(facts, "sitemap_non_canonical", [`${facts.origin}/a`, `${facts.origin}/b`]);
    expect(recheckModeOf("sitemap_non_canonical", failing).mode).toBe("robots");
    expect(scope.target!({ ...failing, code: "sitemap_non_canonical" })).toEqual({ $case: "recheck", value: { origin: facts.origin, robots: true, urls: [`${facts.origin}/a`, `${facts.origin}/b`] } });
    expect(recheckModeOf("sitemap_non_canonical", ctxOf(facts, "sitemap_non_canonical", [])).mode).toBe("analysis");
    const robots = ctxOf(facts, "robots_blocks_all");
    expect(scope.target!({ ...robots, code: "robots_blocks_all" })).toEqual({ $case: "recheck", value: { origin: facts.origin, robots: true, urls: [] } });
  });

  it("says for every crawl check why only a whole crawl decides it", () => {
    for (const family of RECHECK_SCOPES.filter((s) => s.mode === "crawl" || s.fallback === "crawl")) {
      expect(Object.keys(family.whyNot ?? {}).sort()).toEqual([...family.codes].sort());
      for (const reason of Object.values(family.whyNot ?? {})) expect(reason.length).toBeGreaterThan(40);
    }
  });

  it("judges an inner page as a sampled page, and keeps a still-failing page check's last result in the rank", () => {
    const broken = (f: SiteFacts) => {
      f.pages[0]!.headings = f.pages[0]!.headings.filter((h) => h.level !== 1);
    };
    const lastFacts = healthySite(broken);
    const last = analyzeSite(lastFacts);
    const item = last.items.find((i) => i.code === "h1_present")!;
    expect(item.status).toBe("fail");
    expect(item.pages).toHaveLength(1);
    const scope = recheckScopeOf("h1_present")!;
    const ctx = ctxOf(lastFacts, "h1_present");
    const fixedPage = pageArm(healthySite().pages[0]!);
    const fixed = judgeNarrow(scope, "h1_present", scope.facts!(ctx, fixedPage), last);
    expect(fixed.outcome.status).toBe("pass");
    expect(fixed.rankTo).toBe(last.rank + item.gain);
    // Still failing on the home page: the page alone scores 0, the site's check scored higher (the
    // other pages passed), and the rank keeps the report's result rather than the page's.
    const homeFacts = healthySite((f) => {
      f.home!.title = "";
    });
    const homeLast = analyzeSite(homeFacts);
    const homeItem = homeLast.items.find((i) => i.code === "title_present")!;
    const still = judgeNarrow(scope, "title_present", scope.facts!(ctxOf(homeFacts, "title_present"), pageArm(homeFacts.home!)), homeLast);
    expect(still.outcome).toMatchObject({ status: "fail", score: 0 });
    expect(homeItem.score).toBeGreaterThan(0);
    expect(still.rankTo).toBe(homeLast.rank);
    expect(projectRank(homeLast.items, homeLast.caps, "title_present", still.outcome)).toBeLessThan(homeLast.rank);
  });
});

describe("judgeNarrow", () => {
  const noSpf = (f: SiteFacts) => {
    f.dns!.spf = "";
    f.dns!.spfRecords = 0;
  };

  it("decides a DNS check on a lookup alone; rank_to is the rank of the last report with the check fixed", () => {
    const lastFacts = healthySite(noSpf);
    const last = analyzeSite(lastFacts);
    expect(last.items.find((i) => i.code === "spf")?.status).toBe("fail");
    const ctx = ctxOf(lastFacts, "spf");
    const scope = recheckScopeOf("spf")!;
    const narrow = scope.facts!(ctx, dnsArm(healthySite().dns!));
    const judged = judgeNarrow(scope, "spf", narrow, last);
    expect(judged.outcome).toMatchObject({ status: "pass", detail: "one valid SPF record" });
    // The whole analysis of the fixed site gives the same rank the projection does.
    expect(judged.rankTo).toBe(analyzeSite(healthySite()).rank);
    expect(judged.rankTo).toBeGreaterThan(last.rank);
    expect(judged.newTasks).toBe(0);
  });

  it("counts other checks of the family that fail on the narrow facts and did not before", () => {
    const lastFacts = healthySite(noSpf);
    const last = analyzeSite(lastFacts);
    const scope = recheckScopeOf("spf")!;
    const dns = healthySite((f) => {
      noSpf(f);
      f.dns!.dmarc = "";
      f.dns!.caa = [];
    }).dns!;
    const judged = judgeNarrow(scope, "spf", scope.facts!(ctxOf(lastFacts, "spf"), dnsArm(dns)), last);
    expect(judged.outcome.status).toBe("fail");
    expect(judged.rankTo).toBe(last.rank);
    // The oracle: the whole analysis with these DNS facts (BIMI needs an enforced DMARC, so it fails too).
    const whole = analyzeSite(healthySite((f) => (f.dns = dns))).items;
    const failingNow = scope.codes.filter((c) => c !== "spf" && ["fail", "warn"].includes(whole.find((i) => i.code === c)?.status ?? ""));
    expect(failingNow).toEqual(["caa", "dmarc", "bimi"]);
    expect(judged.newTasks).toBe(failingNow.length);
    expect(judged.newTasks).toBeGreaterThan(0);
  });

  it("does not count a sibling that was unmeasured in the last report as a new failure", () => {
    // The last report was taken while DNS answered nothing for DMARC, CAA and BIMI (na): failing now is not new.
    const lastFacts = healthySite(noSpf);
    const measured = analyzeSite(lastFacts);
    const last = { ...measured, items: measured.items.map((i) => (["dmarc", "caa", "bimi"].includes(i.code) ? { ...i, status: "na" as const, score: null } : i)) };
    const scope = recheckScopeOf("spf")!;
    const dns = healthySite((f) => {
      noSpf(f);
      f.dns!.dmarc = "";
      f.dns!.caa = [];
    }).dns!;
    const judged = judgeNarrow(scope, "spf", scope.facts!(ctxOf(lastFacts, "spf"), dnsArm(dns)), last);
    expect(judged.outcome.status).toBe("fail");
    expect(judged.newTasks).toBe(0);
  });

  it("decides a certificate check on a handshake alone", () => {
    const NOW = healthySite().checkedAt;
    const lastFacts = healthySite((f) => {
      f.tls!.protocol = "TLSv1";
    });
    const last = analyzeSite(lastFacts);
    expect(last.items.find((i) => i.code === "tls_protocols")?.status).not.toBe("pass");
    const scope = recheckScopeOf("tls_protocols")!;
    const fixed = judgeNarrow(scope, "tls_protocols", scope.facts!(ctxOf(lastFacts, "tls_protocols"), tlsArm(healthySite().tls!)), last);
    expect(fixed.outcome.status).toBe("pass");
    expect(fixed.rankTo).toBe(analyzeSite(healthySite()).rank);
    expect(NOW).toBe(lastFacts.checkedAt);
  });
});

describe("broken_internal by a crawl subset", () => {
  const O = "https://a.example";
  const crawl = (broken: { url: string; sources: string[] }[], count = broken.length) => ({
    crawledAt: Date.UTC(2026, 10, 20) / 1000,
    brokenCount: count,
    broken: broken.map((b) => ({ ...b, status: 404, error: "" })),
    canonicalCount: 0,
    canonicals: [],
  });
  const pageOf = (url: string, status: number, links: string[] = []) =>
    PageFacts.fromPartial({ response: { requestedUrl: url, finalUrl: url, status }, links: links.map((href) => ({ href, internal: true })) });
  /** A look over a site whose pages are given: each fetch answers as the map says (404 otherwise). */
  const site = (pages: Record<string, { status: number; links?: string[] }>) => {
    const asked: string[][] = [];
    const look = async (urls: readonly string[]) => {
      asked.push([...urls]);
      return SiteFactsOf(urls.map((u) => pageOf(u, pages[u]?.status ?? 404, pages[u]?.links)));
    };
    return { look, asked };
  };
  const SiteFactsOf = (pages: PageFacts[]) => ({ ...healthySite(), home: undefined, pages }) as SiteFacts;
  const ctx = (c: ReturnType<typeof crawl> | undefined): NarrowContext => ({ host: "a.example", origin: O, code: "broken_internal", item: undefined, now: 0, ...(c ? { crawl: c } : {}) });
  const scope = recheckScopeOf("broken_internal")!;

  it("applies only when the crawl listed every broken target, at most 10, linked from at most 10 pages; else 422 (crawl)", () => {
    const two = crawl([{ url: `${O}/gone`, sources: [`${O}/`, `${O}/a`] }, { url: `${O}/old`, sources: [`${O}/a`] }]);
    expect(recheckModeOf("broken_internal", ctx(two)).mode).toBe("links");
    expect(recheckModeOf("broken_internal", ctx(undefined)).mode).toBe("crawl");
    // The report lists 2 of 3 counted: not the whole set.
    expect(recheckModeOf("broken_internal", ctx({ ...two, brokenCount: 3 })).mode).toBe("crawl");
    const manySources = crawl([{ url: `${O}/gone`, sources: Array.from({ length: 11 }, (_, i) => `${O}/p${i}`) }]);
    expect(recheckModeOf("broken_internal", ctx(manySources)).mode).toBe("crawl");
  });

  it("is fixed when no linking page links to a broken target any more, without fetching the targets", async () => {
    const c = crawl([{ url: `${O}/gone`, sources: [`${O}/`, `${O}/a`] }]);
    const s = site({ [`${O}/`]: { status: 200, links: [`${O}/a`] }, [`${O}/a`]: { status: 200, links: [`${O}/`, `${O}/new`] } });
    const outcome = await scope.decide!(ctx(c), s.look);
    expect(outcome).toMatchObject({ status: "pass", value: 0, detail: "1 broken target(s) of the crawl of 2026-11-20, 2 linking page(s) fetched again: none is linked and broken any more" });
    expect(s.asked).toEqual([[`${O}/`, `${O}/a`]]);
  });

  it("fetches the targets still linked: fixed when they answer now, still when one does not", async () => {
    const c = crawl([{ url: `${O}/gone`, sources: [`${O}/a`] }, { url: `${O}/old#top`, sources: [`${O}/a`] }]);
    const linking = { [`${O}/a`]: { status: 200, links: [`${O}/gone`, `${O}/old`] } };
    const restored = site({ ...linking, [`${O}/gone`]: { status: 200 }, [`${O}/old#top`]: { status: 301 } });
    expect((await scope.decide!(ctx(c), restored.look)).status).toBe("pass");
    expect(restored.asked).toEqual([[`${O}/a`], [`${O}/gone`, `${O}/old#top`]]);
    const half = site({ ...linking, [`${O}/gone`]: { status: 200 } });
    expect(await scope.decide!(ctx(c), half.look)).toMatchObject({
      status: "fail",
      value: 1,
      detail: "2 broken target(s) of the crawl of 2026-11-20, 1 linking page(s) fetched again: 1 still linked and broken, e.g. https://a.example/old#top (404)",
      pages: [`${O}/old#top`],
    });
  });
});

describe("canonical_target by a crawl subset", () => {
  const O = "https://a.example";
  const scope = recheckScopeOf("canonical_target")!;
  const crawl = (canonicals: { url: string; target: string }[], count = canonicals.length) => ({
    crawledAt: Date.UTC(2026, 10, 20) / 1000,
    brokenCount: 0,
    broken: [],
    canonicalCount: count,
    canonicals: canonicals.map((c) => ({ ...c, problem: "answers 404" })),
  });
  const ctx = (c: ReturnType<typeof crawl> | undefined): NarrowContext => ({ host: "a.example", origin: O, code: "canonical_target", item: undefined, now: 0, ...(c ? { crawl: c } : {}) });
  /** A site whose pages answer as given (404 otherwise): status, the canonical they name, a redirect, noindex. */
  const site = (pages: Record<string, { status: number; canonical?: string; redirectTo?: string; noindex?: boolean }>) => {
    const asked: string[][] = [];
    const look = async (urls: readonly string[]) => {
      asked.push([...urls]);
      const facts = urls.map((u) => {
        const p = pages[u];
        return PageFacts.fromPartial({
          isHtml: true,
          canonicals: p?.canonical ? [p.canonical] : [],
          metaRobots: p?.noindex ? "noindex" : "",
          response: { requestedUrl: u, finalUrl: p?.redirectTo ?? u, status: p?.status ?? 404, redirects: p?.redirectTo ? [{ url: u, status: 301 }] : [] },
        });
      });
      return { ...healthySite(), home: undefined, pages: facts } as SiteFacts;
    };
    return { look, asked };
  };

  it("applies when the crawl listed every page with a bad canonical, at most 10; else 422", () => {
    expect(recheckModeOf("canonical_target", ctx(crawl([{ url: `${O}/a`, target: `${O}/gone` }]))).mode).toBe("links");
    expect(recheckModeOf("canonical_target", ctx(crawl([{ url: `${O}/a`, target: `${O}/gone` }], 2))).mode).toBe("crawl");
    expect(recheckModeOf("canonical_target", ctx(undefined)).mode).toBe("crawl");
  });

  it("is fixed when the page names itself now, or a target that answers 200; still for a redirecting, noindex or other-host target", async () => {
    const c = crawl([
      { url: `${O}/a`, target: `${O}/gone` },
      { url: `${O}/b`, target: `${O}/old` },
    ]);
    const fixed = site({ [`${O}/a`]: { status: 200, canonical: `${O}/a` }, [`${O}/b`]: { status: 200, canonical: `${O}/new` }, [`${O}/new`]: { status: 200 } });
    expect(await scope.decide!(ctx(c), fixed.look)).toMatchObject({ status: "pass", detail: "2 page(s) with a bad canonical target in the crawl of 2026-11-20, fetched again: each names itself or a good target now" });
    expect(fixed.asked).toEqual([[`${O}/a`, `${O}/b`], [`${O}/new`]]);
    for (const [target, why] of [
      [{ status: 200, redirectTo: `${O}/final` }, `redirects to ${O}/final`],
      [{ status: 200, noindex: true }, "target is noindex"],
    ] as const) {
      const s = site({ [`${O}/a`]: { status: 200 }, [`${O}/b`]: { status: 200, canonical: `${O}/new` }, [`${O}/new`]: target });
      expect(await scope.decide!(ctx(c), s.look)).toMatchObject({ status: "fail", value: 1, pages: [`${O}/b`], detail: `2 page(s) with a bad canonical target in the crawl of 2026-11-20, fetched again: 1 still bad, e.g. ${O}/b (canonical ${O}/new: ${why})` });
    }
    const other = site({ [`${O}/a`]: { status: 200, canonical: "https://b.example/a" }, [`${O}/b`]: { status: 404 } });
    expect(await scope.decide!(ctx(c), other.look)).toMatchObject({ status: "fail", value: 1, pages: [`${O}/a`] });
    // No target to fetch: one look only.
    expect(other.asked).toHaveLength(1);
  });
});
