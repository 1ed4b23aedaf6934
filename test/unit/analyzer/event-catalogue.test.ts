import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EVENTS, EVENT_CATALOGUE, newEvent, WEBHOOK_EVENT_TYPES } from "../../../analyzer/index.ts";
import { catalogueTypes } from "../../../analyzer/events/catalogue.ts";
import { withEventTable } from "../../tools/docs-events.ts";

const root = new URL("../../../", import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), "utf8");

function sources(dir: string): string[] {
  return readdirSync(new URL(dir, root)).flatMap((name) => {
    const path = join(dir, name);
    return statSync(new URL(path, root)).isDirectory() ? sources(path) : path.endsWith(".ts") ? [path] : [];
  });
}

describe("the event catalogue", () => {
  it("uses exactly the spec's webhook event types", () => {
    const spec = read("../shared/spec/000_6c9a3d392c55f704.txt");
    const listed = /A webhook subscribes to a subset of: ([a-z, ]+)\./.exec(spec)![1]!.split(", ");
    expect(WEBHOOK_EVENT_TYPES).toEqual(listed);
    expect(catalogueTypes()).toEqual(listed);
  });

  it("names each kind's when and data, and no descriptor twice", () => {
    expect(new Set(EVENT_CATALOGUE).size).toBe(EVENT_CATALOGUE.length);
    for (const d of EVENT_CATALOGUE) {
      expect(d.when.length, d.kind).toBeGreaterThan(10);
      expect(d.fields.length, d.kind).toBeGreaterThan(0);
      expect(d.kind).toMatch(/^[a-z]+\.[a-z]+$/);
    }
  });

  it("is the only place events are made: no producer writes an event key by hand", () => {
    const handMade = ["analyzer", "scheduler", "storage", "gateway", "crawler", "runtime"]
      .flatMap(sources)
      .filter((p) => !p.startsWith("analyzer/events/") && /eventKey:/.test(read(p)));
    expect(handMade).toEqual([]);
  });

  it("builds an event from its facts: type, kind, level, key per account, text, data", () => {
    const facts = { host: "a.test", at: 1_700_000_000, incident: 7, status: 0, cause: "connect ECONNREFUSED", totalMs: 12, downForS: null };
    expect(newEvent(EVENTS.SITE_DOWN, facts, { accountId: 3, host: "a.test", perAccount: true })).toEqual({
      eventKey: "uptime:a.test:down:1700000000:account:3",
      accountId: 3,
      host: "a.test",
      type: "uptime",
      kind: "site.down",
      level: "bad",
      text: "a.test is down (connect ECONNREFUSED)",
      payload: { incident: 7, at: 1_700_000_000, status: 0, cause: "connect ECONNREFUSED", total_ms: 12 },
    });
    const up = newEvent(EVENTS.SITE_UP, { ...facts, downForS: 300, cause: "" }, { accountId: 3, host: "a.test", perAccount: true });
    expect([up.text, up.level, (up.payload as { cause: unknown }).cause]).toEqual(["a.test is up again after 5 min", "good", null]);
    const check = { job: { id: 9, kind: "tls", host: "a.test" }, extra: { error: "timeout" } };
    expect(newEvent(EVENTS.CHECK_ERROR, check, { accountId: 1, host: "a.test" })).toMatchObject({ eventKey: "job:9:error", type: "events", text: "Check (tls) of a.test failed: timeout" });
    expect(newEvent(EVENTS.CHECK_DONE, { ...check, job: { ...check.job, kind: "page" }, extra: {} }, { accountId: 1, host: "a.test" }).type).toBe("page");
  });

  it("keys an incident's opening once and each worse stage once more", () => {
    const base = { incident: 4, incidentKind: "certificate", cause: "expires_14", title: "Certificate of a.test expires in 14 days", level: "warn" as const, run: 2 };
    expect(newEvent(EVENTS.CERTIFICATE_EXPIRING, { ...base, worse: false }, { accountId: 1, host: "a.test", perAccount: true }).eventKey).toBe("incident:4:opened:account:1");
    expect(newEvent(EVENTS.CERTIFICATE_EXPIRING, { ...base, cause: "expires_7", worse: true }, { accountId: 1, host: "a.test", perAccount: true }).eventKey).toBe("incident:4:expires_7:account:1");
    expect(newEvent(EVENTS.INCIDENT_CLOSED, { incident: 5, incidentKind: "robots", host: "a.test", run: 3 }, { accountId: 1, host: "a.test" })).toMatchObject({
      type: "watchdog",
      text: "robots.txt of a.test no longer closes the whole site",
    });
  });

  it("prints docs/monitoring.md's event table (npm run docs:events)", () => {
    const doc = read("docs/monitoring.md");
    expect(withEventTable(doc), "run npm run docs:events").toBe(doc);
  });
});
