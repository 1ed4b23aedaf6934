import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestCa, type CertificateVariant, type TestCa } from "../harness/fixture-web/ca.ts";
import type { TestGateway } from "../harness/gateway.ts";
import { events, httpsSite, page, startMonitoringGateway, type LoopbackSite } from "./monitoring-world.ts";

// HTTPS sites whose certificates are known by construction: valid for 45, 29, 13 and 6 more days,
// expired, self-signed (not trusted) and issued for another name. Each is analysed once; what the
// owner is told must be what the certificate is: no alarm at 45 days, a warning with the days left
// at 29 and 13, bad at 6, critical only for a certificate browsers refuse — in the incident, its
// event, the diagnosis of the site, GET /diagnosis and GET /today alike.

const DAY_MS = 86_400_000;
// Node checks certificates against the real time, the analyses against the test's clock: both
// start now. An hour more than whole days keeps "N days left" exact while the test runs.
const NOW_MS = Math.floor(Date.now() / 1000) * 1000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

interface Case {
  readonly name: string;
  readonly variant: CertificateVariant;
  readonly days?: number;
}
const CASES: readonly Case[] = [
  { name: "c45", variant: "valid", days: 45 },
  { name: "c29", variant: "valid", days: 29 },
  { name: "c13", variant: "valid", days: 13 },
  { name: "c6", variant: "valid", days: 6 },
  { name: "expired", variant: "expired" },
  { name: "untrusted", variant: "self-signed" },
  { name: "mismatch", variant: "wrong-name" },
];

let gw: TestGateway;
let ca: TestCa;
const sites: LoopbackSite[] = [];
const hosts = new Map<string, string>();
const notAfter = new Map<string, number>();

beforeAll(async () => {
  ca = await createTestCa(new Date(NOW_MS));
  for (const c of CASES) {
    const name = `${c.name}.localhost`;
    const cert = ca.issue(c.variant, [name], c.days === undefined ? undefined : c.days * DAY_MS + 3_600_000);
    const site = await httpsSite(cert, page(`Shop ${c.name}`));
    sites.push(site);
    hosts.set(c.name, `${name}:${site.port}`);
    notAfter.set(c.name, cert.notAfter.getTime());
  }
  gw = await startMonitoringGateway({ SVC_EXTRA_CA_FILE: ca.caFile });
  gw.clock.set(NOW_MS);
  for (const host of hosts.values()) expect((await gw.call("POST", "/api/v1/sites", { body: { host } })).statusCode).toBe(201);
  for (const host of hosts.values()) expect((await gw.call("GET", `/api/v1/analyze?d=${host}`)).statusCode).toBe(200);
}, 300_000);

afterAll(async () => {
  await gw?.close();
  for (const s of sites) await s.close();
  await ca?.close();
});

interface Incident {
  kind: string;
  title: string;
  cause: string;
  status: string;
}
interface CauseView {
  code: string;
  severity: string;
  text: string;
}

const host = (name: string) => hosts.get(name)!;
const certificateIncidents = async (name: string) =>
  ((await gw.call("GET", `/api/v1/incidents?host=${host(name)}&days=1`)).json<{ incidents: Incident[] }>().incidents).filter((i) => i.kind === "certificate").map(({ title, cause, status }) => ({ title, cause, status }));
const certificateCause = async (name: string): Promise<{ severity: string; text: string } | null> => {
  const d = (await gw.call("GET", `/api/v1/diagnosis/${host(name)}`)).json<{ diagnosis: { causes: CauseView[] } }>().diagnosis;
  const c = d.causes.find((x) => x.code === "certificate");
  return c ? { severity: c.severity, text: c.text } : null;
};

describe("certificates, each as it is", () => {
  it("raises nothing for a certificate valid for 45 more days", async () => {
    expect(await certificateIncidents("c45")).toEqual([]);
    expect(await events(gw, host("c45"), "security")).toEqual([]);
    expect(await certificateCause("c45")).toBeNull();
  });

  it("warns with the days left at 29 and 13 days, bad at 6: never critical while browsers accept it", async () => {
    const expected = [
      ["c29", 29, "30d", "warn", "warn"],
      ["c13", 13, "14d", "warn", "warn"],
      ["c6", 6, "7d", "bad", "bad"],
    ] as const;
    for (const [name, days, cause, level, severity] of expected) {
      const title = `Certificate of ${host(name)} expires in ${days} day(s), on ${isoDay(notAfter.get(name)!)}`;
      expect(await certificateIncidents(name)).toEqual([{ title, cause, status: "open" }]);
      expect((await events(gw, host(name), "security")).map((e) => [e.kind, e.level, e.text])).toEqual([["certificate.expiring", level, title]]);
      expect(await certificateCause(name)).toEqual({ severity, text: `The certificate expires in ${days} day(s): renew it before browsers start refusing the site.` });
    }
  });

  it("is critical when browsers refuse the certificate, and says why", async () => {
    const expected = [
      ["expired", `Certificate of ${host("expired")} expired on ${isoDay(notAfter.get("expired")!)}`, "expired", "certificate.expired", "The certificate has expired: browsers refuse the site and visitors see a warning."],
      ["untrusted", `Certificate of ${host("untrusted")} is not trusted by browsers (DEPTH_ZERO_SELF_SIGNED_CERT)`, "untrusted", "certificate.invalid", "Browsers do not trust the certificate (DEPTH_ZERO_SELF_SIGNED_CERT): visitors see a warning and leave."],
      ["mismatch", `Certificate of ${host("mismatch")} does not cover the host name`, "name_mismatch", "certificate.invalid", `The certificate does not cover ${host("mismatch")}: browsers refuse it and visitors see a warning.`],
    ] as const;
    for (const [name, title, cause, kind, text] of expected) {
      expect(await certificateIncidents(name)).toEqual([{ title, cause, status: "open" }]);
      expect((await events(gw, host(name), "security")).map((e) => [e.kind, e.level, e.text])).toEqual([[kind, "bad", title]]);
      expect(await certificateCause(name)).toEqual({ severity: "critical", text });
    }
  });

  it("tells the same in GET /diagnosis and GET /today", async () => {
    const expected: Record<string, { severity: string; text: string } | null> = {};
    for (const c of CASES) expected[host(c.name)] = await certificateCause(c.name);
    expect(Object.values(expected).filter((c) => c !== null)).toHaveLength(6);
    // Every site's root cause here is its certificate (or nothing, at 45 days).
    const list = (await gw.call("GET", "/api/v1/diagnosis")).json<{ sites: { host: string; root_cause: (CauseView & { code: string }) | null }[] }>().sites;
    expect(Object.fromEntries(list.map((s) => [s.host, s.root_cause && { severity: s.root_cause.severity, text: s.root_cause.text }]))).toEqual(expected);
    const today = (await gw.call("GET", "/api/v1/today")).json<{ causes: (CauseView & { host: string })[] }>();
    const todays = Object.fromEntries(CASES.map((c) => [host(c.name), null as { severity: string; text: string } | null]));
    for (const c of today.causes.filter((x) => x.code === "certificate")) todays[c.host] = { severity: c.severity, text: c.text };
    expect(todays).toEqual(expected);
  });
});
