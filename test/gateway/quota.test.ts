import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { maxBlock, Quota } from "../../gateway/index.ts";
import { AuthRepo, openPglite, type Db } from "../../storage/index.ts";
import { readPgliteTemplate } from "../harness/template.ts";

let db: Db;
let repo: AuthRepo;
beforeAll(async () => {
  db = await openPglite(null, readPgliteTemplate());
  repo = new AuthRepo(db);
});
afterAll(() => db.close());

const stored = async (subject: string, hour: number) => repo.used(subject, hour);

describe("the hourly quota reserved in blocks", () => {
  it("reserves one at a time for small limits, so the stored count is exact", async () => {
    expect(maxBlock(120)).toBe(1);
    const q = new Quota(repo);
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await q.take("k:small", 1, 3));
    expect(results).toEqual([
      { admitted: true, used: 1 },
      { admitted: true, used: 2 },
      { admitted: true, used: 3 },
      { admitted: false, used: 3 },
    ]);
    expect(await stored("k:small", 1)).toBe(3);
  });

  it("doubles its block up to maxBlock for large limits and never passes the cap", async () => {
    expect(maxBlock(10_000)).toBe(64);
    const q = new Quota(repo);
    for (let i = 0; i < 10; i++) await q.take("k:big", 1, 10_000);
    // Blocks of 1, 2, 4, 8 were reserved: 15 stored, 10 handed out.
    expect(await stored("k:big", 1)).toBe(15);
    expect(q.used("k:big", 1)).toBe(10);
    const tight = new Quota(repo);
    let admitted = 0;
    for (let i = 0; i < 250; i++) if ((await tight.take("k:tight", 1, 200)).admitted) admitted++;
    expect(admitted).toBe(200);
    expect(await stored("k:tight", 1)).toBe(200);
  });

  it("shares a window between processes without exceeding it", async () => {
    const a = new Quota(repo);
    const b = new Quota(repo);
    let admitted = 0;
    for (let i = 0; i < 300; i++) if ((await (i % 2 ? a : b).take("k:shared", 1, 250)).admitted) admitted++;
    expect(admitted).toBeLessThanOrEqual(250);
    // Each process may strand at most maxBlock − 1 units it reserved but never handed out.
    expect(admitted).toBeGreaterThanOrEqual(250 - 2 * (maxBlock(250) - 1));
    expect(await stored("k:shared", 1)).toBe(250);
  });

  it("coalesces concurrent takes of one process into one reservation at a time", async () => {
    const q = new Quota(repo);
    const takes = await Promise.all(Array.from({ length: 30 }, () => q.take("k:burst", 1, 10)));
    expect(takes.filter((t) => t.admitted)).toHaveLength(10);
    expect(await stored("k:burst", 1)).toBe(10);
  });

  it("gives a unit back (a 304) and starts afresh each hour", async () => {
    const q = new Quota(repo);
    expect((await q.take("k:back", 5, 1)).admitted).toBe(true);
    expect((await q.take("k:back", 5, 1)).admitted).toBe(false);
    expect(q.giveBack("k:back", 5)).toBe(0);
    expect((await q.take("k:back", 5, 1)).admitted).toBe(true);
    expect((await q.take("k:back", 6, 1)).admitted).toBe(true);
  });
});
