import { describe, expect, it } from "vitest";
import { afterAll, analyzeSite, capTriggers, confirmationInputs } from "../../../analyzer/index.ts";
import { Confirmation, type SiteFacts } from "../../../proto/index.ts";
import { brokenSite } from "./golden-sites.ts";
import { ORIGIN, healthySite, response } from "./site-builder.ts";

/** A healthy site whose home page answered 503 on the first look. */
function home503(second?: Partial<Confirmation>): SiteFacts {
  return healthySite((f) => {
    if (f.home) f.home.response = response(`${ORIGIN}/`, { status: 503 });
    if (second) f.confirmation = Confirmation.fromPartial(second);
  });
}

const item = (a: ReturnType<typeof analyzeSite>, code: string) => a.items.find((i) => i.code === code);

describe("caps are confirmed by a second look (seo-anchors §3.4)", () => {
  it("the shared definition: which caps the facts trigger and which inputs confirm them", () => {
    expect(capTriggers(healthySite())).toEqual([]);
    expect(capTriggers(home503())).toEqual([{ code: "home_status", cap: 10 }]);
    expect(confirmationInputs(capTriggers(home503()))).toEqual(["home"]);
    expect(confirmationInputs(capTriggers(brokenSite())).sort()).toEqual(["httpVariant", "robots", "tls"]);
  });

  it("a failure seen on both looks caps the rank", () => {
    const a = analyzeSite(home503({ done: true, delayMs: 60_000, home: response(`${ORIGIN}/`, { status: 502 }) }));
    expect(a.caps).toEqual([{ code: "home_status", cap: 10, title: "Home page answers 200" }]);
    expect(a.unconfirmed).toEqual([]);
    expect(a.rank).toBe(10);
    const task = a.tasks.find((t) => t.code === "home_status");
    expect(task?.lifts_cap).toBe(true);
    expect(item(a, "home_status")?.gain).toBe(afterAll(a, ["home_status"]) - a.rank);
    expect(item(a, "home_status")?.gain).toBeGreaterThan(80);
  });

  it("a failure seen once, then recovered, fails the check but caps nothing", () => {
    const a = analyzeSite(home503({ done: true, delayMs: 60_000, home: response(`${ORIGIN}/`, { status: 200 }) }));
    expect(a.caps).toEqual([]);
    expect(a.unconfirmed).toEqual([{ code: "home_status", cap: 10 }]);
    const it = item(a, "home_status");
    expect(it).toMatchObject({ status: "fail", score: 0, weight: 6, value: 503 });
    expect(it?.detail).toBe("the home page answers 503 (server error) (not confirmed on a second look after 60 s)");
    // The weight counts: the rank is below 100, but far above the cap of 10.
    expect(a.rank).toBeGreaterThan(80);
    expect(a.rank).toBeLessThan(100);
    const task = a.tasks.find((t) => t.code === "home_status");
    expect(task?.lifts_cap).toBe(false);
    expect(task?.detail).toContain("not confirmed");
    // Gain is the check's weight alone, consistent with /issues "after".
    expect(it?.gain).toBe(afterAll(a, ["home_status"]) - a.rank);
    expect(afterAll(a)).toBe(100);
  });

  it("the less severe of two failures applies: 503 then 404 caps at 20", () => {
    const a = analyzeSite(home503({ done: true, delayMs: 1000, home: response(`${ORIGIN}/`, { status: 404 }) }));
    expect(a.caps).toEqual([{ code: "home_status", cap: 20, title: "Home page answers 200" }]);
    expect(a.rank).toBe(20);
  });

  it("no second look made (done false): nothing caps; no confirmation at all (older facts): every cap counts", () => {
    const none = analyzeSite(home503({ done: false }));
    expect(none.caps).toEqual([]);
    expect(none.unconfirmed).toEqual([{ code: "home_status", cap: 10 }]);
    expect(item(none, "home_status")?.detail).toContain("not confirmed: no second look was made");
    const legacy = analyzeSite(home503());
    expect(legacy.caps.map((c) => c.code)).toEqual(["home_status"]);
    expect(legacy.unconfirmed).toEqual([]);
    expect(legacy.rank).toBe(10);
  });

  it("judges each cap by its own inputs: robots.txt recovered, certificate and redirect confirmed", () => {
    const first = brokenSite();
    const again = brokenSite();
    const facts = brokenSite();
    facts.confirmation = Confirmation.fromPartial({
      done: true,
      delayMs: 60_000,
      robots: { ...again.robots, present: true, groups: [{ userAgents: ["*"], allow: [], disallow: ["/private/"] }] },
      tls: again.tls,
      httpVariant: again.httpVariant,
    });
    const a = analyzeSite(facts);
    expect(a.caps.map((c) => [c.code, c.cap])).toEqual([
      ["tls_cert_valid", 39],
      ["https_redirect", 79],
    ]);
    expect(a.unconfirmed).toEqual([{ code: "robots_blocks_all", cap: 29 }]);
    expect(a.rank).toBe(39);
    expect(item(a, "robots_blocks_all")?.status).toBe("fail");
    expect(analyzeSite(first).rank).toBe(29);
    for (const code of a.tasks.map((t) => t.code)) expect(item(a, code)?.gain).toBe(afterAll(a, [code]) - a.rank);
    expect(a.tasks.filter((t) => t.lifts_cap).map((t) => t.code)).toEqual(["tls_cert_valid"]);
  });

  it("a noindex home page is confirmed by the robots meta of the page fetched again", () => {
    const closed = (meta: string) =>
      healthySite((f) => {
        if (f.home) f.home.metaRobots = "noindex";
        f.confirmation = Confirmation.fromPartial({ done: true, delayMs: 0, home: f.home?.response, homeMetaRobots: meta });
      });
    expect(analyzeSite(closed("noindex, nofollow")).caps.map((c) => c.code)).toEqual(["noindex"]);
    const reopened = analyzeSite(closed(""));
    expect(reopened.caps).toEqual([]);
    expect(reopened.unconfirmed).toEqual([{ code: "noindex", cap: 29 }]);
    expect(item(reopened, "noindex")?.detail).toContain("not confirmed on a second look after 0 s");
  });
});
