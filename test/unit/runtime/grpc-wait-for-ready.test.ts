import { createServer } from "node:net";
import { Server, ServerCredentials, credentials, makeGenericClientConstructor, status, type Client, type Metadata, type ServiceError } from "@grpc/grpc-js";
import { afterEach, describe, expect, it } from "vitest";
import { GRPC_CHANNEL_OPTIONS, callUnary } from "../../../runtime/index.ts";
import { toApiError } from "../../../gateway/scheduler-port.ts";

// A scheduler restart as the gateway's channel sees it, on a real gRPC server on loopback: the
// channel has failed to connect (it is in its reconnect backoff) when a call with wait-for-ready
// arrives, and the server comes back within the call's deadline.

const text = { serialize: (s: string) => Buffer.from(s), deserialize: (b: Buffer) => b.toString() };
const ECHO = {
  echo: { path: "/svc.test.Echo/Echo", requestStream: false, responseStream: false, requestSerialize: text.serialize, requestDeserialize: text.deserialize, responseSerialize: text.serialize, responseDeserialize: text.deserialize },
};
const EchoClient = makeGenericClientConstructor(ECHO, "Echo");
type EchoMethod = (req: string, md: Metadata, opts: object, cb: (err: ServiceError | null, res: string) => void) => unknown;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

async function serve(port: number): Promise<Server> {
  const server = new Server();
  server.addService(ECHO, { echo: (call: { request: string }, cb: (err: null, res: string) => void) => cb(null, `echo ${call.request}`) });
  await new Promise<void>((resolve, reject) => server.bindAsync(`127.0.0.1:${port}`, ServerCredentials.createInsecure(), (err) => (err ? reject(err) : resolve())));
  return server;
}

const open: { server?: Server; client?: Client } = {};
afterEach(() => {
  open.client?.close();
  open.server?.forceShutdown();
  delete open.client;
  delete open.server;
});

async function unreachable(): Promise<{ port: number; echo: EchoMethod }> {
  const port = await freePort();
  const client = new EchoClient(`127.0.0.1:${port}`, credentials.createInsecure(), GRPC_CHANNEL_OPTIONS);
  open.client = client;
  const echo = (client as unknown as { echo: EchoMethod }).echo.bind(client);
  // Without wait-for-ready the first call fails at once: the channel has tried and is backing off.
  const first = await callUnary(echo, "first", { deadlineMs: 2000, retries: 0 }).then(() => null, (err: ServiceError) => err.code);
  expect(first).toBe(status.UNAVAILABLE);
  return { port, echo };
}

describe("callUnary with waitForReady on a real channel", () => {
  it("waits through the reconnect backoff and answers once the server is back within the deadline", async () => {
    const { port, echo } = await unreachable();
    const started = Date.now();
    const call = callUnary(echo, "again", { deadlineMs: 8000, retries: 0, waitForReady: true });
    await new Promise((r) => setTimeout(r, 400));
    open.server = await serve(port);
    expect(await call).toBe("echo again");
    // Answered after the server came back, not failed at once as a call without it would be.
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
  });

  it("fails at its deadline (503 maintenance at the gateway), not at once, when the server stays away", async () => {
    const { echo } = await unreachable();
    const started = Date.now();
    const err = await callUnary(echo, "gap", { deadlineMs: 700, retries: 2, waitForReady: true }).then(() => null, (e: ServiceError) => e);
    expect(err?.code).toBe(status.DEADLINE_EXCEEDED);
    expect(Date.now() - started).toBeGreaterThanOrEqual(650);
    const answer = toApiError(err);
    expect([answer.code, answer.http, answer.options.retryAfter]).toEqual(["maintenance", 503, 2]);
  });
});
