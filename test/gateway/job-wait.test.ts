import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RestClient } from "../../gateway/client/index.ts";
import { startTestGateway, type TestGateway } from "../harness/gateway.ts";

// GET /jobs/{id}?wait=N (an extension): the answer is held until the job finishes or N seconds
// pass; with the last ETag, a held answer that found nothing changed is a 304 that is not charged.
// Jobs here are gateway-held ones (what a large import makes) that the test moves by hand.

let gw: TestGateway;
let base: string;
let accountId: number;
const WORKER = "test-holder";

beforeAll(async () => {
  gw = await startTestGateway();
  await gw.app.listen({ host: "127.0.0.1", port: 0 });
  base = `http://127.0.0.1:${(gw.app.server.address() as { port: number }).port}`;
  accountId = await meAccount();
});
afterAll(() => gw.close());

async function meAccount(): Promise<number> {
  const me = JSON.parse((await gw.call("GET", "/api/v1/me")).body) as { user: { id: number } };
  return me.user.id;
}

const newJob = () =>
  gw.store.jobs.createHeld({ accountId, kind: "import", host: "wait.example.com", step: "received" }, WORKER, Math.floor(gw.clock.nowMs() / 1000), gw.clock.nowMs() + 3_600_000);
const finish = (id: number) =>
  gw.store.tx(async (t) => {
    if (await t.jobs.lockHeld(id, WORKER)) await t.jobs.markDone(id, { runId: null, result: { import: 7, created: true } }, Math.floor(gw.clock.nowMs() / 1000));
  });
const get = (path: string, headers: Record<string, string> = {}) => fetch(base + path, { headers: { "x-api-key": gw.ownerKey, ...headers } });
const used = (res: Response) => Number(res.headers.get("x-ratelimit-limit")) - Number(res.headers.get("x-ratelimit-remaining"));

describe("GET /jobs/{id}?wait=N", () => {
  it("holds the answer until the job finishes, and charges the held request once", async () => {
    const job = await newJob();
    const before = used(await get("/api/v1/me"));
    setTimeout(() => void finish(job.id), 1_500);
    const started = Date.now();
    const res = await get(`/api/v1/jobs/${job.id}?wait=30`);
    const heldMs = Date.now() - started;
    expect(res.status).toBe(200);
    const body = (await res.json()) as { job: { state: string; progress: number; result: unknown } };
    expect(body.job).toMatchObject({ state: "done", progress: 100, result: { imports: "/api/v1/imports/wait.example.com", import: 7, created: true } });
    // Answered once the job finished (it is read every 0.5 s), long before the 30 s.
    expect(heldMs).toBeGreaterThanOrEqual(1_400);
    expect(heldMs).toBeLessThan(10_000);
    expect(used(res)).toBe(before + 1);
  });

  it("answers 304, uncharged, when the job did not change while the answer was held", async () => {
    const job = await newJob();
    const first = await get(`/api/v1/jobs/${job.id}`);
    const etag = first.headers.get("etag")!;
    const charged = used(first);
    const started = Date.now();
    const held = await get(`/api/v1/jobs/${job.id}?wait=2`, { "if-none-match": etag });
    expect(held.status).toBe(304);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
    expect(used(held)).toBe(charged);
    await finish(job.id);
  });

  it("answers at once a job that is finished, and refuses a wait above 30 s", async () => {
    const job = await newJob();
    await finish(job.id);
    const started = Date.now();
    const res = await get(`/api/v1/jobs/${job.id}?wait=30`);
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(1_000);
    const refused = await get(`/api/v1/jobs/${job.id}?wait=31`);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { code: string; param: string }).code).toBe("bad_param");
  });

  it("the typed client follows a job that moves in held requests: progress seen, one request charged per answer that changed", async () => {
    const job = await newJob();
    const client = new RestClient({ baseUrl: base, apiKey: gw.ownerKey });
    const before = used(await get("/api/v1/me"));
    setTimeout(() => void finish(job.id), 2_000);
    const seen: string[] = [];
    const done = await client.waitForJob({ id: job.id, state: job.state }, { onUpdate: (j) => seen.push(j.state) });
    expect(done.state).toBe("done");
    expect(seen).toEqual(["done"]);
    // /me itself was charged once before; the wait cost exactly one request more.
    expect(used(await get("/api/v1/me"))).toBe(before + 2);
  });
});
