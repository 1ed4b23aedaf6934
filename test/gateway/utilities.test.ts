import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UTILITIES } from "../../utilities/index.ts";
import { startTestGateway, type TestGateway } from "../harness/gateway.ts";
import { bombDocx } from "../unit/utilities/docx.ts";
import { bombPng, photo } from "../unit/utilities/img-fixtures.ts";
import { runSvc } from "../harness/svc-process.ts";
import { formBody, type TestPart } from "../harness/form.ts";
import { exampleDocx } from "../../utilities/text/docx-example.ts";

// The utilities as a user meets them: GET /utilities, GET /utilities/{id} and POST /utilities/{id}
// through the whole pipeline, the offline ones in the gateway's real thread pool.

const logLines: string[] = [];
const sink = new Writable({
  write(chunk: Buffer, _enc, done) {
    logLines.push(chunk.toString("utf8"));
    done();
  },
});

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway({
    logStream: sink,
    env: { SVC_UTILITIES_OFF: "text_stats", SVC_UTILITY_THREADS: "1", SVC_UTILITY_CPU_MS: "5000", SVC_RATE_PER_HOUR: "100000" },
  });
});
afterAll(async () => {
  await gw?.close();
});

const post = (id: string, input: unknown, headers: Record<string, string> = {}) => gw.call("POST", `/api/v1/utilities/${id}`, { body: { input }, headers });

describe("the utilities endpoints", () => {
  it("lists the catalogue with group counts and filters by group, q and net", async () => {
    const all = await gw.call("GET", "/api/v1/utilities?limit=200");
    expect(all.statusCode).toBe(200);
    const body = all.json<{ utilities: { id: string; enabled: boolean; available: boolean }[]; page: { total: number }; groups: { id: string; count: number }[] }>();
    expect(body.utilities.map((u) => u.id)).toEqual(UTILITIES.map((u) => u.id));
    expect(body.page.total).toBe(UTILITIES.length);
    expect(body.utilities.find((u) => u.id === "text_stats")).toMatchObject({ enabled: false, available: true });
    expect(body.utilities.find((u) => u.id === "hash")).toMatchObject({ enabled: true, available: true });
    expect(body.groups.map((g) => g.id)).toEqual(["site", "text", "dev", "calc", "net", "seo", "img"]);
    expect(body.groups.reduce((n, g) => n + g.count, 0)).toBe(UTILITIES.length);

    const dev = (await gw.call("GET", "/api/v1/utilities?group=dev&q=base64")).json<{ utilities: { id: string }[]; groups: { id: string; count: number }[] }>();
    expect(dev.utilities.map((u) => u.id)).toEqual(["base64"]);
    expect(dev.groups.find((g) => g.id === "dev")?.count).toBe(1);
    const local = (await gw.call("GET", "/api/v1/utilities?net=0&limit=200")).json<{ page: { total: number } }>();
    expect(local.page.total).toBe(UTILITIES.filter((u) => !u.net).length);
    expect((await gw.call("GET", "/api/v1/utilities?group=fun")).json()).toMatchObject({ code: "bad_param" });
  });

  it("describes one utility: fields, scope, primary and a runnable example", async () => {
    const res = await gw.call("GET", "/api/v1/utilities/hash");
    expect(res.statusCode).toBe(200);
    const body = res.json<Record<string, unknown>>();
    expect(body).toMatchObject({ id: "hash", group: "dev", group_title: "Developer tools", net: false, file: true, scope: "read", primary: "text", input_example: { text: "hello" } });
    expect((body.fields as unknown[])[2]).toEqual({
      name: "algorithms",
      type: "multi",
      label: "Algorithms",
      required: false,
      options: ["md5", "sha1", "sha256", "sha384", "sha512", "sha3-256", "sha3-512", "crc32", "bcrypt"],
      default: ["md5", "sha256"],
    });
    expect((await gw.call("GET", "/api/v1/utilities/nope")).json()).toMatchObject({ code: "not_found" });
  });

  it("runs a utility with read scope and refuses bad input naming the field", async () => {
    const reader = await gw.newAccount("util-reader@example.com", ["read"]);
    const res = await gw.call("POST", "/api/v1/utilities/hash", { key: reader.key, body: { input: { text: "hello", algorithms: ["md5"] } } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ result: { hashes: [{ alg: "md5", value: "5d41402abc4b2a76b9719d911017c592" }] }, warnings: [] });
    const unknown = await post("hash", { text: "x", colour: "red" });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ code: "bad_param", param: "input.colour" });
    const bad = await post("hash", { text: "x", algorithms: ["md7"] });
    expect(bad.json()).toMatchObject({ code: "bad_param", param: "input.algorithms" });
    const failed = await post("regex_test", { pattern: "(", text: "x" });
    expect(failed.statusCode).toBe(422);
    expect(failed.json()).toMatchObject({ code: "tool_failed", error: expect.stringMatching(/^the pattern does not compile/) as unknown });
    const off = await post("text_stats", { text: "x" });
    expect(off.statusCode).toBe(503);
    expect(off.json()).toMatchObject({ code: "tool_off", error: "the utility text_stats is disabled by the administrator" });
    expect((await post("nope", { text: "x" })).statusCode).toBe(404);
    expect(gw.violations).toEqual([]);
  }, 60_000);

  it("stops a catastrophic regular expression and a decompression bomb, and the pool keeps serving", async () => {
    const redos = await post("regex_test", { pattern: "^(a+)+$", text: `${"a".repeat(40)}!` });
    expect(redos.statusCode).toBe(422);
    expect(redos.json()).toMatchObject({ code: "tool_failed", error: "the run was stopped after 1000 ms (the time limit of a utility run)" });
    const bomb = await post("docx_to_text", { file: bombDocx(20 * 1024 * 1024, 1000).toString("base64") });
    expect(bomb.json()).toMatchObject({ code: "tool_failed", error: expect.stringContaining("decompression bomb") as unknown });
    const after = await post("regex_test", { pattern: "b+", text: "abba" });
    expect(after.statusCode).toBe(200);
    expect(after.json()).toMatchObject({ result: { count: 1, matches: [{ match: "bb", index: 1 }] } });
  }, 60_000);

  it("runs image utilities in the pool, refuses an image bomb before decoding, and lists the net img utilities as the lane and the machine allow", async () => {
    const bomb = await post("image_convert", { file: bombPng(30_000).toString("base64"), to: "webp" });
    expect(bomb.statusCode).toBe(422);
    expect(bomb.json()).toMatchObject({ code: "tool_failed", error: expect.stringContaining("decompression bomb guard") as unknown });
    const jpg = await photo(640, 480);
    const resized = await post("image_resize", { file: jpg.toString("base64"), width: 320, srcset: true });
    expect(resized.statusCode).toBe(200);
    expect(resized.json<{ result: { files: { width: number; height: number }[] } }>().result.files.map((f) => [f.width, f.height])).toEqual([
      [320, 240],
      [640, 480],
      [960, 720],
    ]);
    const list = (await gw.call("GET", "/api/v1/utilities?group=img&limit=50")).json<{ utilities: { id: string; available: boolean; net: boolean }[] }>();
    // The network lane runs page_images_audit on a crawler node; page_screenshot needs Chromium besides.
    const chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].some((p) => existsSync(p));
    expect(list.utilities.filter((u) => !u.available).map((u) => u.id)).toEqual(chromium ? [] : ["page_screenshot"]);
  }, 60_000);

  it("reads a HEIC phone photo in a pool thread (libheif's WASM decoder under the thread's memory limit)", async () => {
    const heic = readFileSync(new URL("../fixtures/heic/quadrants.heic", import.meta.url));
    const res = await post("image_convert", { file: heic.toString("base64"), file_name: "IMG_0042.HEIC", to: "png" });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ result: Record<string, unknown> }>().result).toMatchObject({ mime: "image/png", file_name: "IMG_0042.png", from: "heif", width: 96, height: 64 });
  }, 60_000);

  it("an Idempotency-Key keeps only the fingerprint: a replay runs again and a different input conflicts", async () => {
    const first = await post("hash", { text: "idem", algorithms: ["sha1"] }, { "idempotency-key": "util-1" });
    const again = await post("hash", { text: "idem", algorithms: ["sha1"] }, { "idempotency-key": "util-1" });
    expect(again.headers["idempotent-replay"]).toBe("true");
    expect(again.json()).toEqual(first.json());
    const other = await post("hash", { text: "other", algorithms: ["sha1"] }, { "idempotency-key": "util-1" });
    expect(other.json()).toMatchObject({ code: "idem_conflict" });
  }, 60_000);

  it("runs from the same catalogue as the MCP tool run_utility and as `svc util <id> <primary>`", async () => {
    const rpc = await gw.call("POST", "/api/v1/mcp", {
      body: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "run_utility", arguments: { id: "hash", input: { text: "hello", algorithms: ["sha1"] } } } },
    });
    const result = rpc.json<{ result: { isError: boolean; structuredContent: { result: unknown } } }>().result;
    expect(result.isError).toBe(false);
    expect(result.structuredContent.result).toMatchObject({ hashes: [{ alg: "sha1", value: "aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d" }] });
    const bad = (await gw.call("POST", "/api/v1/mcp", { body: { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "run_utility", arguments: { id: "hash", input: { txt: "x" } } } } })).json<{
      result: { isError: boolean; content: { text: string }[] };
    }>().result;
    expect(bad.content[0]?.text).toMatch(/^bad_param: input.txt is not a field of hash/);

    await gw.app.listen({ host: "127.0.0.1", port: 0 });
    const url = `http://127.0.0.1:${(gw.app.server.address() as { port: number }).port}`;
    const env = { SVC_API_URL: url, SVC_API_KEY: gw.ownerKey, SVC_CONFIG: "/nonexistent/svc.json" };
    const cli = await runSvc(["util", "hash", "hello", "--algorithms", "md5,crc32", "--json"], env);
    expect(cli.stderr).toBe("");
    expect(cli.code).toBe(0);
    expect(JSON.parse(cli.stdout)).toMatchObject({ result: { hashes: [{ alg: "md5", value: "5d41402abc4b2a76b9719d911017c592" }, { alg: "crc32", value: "3610a686" }] } });
  }, 60_000);

  it("spell_check: not ready while its own thread builds the dictionaries (started by the first use), then it runs the example", async () => {
    const available = async () => (await gw.call("GET", "/api/v1/utilities?group=text&limit=50")).json<{ utilities: { id: string; available: boolean }[] }>().utilities.find((u) => u.id === "spell_check")?.available;
    expect(await available()).toBe(false);
    const first = await post("spell_check", { text: "Превед" });
    // Loading passes: a retryable not_ready with Retry-After, not tool_off (the administrator's switch, not retryable).
    expect([first.statusCode, first.headers["retry-after"]]).toEqual([409, "10"]);
    expect(first.json()).toMatchObject({ code: "not_ready", retryable: true, error: "the utility spell_check is loading (its dictionaries take up to a minute); try again in 10 s" });
    // Wait for the thread (what is waited for is the state, not a time).
    for (let i = 0; i < 600 && !(await available()); i++) await new Promise((r) => setTimeout(r, 250));
    const res = await post("spell_check", { text: "Превед, мир! Малако и молоко. This sentense has an eror.", language: "auto" });
    expect(res.statusCode, res.body).toBe(200);
    const errors = res.json<{ result: { errors: { word: string; language: string; positions: number[] }[] } }>().result.errors;
    expect(errors.map((e) => [e.word, e.language, e.positions])).toEqual([
      ["Превед", "ru", [0]],
      ["Малако", "ru", [13]],
      ["sentense", "en", [35]],
      ["eror", "en", [51]],
    ]);
  }, 180_000);

  it("runs every enabled utility's input_example, and neither logs nor the database keep inputs or results", async () => {
    const secrets: string[] = [];
    for (const u of UTILITIES) {
      // Network utilities run against loopback fixtures in net-utilities.test.ts.
      if (u.id === "text_stats" || u.net) continue;
      const res = await post(u.id, u.example);
      expect(res.statusCode, `${u.id}: ${res.body.slice(0, 300)}`).toBe(200);
      // Long enough pieces of what went in and came out to be unmistakable in a dump.
      for (const f of u.fields) {
        const v = u.example[f.name];
        const items = Array.isArray(v) ? v : [v];
        // Free text only (option values such as "chars" are words any table may hold).
        if (f.type !== "sel" && f.type !== "multi") for (const x of items) if (typeof x === "string" && x.length >= 12) secrets.push(x.slice(0, 40));
      }
      const text = JSON.stringify(res.json<{ result: unknown }>().result);
      for (const m of text.matchAll(/"([^"\\]{16,})"/g)) secrets.push((m[1] as string).slice(0, 40));
    }
    expect(gw.violations).toEqual([]);
    const logs = logLines.join("");
    expect(logs).toContain('"utility":"hash"');
    const tables = await gw.db.query<{ table_name: string }>("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'");
    let dump = "";
    for (const { table_name } of tables) dump += JSON.stringify(await gw.db.query(`SELECT * FROM "${table_name}"`));
    expect(dump.length).toBeGreaterThan(100);
    for (const s of secrets) {
      expect(logs.includes(s), `log holds ${s}`).toBe(false);
      expect(dump.includes(s), `database holds ${s}`).toBe(false);
    }
  }, 120_000);
});

describe("POST /utilities/{id} with a multipart/form-data body (the extension: files as raw bytes)", () => {
  const postForm = (id: string, parts: readonly TestPart[], headers: Record<string, string> = {}) => {
    const { payload, contentType } = formBody(parts);
    return gw.app.inject({ method: "POST", url: `/api/v1/utilities/${id}`, headers: { "x-api-key": gw.ownerKey, "content-type": contentType, ...headers }, payload });
  };

  it("gives exactly the JSON body's answer for an image utility and for text ones (fields as parts or as one input part)", async () => {
    // Over 256 KB of base64: the JSON body's input.file is decoded from the request's bytes (json-body.ts).
    const jpg = await photo(1200, 800, 95);
    expect(jpg.toString("base64").length).toBeGreaterThan(256 * 1024);
    const json = await post("image_resize", { file: jpg.toString("base64"), file_name: "cat.jpg", width: 200, srcset: true });
    expect(json.statusCode).toBe(200);
    const form = await postForm("image_resize", [
      { name: "file", data: jpg, filename: "cat.jpg", type: "image/jpeg" },
      { name: "width", data: "200" },
      { name: "srcset", data: "true" },
    ]);
    expect(form.statusCode).toBe(200);
    expect(form.json()).toEqual(json.json());
    expect(json.json<{ result: { files: { file_name: string }[] } }>().result.files.map((f) => f.file_name)).toEqual(["cat-200w.jpg", "cat-400w.jpg", "cat-600w.jpg"]);
    const asInputPart = await postForm("image_resize", [
      { name: "input", data: JSON.stringify({ width: 200, srcset: true }), type: "application/json" },
      { name: "file", data: jpg, filename: "cat.jpg" },
    ]);
    expect(asInputPart.json()).toEqual(json.json());

    const lines = await postForm("lines_tool", [
      { name: "text", data: "banana\nApple\n\napple\ncherry 10\ncherry 9\nbanana" },
      { name: "ops", data: "trim,drop_empty,dedupe_ci,sort_natural,number" },
    ]);
    expect(lines.statusCode).toBe(200);
    expect(lines.json()).toEqual((await post("lines_tool", { text: "banana\nApple\n\napple\ncherry 10\ncherry 9\nbanana", ops: ["trim", "drop_empty", "dedupe_ci", "sort_natural", "number"] })).json());
    expect(lines.json<{ result: { text: string } }>().result.text).toBe("1. Apple\n2. banana\n3. cherry 9\n4. cherry 10");

    const docx = exampleDocx();
    const words = await postForm("docx_to_text", [{ name: "file", data: docx, filename: "report.docx" }, { name: "to", data: "markdown" }]);
    expect(words.statusCode).toBe(200);
    expect(words.json()).toEqual((await post("docx_to_text", { file: docx.toString("base64"), file_name: "report.docx", to: "markdown" })).json());
    expect(gw.violations).toEqual([]);
  }, 60_000);

  it("takes the form a real client sends over HTTP (fetch with FormData: its own boundary, quoting and part headers)", async () => {
    if (!gw.app.server.listening) await gw.app.listen({ host: "127.0.0.1", port: 0 });
    const url = `http://127.0.0.1:${(gw.app.server.address() as { port: number }).port}/api/v1/utilities/image_resize`;
    const jpg = await photo(320, 240, 85);
    const form = new FormData();
    form.append("file", new Blob([jpg], { type: "image/jpeg" }), "holiday photo.jpg");
    form.append("width", "100");
    const res = await fetch(url, { method: "POST", headers: { "x-api-key": gw.ownerKey }, body: form });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { result: { files: { file_name: string; width: number; height: number }[] } };
    expect(body.result.files.map((f) => [f.file_name, f.width, f.height])).toEqual([["holiday-photo-100w.jpg", 100, 75]]);
    expect(body).toEqual((await post("image_resize", { file: jpg.toString("base64"), file_name: "holiday photo.jpg", width: 100 })).json());
  }, 60_000);

  it("refuses a bad form with the contract's codes: bad_param naming the field, body_too_large over 7.6 MB", async () => {
    const jpg = await photo(64, 48, 80);
    const expectParam = async (parts: readonly TestPart[], param: string, error: RegExp) => {
      const res = await postForm("image_resize", parts);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ code: "bad_param", param, error: expect.stringMatching(error) as unknown });
    };
    await expectParam([{ name: "width", data: "20" }], "input.file", /^input\.file is required/);
    await expectParam([{ name: "file", data: jpg, filename: "a.jpg" }, { name: "colour", data: "red" }], "input.colour", /^input\.colour is not a field of image_resize/);
    await expectParam([{ name: "file", data: jpg, filename: "a.jpg" }, { name: "width", data: "wide" }], "input.width", /^input\.width must be an integer/);
    await expectParam(
      [{ name: "file", data: jpg, filename: "a.jpg" }, { name: "width", data: "20" }, { name: "input", data: '{"width":30}' }],
      "input.width",
      /^input\.width is sent twice/,
    );
    await expectParam([{ name: "file", data: jpg, filename: "a.jpg" }, { name: "input", data: "[1,2]" }], "input", /^input must hold a JSON object/);
    await expectParam([{ name: "file", data: Buffer.from("plain text, not a picture"), filename: "a.jpg" }, { name: "width", data: "20" }], "input.file", /^input\.file must be jpeg or png or webp or avif or gif or tiff or heic; the bytes look like text$/);
    // A file over 5 MB in a body under 7.6 MB: the file's own limit.
    await expectParam([{ name: "file", data: Buffer.alloc(5 * 1024 * 1024 + 1, 0xff), filename: "big.jpg" }, { name: "width", data: "20" }], "input.file", /^input\.file is larger than 5242880 bytes/);
    await expectParam([{ name: "file", data: jpg, filename: "a.jpg" }, { name: "__proto__", data: "x" }], "input.__proto__", /^input\.__proto__ is not a field of image_resize/);
    // A text utility's file part where it takes none.
    const stray = await postForm("lines_tool", [{ name: "text", data: "a" }, { name: "file", data: jpg, filename: "a.jpg" }]);
    expect(stray.json()).toMatchObject({ code: "bad_param", param: "input.file" });

    const huge = await postForm("image_resize", [{ name: "file", data: Buffer.alloc(7_700_000, 0xff), filename: "huge.jpg" }]);
    expect(huge.statusCode).toBe(400);
    expect(huge.json()).toMatchObject({ code: "bad_request", details: { reason: "body_too_large" } });
    const broken = await gw.app.inject({
      method: "POST",
      url: "/api/v1/utilities/image_resize",
      headers: { "x-api-key": gw.ownerKey, "content-type": "multipart/form-data; boundary=XyZ" },
      payload: '--XyZ\r\nContent-Disposition: form-data; name="width"\r\n\r\n20',
    });
    expect(broken.json()).toMatchObject({ code: "bad_request", details: { reason: "bad_multipart" } });
  }, 60_000);

  it("a form and the JSON body of the same input are the same request to an Idempotency-Key", async () => {
    const file = Buffer.from("the bytes of a file\n");
    const form = await postForm("hash", [{ name: "file", data: file, filename: "f.txt" }, { name: "algorithms", data: "sha256" }], { "idempotency-key": "util-form-1" });
    expect(form.statusCode).toBe(200);
    expect(form.json()).toMatchObject({ result: { hashes: [{ alg: "sha256", value: createHash("sha256").update(file).digest("hex") }] } });
    const json = await post("hash", { file: file.toString("base64"), file_name: "f.txt", algorithms: "sha256" }, { "idempotency-key": "util-form-1" });
    expect(json.headers["idempotent-replay"]).toBe("true");
    expect(json.json()).toEqual(form.json());
    const other = await postForm("hash", [{ name: "file", data: Buffer.from("other bytes"), filename: "f.txt" }, { name: "algorithms", data: "sha256" }], { "idempotency-key": "util-form-1" });
    expect(other.json()).toMatchObject({ code: "idem_conflict" });
  }, 60_000);
});
