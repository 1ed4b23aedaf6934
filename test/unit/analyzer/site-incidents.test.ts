import { describe, expect, it } from "vitest";
import { siteIncidentChanges, siteIncidentVerdicts } from "../../../analyzer/index.ts";
import { DAY, healthySite, NOW } from "./site-builder.ts";

const H = 3600;

function withCertificateLeft(seconds: number) {
  return healthySite((f) => {
    if (f.tls) f.tls.validTo = NOW + seconds;
  });
}

describe("incidents an analysis finds", () => {
  it("finds nothing wrong on a healthy site, and says so for every kind", () => {
    expect(siteIncidentVerdicts(healthySite())).toEqual({ certificate: null, noindex: null, robots: null });
  });

  it("stages a certificate at 30, 14 and 7 days and when it has expired", () => {
    expect(siteIncidentVerdicts(withCertificateLeft(30 * DAY + 1)).certificate).toBeNull();
    expect(siteIncidentVerdicts(withCertificateLeft(30 * DAY)).certificate).toEqual({
      kind: "certificate",
      title: "Certificate of example.com expires in 30 day(s), on 2025-07-15",
      cause: "30d",
      level: "warn",
    });
    expect(siteIncidentVerdicts(withCertificateLeft(14 * DAY)).certificate).toMatchObject({ cause: "14d", level: "warn" });
    expect(siteIncidentVerdicts(withCertificateLeft(13 * DAY + 23 * H)).certificate).toMatchObject({ cause: "14d", title: "Certificate of example.com expires in 13 day(s), on 2025-06-29" });
    expect(siteIncidentVerdicts(withCertificateLeft(7 * DAY)).certificate).toMatchObject({ cause: "7d", level: "bad" });
    expect(siteIncidentVerdicts(withCertificateLeft(-DAY)).certificate).toEqual({
      kind: "certificate",
      title: "Certificate of example.com expired on 2025-06-14",
      cause: "expired",
      level: "bad",
    });
  });

  it("opens at once on a certificate browsers refuse: not covering the host, or not trusted", () => {
    const mismatch = healthySite((f) => {
      if (f.tls) f.tls.nameMatches = false;
    });
    expect(siteIncidentVerdicts(mismatch).certificate).toEqual({ kind: "certificate", title: "Certificate of example.com does not cover the host name", cause: "name_mismatch", level: "bad" });
    const untrusted = healthySite((f) => {
      if (f.tls) {
        f.tls.authorized = false;
        f.tls.authorizationError = "SELF_SIGNED_CERT_IN_CHAIN";
      }
    });
    expect(siteIncidentVerdicts(untrusted).certificate).toEqual({
      kind: "certificate",
      title: "Certificate of example.com is not trusted by browsers (SELF_SIGNED_CERT_IN_CHAIN)",
      cause: "untrusted",
      level: "bad",
    });
  });

  it("cannot tell of a certificate on a site without TLS", () => {
    const facts = healthySite((f) => {
      if (f.tls) f.tls.attempted = false;
    });
    expect("certificate" in siteIncidentVerdicts(facts)).toBe(false);
  });

  it("finds a home page closed by noindex, in the meta tag or the header, unless the second look did not see it", () => {
    const meta = healthySite((f) => {
      if (f.home) f.home.metaRobots = "noindex, follow";
    });
    expect(siteIncidentVerdicts(meta).noindex).toEqual({ kind: "noindex", title: "The home page of example.com is closed by noindex", cause: "home page: robots meta tag", level: "bad" });
    const header = healthySite((f) => {
      if (f.home) f.home.xRobotsTag = "noindex";
    });
    expect(siteIncidentVerdicts(header).noindex).toMatchObject({ cause: "home page: X-Robots-Tag header" });
    expect("noindex" in siteIncidentVerdicts(meta, ["noindex"])).toBe(false);
  });

  it("finds robots.txt closing the whole site; a robots.txt that is missing closes nothing, one that failed tells nothing", () => {
    const blocked = healthySite((f) => {
      f.robots?.groups.push({ userAgents: ["*"], allow: [], disallow: ["/"], crawlDelayS: 0 });
    });
    expect(siteIncidentVerdicts(blocked).robots).toEqual({ kind: "robots", title: "robots.txt of example.com closes the whole site to search engines", cause: "Disallow: / for *", level: "bad" });
    const missing = healthySite((f) => {
      if (f.robots?.response) {
        f.robots.present = false;
        f.robots.groups = [];
        f.robots.response.status = 404;
      }
    });
    expect(siteIncidentVerdicts(missing).robots).toBeNull();
    const failed = healthySite((f) => {
      if (f.robots?.response) {
        f.robots.present = false;
        f.robots.groups = [];
        f.robots.response.status = 503;
      }
    });
    expect("robots" in siteIncidentVerdicts(failed)).toBe(false);
  });
});

describe("what changes against the open incidents", () => {
  const stage = (cause: string) => ({ kind: "certificate" as const, title: "t", cause, level: "warn" as const });

  it("opens what is new, closes what is resolved, and leaves what the analysis could not judge", () => {
    expect(siteIncidentChanges([{ kind: "noindex", cause: "x" }], { certificate: stage("30d"), noindex: null })).toEqual({ open: [stage("30d")], worse: [], close: ["noindex"] });
    expect(siteIncidentChanges([{ kind: "robots", cause: "x" }], {})).toEqual({ open: [], worse: [], close: [] });
  });

  it("says a certificate got worse only when it reaches a later stage", () => {
    expect(siteIncidentChanges([{ kind: "certificate", cause: "30d" }], { certificate: stage("14d") }).worse).toEqual([stage("14d")]);
    expect(siteIncidentChanges([{ kind: "certificate", cause: "7d" }], { certificate: stage("expired") }).worse).toEqual([stage("expired")]);
    expect(siteIncidentChanges([{ kind: "certificate", cause: "14d" }], { certificate: stage("14d") }).worse).toEqual([]);
    // A certificate replaced by one that expires later, but still within 30 days: no news.
    expect(siteIncidentChanges([{ kind: "certificate", cause: "7d" }], { certificate: stage("30d") })).toEqual({ open: [], worse: [], close: [] });
  });
});
