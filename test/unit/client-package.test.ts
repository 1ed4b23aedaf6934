import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CONTRACTS } from "../../gateway/contracts/index.ts";
import { ERROR_CATALOGUE as SERVER_CATALOGUE, exitCodeOf, type ErrorCode } from "../../gateway/errors.ts";
import { createClient, ERROR_CATALOGUE, OPERATIONS, SvcApiError, type AddSiteFields, type GetJobAnswer } from "../../clients/typescript/src/index.ts";
import { generatedFiles } from "../tools/client-gen.ts";

// The client package (clients/typescript) as generated from the contracts: its generated sources
// are current, its table is the registry's, its errors carry the catalogue's rules, and its GETs
// remember ETags.

const root = new URL("../../", import.meta.url);

function scripted(answers: { status: number; body?: unknown; headers?: Record<string, string> }[]) {
  const seen: { url: string; headers: Record<string, string> }[] = [];
  const doFetch = (async (url: string, init: RequestInit) => {
    seen.push({ url, headers: init.headers as Record<string, string> });
    const a = answers[Math.min(seen.length - 1, answers.length - 1)]!;
    return new Response(a.body === undefined ? null : JSON.stringify(a.body), { status: a.status, headers: { "x-api-version": "1.3", ...a.headers } });
  }) as unknown as typeof fetch;
  return { doFetch, seen };
}

describe("the typed client package", () => {
  it("holds generated sources equal to what the contracts and the catalogue give (npm run client:gen)", () => {
    for (const [path, text] of Object.entries(generatedFiles())) expect(readFileSync(new URL(path, root), "utf8"), path).toBe(text);
  });

  it("lists every registered operation with its fields where the contract takes them", () => {
    expect(OPERATIONS.map((o) => o.id)).toEqual(CONTRACTS.map((c) => c.id));
    const crawl = OPERATIONS.find((o) => o.id === "start_crawl")!;
    expect([crawl.method, crawl.path, Object.keys(crawl.params?.properties ?? {}), Object.keys(crawl.body?.properties ?? {})]).toEqual(["POST", "/crawl/{host}", ["host"], ["fresh"]]);
  });

  it("carries the catalogue's HTTP status, retry rule and exit code for every code", () => {
    for (const code of Object.keys(SERVER_CATALOGUE) as ErrorCode[]) {
      expect(ERROR_CATALOGUE[code], code).toEqual({ http: SERVER_CATALOGUE[code].http, retry: SERVER_CATALOGUE[code].retry, exit: exitCodeOf(code) });
    }
  });

  it("throws a typed error with the code, retryable and Retry-After of the answer", async () => {
    const { doFetch } = scripted([{ status: 429, body: { error: "hour spent", code: "limit" }, headers: { "retry-after": "1800" } }]);
    const svc = createClient({ baseUrl: "http://svc.test", fetch: doFetch, sleep: async () => {} });
    const err = (await svc.listSites({}).catch((e: unknown) => e)) as SvcApiError;
    expect(err).toBeInstanceOf(SvcApiError);
    expect([err.status, err.code, err.message, err.retryable, err.retryAfter, err.exitCode]).toEqual([429, "limit", "hour spent", true, 1800, 3]);
  });

  it("asks again for a GET with its last ETag and answers a 304 with the remembered body", async () => {
    const { doFetch, seen } = scripted([
      { status: 200, body: { job: { id: 7, state: "running" } }, headers: { etag: '"v1"' } },
      { status: 304, headers: { etag: '"v1"' } },
    ]);
    const svc = createClient({ baseUrl: "http://svc.test", fetch: doFetch });
    const first: GetJobAnswer = await svc.getJob({ id: 7 });
    const second = await svc.getJob({ id: 7 });
    expect(second).toEqual(first);
    expect(seen.map((s) => s.headers["if-none-match"])).toEqual([undefined, '"v1"']);
    expect(seen[1]!.url).toBe("http://svc.test/api/v1/jobs/7");
  });

  it("types the fields as a caller sends them", () => {
    const fields: AddSiteFields = { host: "a.example.com" };
    // @ts-expect-error host is required (a body field without a default)
    const missing: AddSiteFields = { interval: 12 };
    expect([fields, missing]).toHaveLength(2);
  });
});
