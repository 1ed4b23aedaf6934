/**
 * bench:utilities-img: the image utilities on a ~5 MB photo, four ways, interleaved per iteration
 * so that drift of the machine hits every way alike:
 *
 *   sharp   the sharp call the utility makes, straight (what `sharp` on the command line does)
 *   direct  runUtility in this thread: validation, base64 decode, the header guards, the result
 *   json    POST /api/v1/utilities/{id} through the gateway (app.inject) with the JSON body (the
 *           file base64): auth, parsing, the body schema, validation, the worker-thread pool (the
 *           decoded bytes are transferred to the thread, not copied), logging
 *   form    the same with a multipart/form-data body: the file as a raw part, no base64
 *
 * Each request body is built once per operation, as a client holds its request: what is timed is
 * the server's work (and app.inject's), not the client's serialisation.
 *
 * Operations: image_compress (JPEG q80, mozjpeg), image_convert to WebP and to AVIF, image_resize to
 * 1200 px wide. It prints p50/p99 of each way and the API's overhead against the sharp call; the
 * issue's target is ≤ 1.2× for anything over 10 ms. A second table gives the process's CPU time
 * per call (all threads), which a loaded machine disturbs far less than wall time.
 *
 * A benchmark, not a test: it prints figures and never fails on a number.
 *
 *   npm run bench:utilities-img               full: a ~5 MB 4000×2667 photo, 8 iterations per way
 *   npm run bench:utilities-img -- --smoke    smoke: a 480×320 photo, 2 iterations (also when CI=true)
 *
 * Overrides (environment): BENCH_ITERATIONS; BENCH_OPS (words of the operation names to keep,
 * comma-separated: BENCH_OPS=avif,resize).
 */
import { availableParallelism, cpus } from "node:os";
import sharp, { type Sharp } from "sharp";
import { runUtility, seededPorts } from "../../utilities/index.ts";
import { formBody } from "../harness/form.ts";
import { startTestGateway } from "../harness/gateway.ts";
import { photo } from "../unit/utilities/img-fixtures.ts";

const smoke = process.argv.includes("--smoke") || process.env.CI === "true";
const iterations = Number(process.env.BENCH_ITERATIONS ?? (smoke ? 2 : 8));

interface Op {
  readonly name: string;
  readonly id: string;
  readonly input: Record<string, unknown>;
  /** The same work as a bare sharp pipeline. */
  readonly sharp: (buf: Buffer) => Sharp;
}

const ALL_OPS: readonly Op[] = [
  { name: "compress jpeg q80", id: "image_compress", input: { quality: 80 }, sharp: (b) => sharp(b).rotate().flatten({ background: "#ffffff" }).jpeg({ quality: 80, mozjpeg: true, progressive: true }) },
  { name: "convert → webp", id: "image_convert", input: { to: "webp" }, sharp: (b) => sharp(b).rotate().webp({ quality: 80, effort: 4, smartSubsample: true }) },
  { name: "convert → avif", id: "image_convert", input: { to: "avif" }, sharp: (b) => sharp(b).rotate().avif({ quality: 80, effort: 2 }) },
  { name: "resize 1200w", id: "image_resize", input: { width: 1200 }, sharp: (b) => sharp(b).rotate().resize({ width: 1200, fit: "inside" }).flatten({ background: "#ffffff" }).jpeg({ quality: 82, mozjpeg: true, progressive: true }) },
];

const only = (process.env.BENCH_OPS ?? "").split(",").map((w) => w.trim()).filter(Boolean);
const OPS = only.length ? ALL_OPS.filter((op) => only.some((w) => op.name.includes(w))) : ALL_OPS;

function pct(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

const ms = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(1)).padStart(7);

/** Wall time and the process's CPU time (every thread: the caller's, libvips', the pool's) of one call, ms. */
async function time(fn: () => Promise<unknown>): Promise<{ wall: number; cpu: number }> {
  const c = process.cpuUsage();
  const t = performance.now();
  await fn();
  const used = process.cpuUsage(c);
  return { wall: performance.now() - t, cpu: (used.user + used.system) / 1000 };
}

async function main(): Promise<void> {
  const [w, h, q] = smoke ? [480, 320, 90] : [4000, 2667, 95];
  const img = await photo(w, h, q);
  const file = img.toString("base64");
  process.stdout.write(
    `bench:utilities-img: ${smoke ? "smoke" : "full"}, photo ${w}×${h} JPEG ${(img.length / 1024 / 1024).toFixed(2)} MB, ${iterations} iterations per way, ` +
      `${availableParallelism()} cores (${cpus()[0]?.model ?? "?"}), sharp ${sharp.versions.sharp} / libvips ${sharp.versions.vips}\n`,
  );
  // One pool thread: a run is timed alone, as the sharp and direct calls are.
  const gw = await startTestGateway({ validateResponses: false, env: { SVC_UTILITY_THREADS: "1", SVC_UTILITY_CPU_MS: "120000", SVC_UTILITY_MEMORY_MB: "512", SVC_RATE_PER_HOUR: "1000000" } });
  const ports = () => seededPorts(0, new Uint8Array([1]));
  const rows: string[] = [];
  const cpuRows: string[] = [];
  const WAYS = ["sharp", "direct", "json", "form"] as const;
  const ORDERS = [
    [0, 1, 3, 2],
    [1, 2, 0, 3],
    [2, 3, 1, 0],
    [3, 0, 2, 1],
  ] as const;
  type Way = (typeof WAYS)[number];
  /** The two request bodies of an operation, built once. */
  const requests = (op: Op) => {
    const json = Buffer.from(JSON.stringify({ input: { file, ...op.input } }));
    const form = formBody([
      { name: "file", data: img, filename: "photo.jpg", type: "image/jpeg" },
      { name: "input", data: JSON.stringify(op.input), type: "application/json" },
    ]);
    const send = (payload: Buffer, contentType: string) => async () => {
      const res = await gw.app.inject({ method: "POST", url: `/api/v1/utilities/${op.id}`, headers: { "x-api-key": gw.ownerKey, "content-type": contentType }, payload });
      if (res.statusCode !== 200) throw new Error(`${op.id}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    };
    return { json: send(json, "application/json"), form: send(form.payload, form.contentType) };
  };
  try {
    // Warm-up: the pool thread's modules, libvips' first use.
    for (const op of OPS) {
      await op.sharp(img).toBuffer();
      await runUtility(op.id, { file, ...op.input }, ports());
      const r = requests(op);
      await r.json();
      await r.form();
    }
    for (const op of OPS) {
      const r = requests(op);
      const t = Object.fromEntries(WAYS.map((k) => [k, [] as number[]])) as Record<Way, number[]>;
      const cpu = Object.fromEntries(WAYS.map((k) => [k, [] as number[]])) as Record<Way, number[]>;
      const add = (k: Way, m: { wall: number; cpu: number }) => {
        t[k].push(m.wall);
        cpu[k].push(m.cpu);
      };
      const run: Record<Way, () => Promise<unknown>> = {
        sharp: () => op.sharp(img).toBuffer(),
        direct: () => runUtility(op.id, { file, ...op.input }, ports()),
        json: r.json,
        form: r.form,
      };
      // The garbage a way leaves (the direct way's 5 MB decoded in this thread) is collected during
      // whichever way comes next: the order follows a Williams square, in which every way comes
      // right after each other way once in four iterations (a plain rotation kept json after direct).
      for (let i = 0; i < iterations; i++) {
        for (const j of ORDERS[i % ORDERS.length] as readonly number[]) {
          const k = WAYS[j] as Way;
          add(k, await time(run[k]));
        }
      }
      for (const k of WAYS) {
        t[k].sort((a, b) => a - b);
        cpu[k].sort((a, b) => a - b);
      }
      const ratio = (xs: Record<Way, number[]>, k: Way) => (pct(xs[k], 50) / pct(xs.sharp, 50)).toFixed(2).padStart(5) + "×";
      cpuRows.push(
        `${op.name.padEnd(18)} ${ms(pct(cpu.sharp, 50))}   ${ms(pct(cpu.direct, 50))}   ${ms(pct(cpu.json, 50))}   ${ms(pct(cpu.form, 50))}   ${ratio(cpu, "json")}   ${ratio(cpu, "form")}`,
      );
      process.stdout.write(`  ${op.name} done\n`);
      const verdict = (k: Way) => (pct(t.sharp, 50) < 10 ? "(<10 ms)" : pct(t[k], 50) / pct(t.sharp, 50) <= 1.2 ? "ok" : "over");
      rows.push(
        `${op.name.padEnd(18)} ${ms(pct(t.sharp, 50))} ${ms(pct(t.sharp, 99))}   ${ms(pct(t.direct, 50))} ${ms(pct(t.direct, 99))}   ${ms(pct(t.json, 50))} ${ms(pct(t.json, 99))}   ${ms(pct(t.form, 50))} ${ms(pct(t.form, 99))}   ${ratio(t, "json")} ${verdict("json").padEnd(4)} ${ratio(t, "form")} ${verdict("form")}`,
      );
    }
  } finally {
    await gw.close();
  }
  process.stdout.write(
    `\n${"operation".padEnd(18)} ${"sharp p50".padStart(7)} ${"p99".padStart(7)}   ${"direct p50".padStart(7)} ${"p99".padStart(6)}   ${"json p50".padStart(7)} ${"p99".padStart(7)}   ${"form p50".padStart(7)} ${"p99".padStart(7)}   json/sharp    form/sharp (p50)\n`,
  );
  for (const r of rows) process.stdout.write(`${r}\n`);
  process.stdout.write("\n(ms wall; direct = runUtility in this thread; json, form = POST /utilities/{id} with app.inject through the pool, JSON or multipart body)\n");
  // CPU time of the whole process per call: what the work costs whatever else the machine runs
  // (on a shared, loaded machine wall times spread more than the overhead being measured).
  process.stdout.write(`\n${"operation".padEnd(18)} ${"sharp cpu".padStart(7)}   ${"direct".padStart(7)}   ${"json cpu".padStart(7)}   ${"form cpu".padStart(7)}   json/sharp   form/sharp (cpu p50)\n`);
  for (const r of cpuRows) process.stdout.write(`${r}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench:utilities-img: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
