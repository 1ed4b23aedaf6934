import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CRAWLER_KINDS, crawlerStreamKinds } from "../../crawler/index.ts";
import { LISTED_KINDS, STREAM_KINDS, WORK_KIND_INFO, WORK_KINDS } from "../../proto/index.ts";
import { reposOf, SCHEDULER_KINDS, SCHEDULER_STREAM_KINDS } from "../../scheduler/index.ts";
import type { Repositories } from "../../storage/index.ts";

/** The arms of a oneof in the .proto text: name → field type. */
function oneofArms(proto: string, message: string, oneof: string): Map<string, string> {
  const body = new RegExp(`message ${message} \\{([\\s\\S]*?)\\n\\}`).exec(proto)?.[1] ?? "";
  const block = new RegExp(`oneof ${oneof} \\{([^}]*)\\}`).exec(body)?.[1] ?? "";
  const arms = new Map<string, string>();
  for (const m of block.matchAll(/^\s*(\w+)\s+(\w+)\s*=\s*\d+;/gm)) arms.set(m[2]!, m[1]!);
  return arms;
}

const proto = readFileSync(new URL("../../proto/svc/v1/scheduler.proto", import.meta.url), "utf8");
const tasks = oneofArms(proto, "LeaseResponse", "task");
const results = oneofArms(proto, "CompleteRequest", "result");
const sorted = (names: Iterable<string>) => [...names].sort();

describe("work kinds: one set on both sides of the wire", () => {
  it("the lease's task arms and the completion's result arms have the same names", () => {
    expect(tasks.size).toBeGreaterThanOrEqual(5);
    expect(sorted(results.keys())).toEqual(sorted(tasks.keys()));
  });

  it("the crawler's table, the scheduler's table and WORK_KINDS hold exactly those names", () => {
    const arms = sorted(tasks.keys());
    expect(sorted(Object.keys(CRAWLER_KINDS))).toEqual(arms);
    expect(sorted(Object.keys(SCHEDULER_KINDS))).toEqual(arms);
    expect(sorted(WORK_KINDS)).toEqual(arms);
  });

  it("each table entry is filed under its own name", () => {
    for (const [name, kind] of Object.entries(CRAWLER_KINDS)) expect(kind.name).toBe(name);
    for (const [name, kind] of Object.entries(SCHEDULER_KINDS)) expect(kind.name).toBe(name);
  });

  it("a job row's task (JobTask) has the lease's task arms, field number for field number", () => {
    const numbered = (message: string) => /oneof task \{([^}]*)\}/.exec(new RegExp(`message ${message} \\{([\\s\\S]*?)\\n\\}`).exec(proto)?.[1] ?? "")?.[1]?.replace(/\s*\/\/.*$/gm, "").trim().split(/\s*\n\s*/);
    expect(numbered("JobTask")).toEqual(numbered("LeaseResponse"));
    expect(oneofArms(proto, "JobTask", "task")).toEqual(tasks);
  });

  it("each kind has a message pair of its own: <Kind>Task and a result message", () => {
    for (const [name, type] of tasks) expect(type.toLowerCase()).toBe(`${name}task`);
    for (const [name, type] of results) expect(type.toLowerCase()).toBe(`${name}result`);
  });

  it("each kind has one data row (its lanes, how GET /jobs lists it) and each scheduler kind a cost", () => {
    expect(sorted(Object.keys(WORK_KIND_INFO))).toEqual(sorted(tasks.keys()));
    for (const info of Object.values(WORK_KIND_INFO)) {
      expect(info.lanes.length).toBeGreaterThan(0);
      for (const lane of info.lanes) expect(["job", "sync", "stream"]).toContain(lane);
    }
    for (const kind of Object.values(SCHEDULER_KINDS)) expect(kind.cost).toBeGreaterThanOrEqual(0);
    expect(LISTED_KINDS).toEqual(["analyze", "crawl"]);
  });

  it("the sync lane's call takes the task arms of the kinds that travel it, and answers their result arms, message for message", () => {
    const calls = oneofArms(proto, "RunCheckRequest", "task");
    const answers = oneofArms(proto, "RunCheckResponse", "result");
    const syncKinds = WORK_KINDS.filter((k) => WORK_KIND_INFO[k].lanes.includes("sync"));
    expect(sorted(calls.keys())).toEqual(["analyze", "dns", "page", "recheck", "tls", "utility", "webhook"]);
    expect(sorted(calls.keys())).toEqual(sorted(syncKinds));
    expect(sorted(answers.keys())).toEqual(sorted(calls.keys()));
    for (const [name, type] of calls) expect(type).toBe(tasks.get(name));
    for (const [name, type] of answers) expect(type).toBe(results.get(name));
    // Every sync kind answers its caller with its result arm.
    for (const name of syncKinds) expect(typeof SCHEDULER_KINDS[name].answer).toBe("function");
  });

  it("the stream lane's arms, the crawler's and the scheduler's stream tables and STREAM_KINDS are one set too", () => {
    const items = oneofArms(proto, "StreamItem", "task");
    const answers = oneofArms(proto, "StreamResult", "result");
    expect(items.size).toBeGreaterThanOrEqual(1);
    expect(sorted(answers.keys())).toEqual(sorted(items.keys()));
    expect(sorted(Object.keys(crawlerStreamKinds()))).toEqual(sorted(items.keys()));
    expect(sorted(Object.keys(SCHEDULER_STREAM_KINDS))).toEqual(sorted(items.keys()));
    expect(sorted(STREAM_KINDS)).toEqual(sorted(items.keys()));
    // A stream item is a batch (ProbeTask: one domain's targets; WebhookBatch: one webhook's attempts).
    for (const [name, type] of items) expect([`${name}task`, `${name}batch`]).toContain(type.toLowerCase());
    for (const [name, type] of answers) expect([`${name}result`, `${name}batchresult`]).toContain(type.toLowerCase());
    // A stream kind is not a job kind, except the webhook: its batches on the stream lane, its test sends (and attempts an older scheduler planned) as jobs.
    for (const name of items.keys()) expect(tasks.has(name)).toBe(name === "webhook");
  });
});

describe("a scheduler kind's repositories", () => {
  it("are those its uses list names, and no others", () => {
    // Stand-ins for the store's repositories: each is only looked at by name.
    const all = new Proxy({}, { get: (_t, name) => ({ name }) }) as unknown as Repositories;
    for (const kind of Object.values(SCHEDULER_KINDS)) {
      const repos = reposOf(kind, all);
      expect(sorted(Object.keys(repos)), kind.name).toEqual(sorted(new Set(kind.uses)));
      for (const [name, repo] of Object.entries(repos)) expect(repo).toEqual({ name });
    }
    expect(Object.keys(reposOf(SCHEDULER_KINDS.dns, all))).toEqual([]);
    expect(sorted(Object.keys(reposOf(SCHEDULER_KINDS.webhook, all)))).toEqual(["events", "webhooks"]);
  });
});
