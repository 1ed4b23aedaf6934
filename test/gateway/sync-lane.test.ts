import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../harness/gateway.ts";
import { page, startSmallSite, type SmallSite } from "../harness/sites/small-site.ts";

// The synchronous lane has crawler slots of its own: with every job-lane slot taken by analyses
// of sites that answer slowly, a live check still completes within its deadline.

const SLOW_MS = 12_000;

let gw: TestGateway;
let site: SmallSite;
let slow: Server;
let slowHost: string;
const held = new Set<import("node:http").ServerResponse>();

beforeAll(async () => {
  site = await startSmallSite();
  site.pages.set("/", page({ title: "Fast home", description: "A page that answers at once" }));
  // Every answer comes after SLOW_MS: an analysis of this site holds its slot that long.
  slow = createServer((_req, res) => {
    held.add(res);
    setTimeout(() => {
      held.delete(res);
      if (!res.destroyed) res.writeHead(200, { "content-type": "text/html" }).end("<!DOCTYPE html><title>Slow</title>");
    }, SLOW_MS).unref();
  });
  await new Promise<void>((resolve) => slow.listen(0, "127.0.0.1", resolve));
  slowHost = `127.0.0.1:${(slow.address() as { port: number }).port}`;
  gw = await startTestGateway({
    env: {
      SVC_ALLOW_PRIVATE_TARGETS: "1",
      SVC_WORKER_CONCURRENCY: "1",
      SVC_WORKER_SYNC_CONCURRENCY: "2",
      SVC_PAGE_SAMPLE: "0",
      SVC_FETCH_TIMEOUT_MS: "20000",
      SVC_SYNC_WAIT_MS: "6000",
      SVC_PLAN_EVERY_S: "0",
    },
  });
});

afterAll(async () => {
  for (const res of held) res.destroy();
  await gw?.close();
  await site?.close();
  await new Promise<void>((resolve) => slow.close(() => resolve()));
});

describe("the synchronous lane", () => {
  it("answers a live page check while every job slot is busy with a slow site", async () => {
    const started = await gw.call("POST", "/api/v1/analyze", { body: { host: slowHost } });
    expect(started.statusCode).toBe(202);
    const jobId = started.json().job.id as number;
    // The analysis holds the only job slot (it is running and waits for the slow site).
    for (let i = 0; i < 100; i++) {
      const job = (await gw.call("GET", `/api/v1/jobs/${jobId}`)).json().job;
      if (job.state === "running") break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect((await gw.call("GET", `/api/v1/jobs/${jobId}`)).json().job.state).toBe("running");

    // A 200 is the answer within the deadline: after SVC_SYNC_WAIT_MS it would be 409 not_ready.
    const full = await gw.call("GET", `/api/v1/full?url=${encodeURIComponent(`${site.url}/`)}`);
    expect(full.statusCode).toBe(200);
    expect(full.json().overall.status).toBe(200);
    // The slow analysis still holds the job slot: the check did not wait for it.
    expect((await gw.call("GET", `/api/v1/jobs/${jobId}`)).json().job.state).toBe("running");
  });
});
