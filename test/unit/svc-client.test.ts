import { describe, expect, it } from "vitest";
import { CONTRACTS } from "../../gateway/contracts/index.ts";
import * as contracts from "../../gateway/contracts/index.ts";
import { createClient, methodName, RestClient, SvcApiError, SvcNetworkError } from "../../gateway/client/index.ts";

// The client rule of the spec, against a scripted fetch (the faults are caused, not served):
// retry only retryable codes, Retry-After first, else 1, 2, 4 … s, at most 5 attempts, the same
// Idempotency-Key on every attempt.

function scripted(answers: { status: number; body: unknown; headers?: Record<string, string> }[]) {
  const seen: { url: string; init: RequestInit }[] = [];
  const sleeps: number[] = [];
  const doFetch = (async (url: string, init: RequestInit) => {
    seen.push({ url, init });
    const a = answers[Math.min(seen.length - 1, answers.length - 1)]!;
    return new Response(JSON.stringify(a.body), { status: a.status, headers: { "content-type": "application/json", "x-api-version": "1.3", ...a.headers } });
  }) as unknown as typeof fetch;
  const client = new RestClient({ baseUrl: "http://svc.test/", apiKey: "svc_k", fetch: doFetch, sleep: async (ms) => void sleeps.push(ms) });
  return { client, seen, sleeps };
}

const addSite = CONTRACTS.find((c) => c.id === "add_site")!;
const listSites = CONTRACTS.find((c) => c.id === "list_sites")!;

describe("the typed client", () => {
  it("retries a retryable code after Retry-After, keeping the Idempotency-Key", async () => {
    const { client, seen, sleeps } = scripted([
      { status: 503, body: { error: "m", code: "maintenance" }, headers: { "retry-after": "2" } },
      { status: 409, body: { error: "b", code: "idem_busy" }, headers: { "retry-after": "1" } },
      { status: 201, body: { host: "a.example.com", added: true, interval_h: 24 } },
    ]);
    const answer = await client.call(addSite, { host: "a.example.com" });
    expect(answer.status).toBe(201);
    expect(sleeps).toEqual([2000, 1000]);
    const keys = seen.map((s) => (s.init.headers as Record<string, string>)["idempotency-key"]);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen[0]!.url).toBe("http://svc.test/api/v1/sites");
    expect(seen[0]!.init.body).toBe('{"host":"a.example.com"}');
  });

  it("backs off 1, 2, 4, 8 s without Retry-After and gives up after 5 attempts", async () => {
    const { client, seen, sleeps } = scripted([{ status: 500, body: { error: "x", code: "server" } }]);
    const err = await client.call(listSites, { limit: 5 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SvcApiError);
    expect((err as SvcApiError).exitCode).toBe(3);
    expect(seen).toHaveLength(5);
    expect(sleeps).toEqual([1000, 2000, 4000, 8000]);
    expect(seen[0]!.url).toBe("http://svc.test/api/v1/sites?limit=5");
    expect((seen[0]!.init.headers as Record<string, string>)["idempotency-key"]).toBeUndefined();
  });

  it("never retries a code that is not retryable", async () => {
    for (const [code, status, exit] of [["scope", 403, 2], ["not_found", 404, 1], ["tool_off", 503, 3]] as const) {
      const { client, seen } = scripted([{ status, body: { error: "x", code } }]);
      const err = (await client.call(listSites, {}).catch((e: unknown) => e)) as SvcApiError;
      expect([err.code, err.exitCode, seen.length]).toEqual([code, exit, 1]);
    }
  });

  it("says at once that an answer without X-API-Version is not Svc's API, and retries a proxy's 502 without it", async () => {
    const calls: string[] = [];
    const notSvc = new RestClient({
      baseUrl: "http://other.test",
      fetch: (async (url: string) => {
        calls.push(url);
        return new Response("<h1>Not Found</h1>", { status: 404, headers: { "content-type": "text/html" } });
      }) as unknown as typeof fetch,
      sleep: async () => {},
    });
    const err = await notSvc.call(listSites, {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SvcNetworkError);
    expect((err as Error).message).toBe("the answer at http://other.test/api/v1/sites is not Svc's API (HTTP 404 without X-API-Version): check --api-url or SVC_API_URL");
    expect(calls).toHaveLength(1);
    let n = 0;
    const behindProxy = new RestClient({
      baseUrl: "http://svc.test",
      fetch: async () =>
        ++n === 1
          ? new Response("bad gateway", { status: 502 })
          : new Response(JSON.stringify({ sites: [] }), { status: 200, headers: { "content-type": "application/json", "x-api-version": "1.3" } }),
      sleep: async () => {},
    });
    expect((await behindProxy.call(listSites, {})).body).toEqual({ sites: [] });
    expect(n).toBe(2);
  });

  it("has one method per registered operation, named after its tool", () => {
    const client = createClient({ baseUrl: "http://svc.test" }) as unknown as Record<string, unknown>;
    for (const op of CONTRACTS) {
      expect(typeof client[methodName(op.id)], op.id).toBe("function");
      // The typed method is the contract exported under the same name.
      expect((contracts as Record<string, unknown>)[methodName(op.id)], op.id).toBe(op);
    }
  });

  it("types no method for a contract-shaped export that is not registered", () => {
    // The client's type lists every Contract the module exports (`export *` of each contract file);
    // createClient makes methods for CONTRACTS only, so the two must be the same set.
    const registered = new Set<unknown>(CONTRACTS);
    const unregistered = Object.entries(contracts)
      .filter(([, v]) => typeof v === "object" && v !== null && "id" in v && "method" in v && "path" in v && !registered.has(v))
      .map(([name]) => name);
    expect(unregistered).toEqual([]);
  });
});

// Compiled, never run: `npm run typecheck` holds the client's types to the contracts.
export async function typedUse(): Promise<string[]> {
  const client = createClient({ baseUrl: "http://svc.test", apiKey: "svc_k" });
  const added = await client.addSite({ host: "a.example.com", interval: 6 }, { idempotencyKey: "k-1" });
  const flag: boolean = added.added;
  const { sites, page } = await client.listSites({ limit: 10 });
  const next: number | null = page.next_offset;
  const job = await client.getJob({ id: 5 });
  void [flag, next, job.job.state];
  return sites.map((s) => s.host);
}
