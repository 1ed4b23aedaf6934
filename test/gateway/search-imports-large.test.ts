import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { settleImports } from "../../gateway/operations/search-imports.ts";
import { startTestGateway, T0_MS, type TestGateway } from "../harness/gateway.ts";
import { startSmallSite, type SmallSite } from "../harness/sites/small-site.ts";
import { buildXlsx } from "../harness/xlsx-writer.ts";

// Large imports as jobs, multipart/form-data uploads and XLSX workbooks (issue 19 §1), through the
// REST pipeline. The synchronous size is 1 MB here, so a job needs only a ~1.2 MB file.

let gw: TestGateway;
let site: SmallSite;
let HOST = "";
const NOW = Math.floor(T0_MS / 1000);
beforeAll(async () => {
  site = await startSmallSite();
  HOST = site.host;
  gw = await startTestGateway({ env: { SVC_IMPORT_SYNC_MAX_MB: "1", SVC_ALLOW_PRIVATE_TARGETS: "1" } });
  expect((await gw.call("POST", "/api/v1/sites", { body: { host: HOST } })).statusCode).toBe(201);
});
afterAll(async () => {
  await settleImports();
  await gw.close();
  await site.close();
});
afterEach(() => expect(gw.violations).toEqual([]));

const b64 = (x: Buffer | string) => Buffer.from(x).toString("base64");
const upload = (file: Buffer | string, file_name: string) => gw.call("POST", `/api/v1/imports/${HOST}`, { body: { file: b64(file), file_name } });
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const get = async (path: string): Promise<any> => {
  const res = await gw.call("GET", `/api/v1${path}`);
  expect(res.statusCode).toBe(200);
  return res.json();
};
const HEADER = "Top queries,Clicks,Impressions,CTR,Position\n";

/** A multipart/form-data body of text fields and one file part. */
function form(fields: Record<string, string>, file: { name: string; filename: string; data: Buffer } | null, boundary = "----svc-test-7MA4YWxk") {
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  if (file) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`));
    chunks.push(file.data, Buffer.from("\r\n"));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
const postForm = (payload: Buffer, contentType: string) =>
  gw.app.inject({ method: "POST", url: `/api/v1/imports/${HOST}`, headers: { "x-api-key": gw.ownerKey, "content-type": contentType }, payload });

describe("a file above SVC_IMPORT_SYNC_MAX_MB", () => {
  // 50,000 queries, about 1.3 MB: query 0 has the most clicks.
  const big = HEADER + Array.from({ length: 50_000 }, (_, i) => `query number ${i},${i === 0 ? 900 : 1 + (i % 7)},${1000 + i},1%,${1 + (i % 10)}`).join("\n") + "\n";

  it("answers 202 with an import job that ends done, naming its batch, whose rows are then read", async () => {
    expect(Buffer.byteLength(big)).toBeGreaterThan(1024 * 1024);
    const res = await upload(big, "Queries.csv");
    expect(res.statusCode).toBe(202);
    const { job } = res.json();
    expect(job).toMatchObject({ kind: "import", host: HOST, state: "running", result: null, error: null, self: `/api/v1/jobs/${job.id}`, poll_after_s: 3 });
    await settleImports();
    const done = (await get(`/jobs/${job.id}`)).job;
    const batches = (await get(`/imports/${HOST}`)).imports;
    expect(batches).toHaveLength(1);
    expect(done).toMatchObject({ state: "done", progress: 100, poll_after_s: null, error: null, result: { imports: `/api/v1/imports/${HOST}`, import: batches[0].id, created: true } });
    // GET /jobs lists it, as GET /jobs/{id} shows it (newest first: it is the only job yet).
    const listed = await get("/jobs");
    expect(listed.page.total).toBe(1);
    expect(listed.jobs).toEqual([done]);
    expect(batches[0]).toMatchObject({ provider: "gsc", kind: "performance", file_name: "Queries.csv", rows: 50_000, imported_at: NOW });
    const q = await get(`/queries/${HOST}?limit=1`);
    expect(q.queries).toEqual([{ engine: "google", query: "query number 0", clicks: 900, clicks_prev: null, impressions: 1000, ctr: 90, position: 1, position_prev: null }]);
    expect(q.page.total).toBe(50_000);
  });

  it("answers the same file again at once with its batch (200), no second job", async () => {
    const again = await upload(big, "again.csv");
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ created: false, import: { file_name: "Queries.csv", rows: 50_000 } });
  });

  it("ends the job in error bad_param, naming the formats expected, when the file is no known export; nothing is stored", async () => {
    const res = await upload("Name,Price\n" + "sofa,100\n".repeat(130_000), "prices.csv");
    expect(res.statusCode).toBe(202);
    const id = res.json().job.id;
    await settleImports();
    const job = (await get(`/jobs/${id}`)).job;
    expect(job).toMatchObject({ state: "error", result: null, error: { reason: "bad_param" } });
    expect(job.error.detail).toContain("prices.csv: no known export header found in the first 40 rows; expected one of:");
    expect((await get(`/imports/${HOST}`)).imports).toHaveLength(1);
  });

  it("ends in error import_interrupted when the gateway holding it stopped (its lease lapsed)", async () => {
    const owner = (await gw.store.jobs.getOwned(1, 1))?.account_id ?? 1;
    const orphan = await gw.store.jobs.createHeld({ accountId: owner, kind: "import", host: HOST, step: "received" }, "gateway:gone", NOW, gw.clock.nowMs() + 1000);
    expect((await get(`/jobs/${orphan.id}`)).job.state).toBe("running");
    gw.clock.advance(1001);
    // The scheduler's sweep of lapsed leases never queues it for a crawler: the file is not there.
    expect(await gw.store.jobs.republishStale(gw.clock.nowMs(), 0, () => { throw new Error("an import job must not be published"); })).toBe(0);
    const job = (await get(`/jobs/${orphan.id}`)).job;
    expect(job).toMatchObject({ state: "error", error: { reason: "import_interrupted" } });
    expect(job.error.detail).toBe("the gateway running this job stopped before it finished; nothing of it was stored: send the request again");
    const listed = (await get("/jobs?limit=100")).jobs.find((j: { id: number }) => j.id === orphan.id);
    expect(listed).toMatchObject({ kind: "import", state: "error", error: { reason: "import_interrupted" } });
  });
});

describe("a multipart/form-data upload", () => {
  const small = Buffer.from(HEADER + "диван угловой,12,400,3%,4.5\n");

  it("imports the part `file`, its name from the part, provider and kind from text fields", async () => {
    const { payload, contentType } = form({ provider: "gsc", kind: "performance" }, { name: "file", filename: "Запросы.csv", data: small });
    const res = await postForm(payload, contentType);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ created: true, import: { provider: "gsc", kind: "performance", file_name: "Запросы.csv", rows: 1 } });
  });

  it("refuses a file that is not what the provider field says, as the JSON body does", async () => {
    const { payload, contentType } = form({ provider: "ahrefs", file_name: "x.csv" }, { name: "file", filename: "ignored.csv", data: Buffer.from(HEADER + "other,1,10,10%,1\n") });
    const res = await postForm(payload, contentType);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: "bad_param", param: "file", error: "x.csv is a gsc export (gsc_performance), not ahrefs" });
  });

  it("answers bad_request for a malformed body and bad_param for a form without the file", async () => {
    const broken = await postForm(Buffer.from("--b\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\nabc"), "multipart/form-data; boundary=b");
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toMatchObject({ code: "bad_request", error: "malformed multipart/form-data body: the closing boundary is missing", details: { reason: "bad_multipart" } });
    const { payload, contentType } = form({ file_name: "q.csv" }, null);
    const missing = await postForm(payload, contentType);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().code).toBe("bad_param");
  });

  it("answers an upload over the body limit (64 MB) with bad_request body_too_large, not a 500", async () => {
    const { payload, contentType } = form({}, { name: "file", filename: "huge.csv", data: Buffer.alloc(64 * 1024 * 1024 + 1, 0x61) });
    const res = await postForm(payload, contentType);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: "bad_request", details: { reason: "body_too_large" } });
  });
});

describe("an XLSX workbook", () => {
  it("is read sheet by sheet (GSC's Excel download): queries and filters stored", async () => {
    const workbook = buildXlsx([
      { name: "Queries", rows: [["Top queries", "Clicks", "Impressions", "CTR", "Position"], ["кровать двуспальная", 30, 600, "5%", 3.5]] },
      { name: "Filters", rows: [["Filter", "Value"], ["Search type", "Web"]] },
    ]);
    const { payload, contentType } = form({}, { name: "file", filename: "Performance.xlsx", data: workbook });
    const res = await postForm(payload, contentType);
    expect(res.statusCode).toBe(201);
    expect(res.json().import).toMatchObject({ provider: "gsc", kind: "performance", formats: ["gsc_performance", "gsc_filters"], rows: 1, filters: { "Search type": "Web" } });
  });

  it("refuses a workbook over the ZIP entry cap (64) with bad_param", async () => {
    const many = buildXlsx([{ name: "Queries", rows: [["Top queries", "Clicks", "Impressions", "CTR", "Position"], ["a", 1, 1, "1%", 1]] }], Array.from({ length: 60 }, (_, i) => ({ name: `xl/media/${i}.xml`, data: "<x/>" })));
    const res = await upload(many, "many.xlsx");
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: "bad_param", param: "file", error: "the ZIP holds 66 entries; at most 64 are read" });
  });
});

describe("a form sent to an operation that takes none", () => {
  it("is refused as a non-JSON body is", async () => {
    const { payload, contentType } = form({ host: HOST }, null);
    const res = await gw.app.inject({ method: "POST", url: "/api/v1/sites", headers: { "x-api-key": gw.ownerKey, "content-type": contentType }, payload });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: "bad_request", error: "send the body as JSON with Content-Type: application/json" });
  });
});
