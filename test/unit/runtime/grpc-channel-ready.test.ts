import { createServer } from "node:net";
import { Server, ServerCredentials, connectivityState, credentials, makeGenericClientConstructor, status, type Client, type Metadata, type ServiceError } from "@grpc/grpc-js";
import { afterEach, describe, expect, it } from "vitest";
import { GRPC_CHANNEL_OPTIONS, callUnary, channelReady } from "../../../runtime/index.ts";
import { toApiError } from "../../../gateway/scheduler-port.ts";

// A scheduler restart as the gateway's channel sees it, on a real gRPC server on loopback: the
// channel has failed to connect (it is in its reconnect backoff) when a call that starts work
// arrives; it waits for the channel (channelReady), and the server comes back within that wait.

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

async function unreachable(): Promise<{ port: number; echo: EchoMethod; client: Client }> {
  const port = await freePort();
  const client = new EchoClient(`127.0.0.1:${port}`, credentials.createInsecure(), GRPC_CHANNEL_OPTIONS);
  open.client = client;
  const echo = (client as unknown as { echo: EchoMethod }).echo.bind(client);
  // A call alone fails at once: the channel has tried and is backing off.
  const first = await callUnary(echo, "first", { deadlineMs: 2000, retries: 0 }).then(() => null, (err: ServiceError) => err.code);
  expect(first).toBe(status.UNAVAILABLE);
  const again = await callUnary(echo, "again", { deadlineMs: 2000, retries: 0 }).then(() => null, (err: ServiceError) => err.code);
  expect(again).toBe(status.UNAVAILABLE);
  return { port, echo, client };
}

describe("channelReady, then the call, on a real channel", () => {
  it("waits through the reconnect backoff and the call answers once the server is back within the wait", async () => {
    const { port, echo, client } = await unreachable();
    const started = Date.now();
    const answer = channelReady(client, 8000).then(() => callUnary(echo, "again", { deadlineMs: 2000, retries: 0 }));
    await new Promise((r) => setTimeout(r, 400));
    open.server = await serve(port);
    expect(await answer).toBe("echo again");
    // Answered after the server came back, not failed at once as the call alone was.
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
  });

  it("gives up after its wait with UNAVAILABLE (503 maintenance at the gateway), the call never sent, when the server stays away", async () => {
    const { echo, client } = await unreachable();
    const started = Date.now();
    let sent = false;
    const err = await channelReady(client, 700)
      .then(() => {
        sent = true;
        return callUnary(echo, "gap", { deadlineMs: 700, retries: 0 });
      })
      .then(() => null, (e: ServiceError) => e);
    expect([err?.code, sent]).toEqual([status.UNAVAILABLE, false]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(650);
    const answer = toApiError(err);
    expect([answer.code, answer.http, answer.options.retryAfter]).toEqual(["maintenance", 503, 2]);
  });

  it("resolves at once on a connected channel", async () => {
    const port = await freePort();
    open.server = await serve(port);
    const client = new EchoClient(`127.0.0.1:${port}`, credentials.createInsecure(), GRPC_CHANNEL_OPTIONS);
    open.client = client;
    const echo = (client as unknown as { echo: EchoMethod }).echo.bind(client);
    expect(await channelReady(client, 5000).then(() => callUnary(echo, "first", { deadlineMs: 2000, retries: 0 }))).toBe("echo first");
    expect(client.getChannel().getConnectivityState(false)).toBe(connectivityState.READY);
    await channelReady(client, 5000);
  });
});
