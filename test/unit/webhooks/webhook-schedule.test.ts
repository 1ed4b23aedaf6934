import { describe, expect, it } from "vitest";
import { EVENTS, newEvent } from "../../../analyzer/index.ts";
import { afterFailure, isFinal4xx, routeEvent } from "../../../scheduler/index.ts";
import type { EventRecord, WebhookRow } from "../../../storage/index.ts";

const T = 1_800_000_000;

describe("the retry schedule", () => {
  it("after failures 1-5: 1 min, 5 min, 30 min, 2 h, 12 h; lost after the sixth", () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => afterFailure(n, 500, T))).toEqual([
      { lost: false, nextAttemptAt: T + 60 },
      { lost: false, nextAttemptAt: T + 300 },
      { lost: false, nextAttemptAt: T + 1800 },
      { lost: false, nextAttemptAt: T + 7200 },
      { lost: false, nextAttemptAt: T + 43_200 },
      { lost: true, nextAttemptAt: null },
    ]);
  });

  it("a final 4xx loses the delivery at the third failure; 408, 409, 425, 429, 3xx, 5xx and no answer do not", () => {
    expect(afterFailure(2, 404, T)).toEqual({ lost: false, nextAttemptAt: T + 300 });
    for (const code of [400, 401, 403, 404, 410, 413, 422]) expect(afterFailure(3, code, T), String(code)).toEqual({ lost: true, nextAttemptAt: null });
    for (const code of [408, 409, 425, 429, 301, 302, 500, 503, 0]) expect(afterFailure(3, code, T), String(code)).toEqual({ lost: false, nextAttemptAt: T + 1800 });
    expect([399, 400, 408, 499, 500].map(isFinal4xx)).toEqual([false, true, false, true, false]);
  });
});

const hook = (id: number, events: string[], hosts: string[] = []): WebhookRow => ({
  id,
  account_id: 1,
  name: `h${id}`,
  url: `https://hooks.example.net/${id}`,
  events,
  hosts,
  secret: "s",
  active: true,
  failed_in_a_row: 0,
  created: T,
  disabled_at: null,
});
const event = (type: string, host: string | null, payload: Record<string, unknown> = {}, kind = `${type}.changed`): EventRecord =>
  ({ id: 9, account_id: 1, host, type, kind, text: "", level: "info", payload, created: T }) as EventRecord;
const routed = (e: EventRecord, hooks: WebhookRow[]) => routeEvent(e, hooks).map((r) => [r.webhook.id, r.event]);

describe("routing events to subscriptions", () => {
  const all = hook(1, ["events", "uptime", "watchdog", "page", "crawl", "rank", "security", "digest"]);
  it("maps the log's types onto webhook types by one table", () => {
    expect(routed(event("rank", "a.com", { from: 50, to: 40 }), [all])).toEqual([[1, "rank"]]);
    expect(routed(event("events", "a.com", { change: "new", title: "Title missing" }, "task.new"), [all])).toEqual([[1, "events"]]);
    expect(routed(event("events", "a.com", { kind: "analyze", state: "done" }, "analysis.done"), [all])).toEqual([[1, "events"]]);
    expect(routed(event("crawl", "a.com", { kind: "crawl", state: "done" }, "crawl.done"), [all])).toEqual([[1, "crawl"]]);
    expect(routed(event("page", "a.com", { kind: "page", state: "done" }, "check.done"), [all])).toEqual([[1, "page"]]);
    expect(routed(event("events", "a.com", { kind: "webhook", state: "error" }, "check.error"), [all])).toEqual([]);
    expect(routed(event("events", "a.com", { kind: "tls", state: "done" }, "check.done"), [all])).toEqual([]);
    expect(routed(event("events", null, { webhook: 3 }, "webhook.disabled"), [all])).toEqual([[1, "events"]]);
    expect(routed(event("mystery", "a.com"), [all])).toEqual([]);
  });

  it("takes only subscribed types, and listed hosts with their subdomains on any port", () => {
    const rankOnly = hook(2, ["rank"]);
    const site = hook(3, ["rank"], ["example.com"]);
    expect(routed(event("events", "example.com", { change: "fixed" }, "task.fixed"), [rankOnly, site])).toEqual([]);
    for (const host of ["example.com", "shop.example.com", "example.com:8443", "a.b.example.com:8443"]) {
      expect(routed(event("rank", host), [rankOnly, site]), host).toEqual([[2, "rank"], [3, "rank"]]);
    }
    for (const host of ["notexample.com", "example.com.evil.net", null]) expect(routed(event("rank", host), [site]), String(host)).toEqual([]);
  });

  it("sends the notification: type, host and events[] with the text the event catalogue wrote", () => {
    const made = newEvent(EVENTS.RANK_CHANGED, { host: "shop.example.com", run: 7, from: 50, to: 42 }, { accountId: 1, host: "shop.example.com", perAccount: true });
    const stored = { ...event("rank", "shop.example.com", made.payload as Record<string, unknown>), text: made.text, level: made.level };
    const [r] = routeEvent(stored, [all]);
    expect(r!.notification).toEqual({
      type: "rank",
      host: "shop.example.com",
      events: [{ id: 9, type: "rank", kind: "rank.changed", level: "bad", text: "Rank of shop.example.com fell from 50 to 42 (-8)", created: T, at: T, data: { from: 50, to: 42, delta: -8, run: 7 } }],
    });
  });
});
