// Page checks on patterns of real CMS sites (issue 33, findings real-sites.md R2, R3, R8, R11, R12
// and browser-vs-lighthouse.md B12): what the CMS does on purpose is no task; the real fault still is.
import { describe, expect, it } from "vitest";
import type { CrawlFindings, SiteFacts } from "../../../proto/index.ts";
import { runCheck } from "./cases/check-case.ts";
import { ORIGIN, allPages, cleanCrawl, healthySite } from "./site-builder.ts";

/** Every string of the facts with the healthy site's origin moved to `origin` (a site served elsewhere). */
function movedTo(origin: string, mutate?: (f: SiteFacts) => void): SiteFacts {
  const moved = JSON.parse(JSON.stringify(healthySite()).replaceAll(ORIGIN, origin)) as SiteFacts;
  mutate?.(moved);
  return moved;
}

function verdict(code: string, facts: SiteFacts) {
  const o = runCheck(code, facts);
  return { status: o.status, value: o.value, pages: o.pages };
}

describe("localhost_links compares a link's host with the page's own (R2, B12)", () => {
  const LOOPBACK = "http://127.0.0.1:58510";

  it("a site served on loopback linking to itself passes", () => {
    expect(verdict("localhost_links", movedTo(LOOPBACK))).toEqual({ status: "pass", value: 0, pages: [] });
  });

  it("the same site's stray link to localhost on its own port fails, on that page only", () => {
    const facts = movedTo(LOOPBACK, (f) => void f.pages[0]!.links.push({ href: "http://localhost:58510/about/", text: "About", nofollow: false, internal: false }));
    expect(verdict("localhost_links", facts)).toEqual({ status: "fail", value: 1, pages: [`${LOOPBACK}/about/`] });
    expect(runCheck("localhost_links", facts).detail).toBe(
      `1 of 3 pages: links to localhost (${LOOPBACK}/about/: http://localhost:58510/about/)`,
    );
  });

  it("a link to another loopback port (a dead development server) still fails", () => {
    const facts = movedTo(LOOPBACK, (f) => void f.home!.links.push({ href: "http://127.0.0.1:58599/old-site/", text: "Old site", nofollow: false, internal: false }));
    expect(verdict("localhost_links", facts)).toEqual({ status: "fail", value: 1, pages: [`${LOOPBACK}/`] });
  });

  it("a public site linking to localhost fails", () => {
    const facts = healthySite((f) => allPages(f).forEach((p) => void p.links.push({ href: "http://localhost/", text: "Local", nofollow: false, internal: false })));
    expect(verdict("localhost_links", facts).value).toBe(3);
  });
});

describe("internal_nofollow leaves the nofollow a CMS sets on purpose (R3)", () => {
  const POST = `${ORIGIN}/about/`;
  const link = (href: string, text: string) => ({ href, text, nofollow: true, internal: true });

  it("WordPress: the ?replytocom reply links and the hidden cancel-reply self-link pass", () => {
    const facts = healthySite((f) => {
      f.pages[0]!.links.push(link(`${POST}?replytocom=12`, "Reply to Ann"), link(`${POST}?replytocom=13`, "Reply to Bob"), link(POST, "Cancel reply"));
    });
    expect(verdict("internal_nofollow", facts)).toEqual({ status: "pass", value: 0, pages: [] });
  });

  it("MediaWiki: a nofollow link robots.txt closes to search crawlers passes", () => {
    const facts = healthySite((f) => {
      f.robots!.groups[0]!.disallow.push("/wiki/Special:");
      f.pages[0]!.links.push(link(`${ORIGIN}/wiki/Special:RecentChangesLinked/About`, "Related changes"));
    });
    expect(verdict("internal_nofollow", facts)).toEqual({ status: "pass", value: 0, pages: [] });
  });

  it("a nofollow link to another page of the site still fails, as does one Googlebot may fetch though Yandex may not", () => {
    const facts = healthySite((f) => {
      f.robots!.groups.push({ userAgents: ["yandex"], allow: [], disallow: ["/blog/"], crawlDelayS: 0 });
      f.pages[0]!.links.push(link(`${ORIGIN}/blog/first-post/?replytocom=12`, "A reply elsewhere"));
      f.pages[1]!.links.push(link(`${ORIGIN}/pricing/`, "Pricing"));
    });
    expect(verdict("internal_nofollow", facts)).toEqual({ status: "fail", value: 2, pages: [POST, `${ORIGIN}/blog/first-post/`] });
  });
});

describe("url_hygiene does not fail a scheme the whole site uses (R11)", () => {
  const WIKI = "http://127.0.0.1:58520";
  /** A MediaWiki: every page under /wiki/ with its title's capital and underscores. */
  function wiki(paths: string[]): SiteFacts {
    return healthySite((f) => {
      const [home, ...inner] = paths.map((p) => `${WIKI}${p}`);
      f.home!.response!.finalUrl = home!;
      f.pages = inner.map((url) => ({ ...structuredClone(f.pages[0]!), response: { ...f.pages[0]!.response!, requestedUrl: url, finalUrl: url } }));
    });
  }

  it("MediaWiki's /wiki/Title_Case paths pass, saying why", () => {
    const o = runCheck("url_hygiene", wiki(["/wiki/Main_Page", "/wiki/Ls", "/wiki/Talk:Ext4", "/wiki/Category:User_commands"]));
    expect([o.status, o.value, o.detail]).toEqual([
      "pass",
      0,
      "4 pages checked, all pass; uppercase letters and underscores are the site's URL scheme on every sampled page, not counted",
    ]);
  });

  it("a page longer than 115 characters still fails on such a site", () => {
    const long = `/wiki/${"Very_long_title_".repeat(7)}`;
    const o = runCheck("url_hygiene", wiki(["/wiki/Main_Page", "/wiki/Ls", "/wiki/Talk:Ext4", long]));
    expect([o.status, o.value, o.pages]).toEqual(["fail", 1, [`${WIKI}${long}`]]);
  });

  it("one odd page on a lower-case site fails", () => {
    const o = runCheck("url_hygiene", wiki(["/", "/about/", "/blog/first-post/", "/About_Us"]));
    expect([o.status, o.value, o.pages]).toEqual(["fail", 1, [`${WIKI}/About_Us`]]);
  });
});

describe("canonical_target never contradicts the crawl (R12)", () => {
  // MediaWiki writes a canonical only on redirect pages: none in the sample, five in the crawl.
  const noneSampled = (crawl: Partial<CrawlFindings>) =>
    healthySite((f) => {
      allPages(f).forEach((p) => void (p.canonicals = []));
      f.crawl = cleanCrawl(crawl);
    });

  it("five valid canonicals in the crawl pass, though no sampled page has one", () => {
    const o = runCheck("canonical_target", noneSampled({ canonicalDeclared: 5 }));
    expect([o.status, o.value, o.detail]).toEqual(["pass", 0, "40 pages crawled, all pass (crawl of 2025-06-13)"]);
  });

  it("a crawl where no page declares one is not judged, and says so of the crawl", () => {
    const o = runCheck("canonical_target", noneSampled({ canonicalDeclared: 0 }));
    expect([o.status, o.detail]).toEqual(["na", "no crawled page declares a canonical URL (crawl of 2025-06-13)"]);
  });
});

describe("broken_external: a checked external link that fails makes a task (R9)", () => {
  const withCrawl = (crawl: Partial<CrawlFindings>) => healthySite((f) => void (f.crawl = cleanCrawl(crawl)));

  it("is not applicable when the egress policy let the crawl check no external link", () => {
    const o = runCheck("broken_external", withCrawl({ externalChecked: 0 }));
    expect([o.status, o.detail]).toEqual([
      "na",
      "no external link was checked: the crawl checks only hosts SVC_EGRESS_ALLOW lets it reach; the others are listed as unchecked in GET /external (crawl of 2025-06-13)",
    ]);
  });

  it("fails on the dead origin, scored by the share of the links checked", () => {
    const o = runCheck("broken_external", withCrawl({ externalChecked: 4, brokenExternal: 1, externalBroken: [{ url: "http://127.0.0.1:58599/old-site/", detail: "refused, linked from 1 page" }] }));
    expect([o.status, o.value, o.score, o.pages, o.detail]).toEqual([
      "fail",
      1,
      0.675,
      ["http://127.0.0.1:58599/old-site/"],
      "1 of 4 external links checked answer 4xx, 5xx or not at all (crawl of 2025-06-13); e.g. http://127.0.0.1:58599/old-site/ (refused, linked from 1 page)",
    ]);
  });

  it("passes when every checked external link answers", () => {
    expect(runCheck("broken_external", withCrawl({ externalChecked: 4 })).status).toBe("pass");
  });
});
