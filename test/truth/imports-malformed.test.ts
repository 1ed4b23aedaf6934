import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { settleImports } from "../../gateway/operations/search-imports.ts";
import { startTestGateway, type TestGateway } from "../harness/gateway.ts";
import { startSmallSite, type SmallSite } from "../harness/sites/small-site.ts";
import { buildXlsx } from "../harness/xlsx-writer.ts";

// A malformed export after a good one (issue 31 §3, new-user-trial.md problem 4): the file that did
// not parse is refused with bad_param naming what is wrong (the row and column of a figure), never a
// 500 nor a retryable answer, and writes nothing: the good export is still what the user is shown.

let gw: TestGateway;
let site: SmallSite;
let HOST = "";
beforeAll(async () => {
  site = await startSmallSite();
  HOST = site.host;
  gw = await startTestGateway({ env: { SVC_ALLOW_PRIVATE_TARGETS: "1" } });
  expect((await gw.call("POST", "/api/v1/sites", { body: { host: HOST } })).statusCode).toBe(201);
});
afterAll(async () => {
  await settleImports();
  await gw.close();
  await site.close();
});
afterEach(() => expect(gw.violations).toEqual([]));

const upload = (file: Buffer | string, file_name: string) => gw.call("POST", `/api/v1/imports/${HOST}`, { body: { file: Buffer.from(file).toString("base64"), file_name } });
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const get = async (path: string): Promise<any> => {
  const res = await gw.call("GET", `/api/v1${path}`);
  expect(res.statusCode).toBe(200);
  return res.json();
};
const HEADER = "Top queries,Clicks,Impressions,CTR,Position\n";
// Eleven queries, as the trial's good Queries.csv: sofa 0 has the most clicks.
const GOOD = HEADER + Array.from({ length: 11 }, (_, i) => `sofa ${i},${110 - i * 10},${2000 + i * 100},${((110 - i * 10) / (20 + i)).toFixed(2)}%,${(2 + i * 0.5).toFixed(1)}`).join("\n") + "\n";
const GOOD_FIRST = { engine: "google", query: "sofa 0", clicks: 110, clicks_prev: null, impressions: 2000, ctr: 5.5, position: 2, position_prev: null };

/** What a refused file leaves: the good export's one batch, its 11 queries, its top query unchanged. */
async function goodDataStillServed() {
  const imports = (await get(`/imports/${HOST}`)).imports;
  expect(imports.map((b: { file_name: string; rows: number }) => [b.file_name, b.rows])).toEqual([["good-Queries.csv", 11]]);
  const q = await get(`/queries/${HOST}?limit=1`);
  expect(q.page.total).toBe(11);
  expect(q.queries).toEqual([GOOD_FIRST]);
}

/** A 400 bad_param for the file, with exactly this message, not retryable. */
function expectRefused(res: Awaited<ReturnType<typeof upload>>, error: string) {
  expect(res.statusCode).toBe(400);
  expect(res.headers["retry-after"]).toBeUndefined();
  expect(res.json()).toEqual({ error, code: "bad_param", param: "file", retryable: false, request_id: expect.any(String) });
}

describe("a malformed export after a good one", () => {
  it("imports the good Queries.csv", async () => {
    const res = await upload(GOOD, "good-Queries.csv");
    expect(res.statusCode).toBe(201);
    expect(res.json().import).toMatchObject({ rows: 11, warnings: [] });
    await goodDataStillServed();
  });

  it("refuses a CSV whose quote is never closed (the trial's five lines) instead of reading one query that swallowed the file", async () => {
    const res = await upload(`${HEADER}"broken quote,12,100,12%,3\nok,abc,100,1%,2\n`, "Queries.csv");
    expectRefused(res, "Queries.csv: the quote opened on row 2 is never closed; the file is not valid CSV and was not imported");
    await goodDataStillServed();
  });

  it("refuses a CSV with text after a closing quote", async () => {
    const res = await upload(`${HEADER}"sofa" x,12,100,12%,3\n`, "Queries.csv");
    expectRefused(res, 'Queries.csv: the quoted field closed on row 2 is followed by text ("x,12,100,12%,3\\n"); the file is not valid CSV and was not imported');
    await goodDataStillServed();
  });

  it("refuses a non-numeric figure naming its row and column, instead of storing 0 clicks", async () => {
    const res = await upload(`${HEADER}sofa 0,7,100,7%,2\nalpha,abc,100,1%,2\n`, "Queries.csv");
    expectRefused(res, 'Queries.csv, row 3, column Clicks: "abc" is not a number; nothing of the file was imported');
    await goodDataStillServed();
  });

  it("refuses a negative figure naming its row and column: 400, never the 500 the storage check gave", async () => {
    const res = await upload(`${HEADER}foo,-5,100,1%,2\n`, "Queries.csv");
    expectRefused(res, "Queries.csv, row 2, column Clicks: -5 is negative; nothing of the file was imported");
    const position = await upload(`${HEADER}foo,5,100,1%,-2.5\n`, "Queries.csv");
    expectRefused(position, "Queries.csv, row 2, column Position: -2.5 is negative; nothing of the file was imported");
    await goodDataStillServed();
  });

  it("names the sheet row of a bad figure in a workbook", async () => {
    const workbook = buildXlsx([{ name: "Queries", rows: [["Top queries", "Clicks", "Impressions", "CTR", "Position"], ["sofa 0", 7, 100, 0.07, 2], ["sofa 1", -3, 100, 0.01, 2]] }]);
    expectRefused(await upload(workbook, "Performance.xlsx"), "Queries, row 3, column Clicks: -3 is negative; nothing of the file was imported");
    await goodDataStillServed();
  });

  it("refuses a table whose rows mostly do not parse, with the reasons", async () => {
    const res = await upload("Date,Clicks,Impressions,CTR,Position\n2026-11-01,5,50,10%,3\nyesterday,4,40,10%,3\n31.02.2026,3,30,10%,3\n", "Dates.csv");
    expectRefused(res, "Dates.csv: 2 of its 3 data rows could not be read (row 3 and 1 more: its date is not a date); nothing of the file was imported");
    await goodDataStillServed();
  });

  it("imports a table with a few unreadable rows, saying which were skipped", async () => {
    const res = await upload("Date,Clicks,Impressions,CTR,Position\n2026-11-01,5,50,10%,3\n2026-11-02,6,60,10%,3\nyesterday,4,40,10%,3\n", "Dates.csv");
    expect(res.statusCode).toBe(201);
    expect(res.json().import).toMatchObject({ rows: 2, warnings: ["Dates.csv: 1 of 3 data rows skipped (row 4: its date is not a date)"] });
    // A Chart export is another table: the queries shown are still the good export's.
    const q = await get(`/queries/${HOST}?limit=1`);
    expect(q.queries).toEqual([GOOD_FIRST]);
  });

  it("reads blanks and dashes as no figure, not as an error", async () => {
    const res = await upload(`${HEADER}sofa blank,,100,,\nsofa dash,--,200,-,—\n`, "blanks-Queries.csv");
    expect(res.statusCode).toBe(201);
    const q = await get(`/queries/${HOST}?limit=5`);
    expect(q.queries.map((r: { query: string; clicks: number; impressions: number }) => [r.query, r.clicks, r.impressions])).toEqual([
      // No clicks either: more impressions first.
      ["sofa dash", 0, 200],
      ["sofa blank", 0, 100],
    ]);
  });
});
