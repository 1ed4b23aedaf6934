import { parseArgs } from "node:util";
import { FUZZ_CHECKS, runSchemathesis, SCHEMATHESIS_VERSION, startFuzzTarget } from "../harness/schemathesis.ts";

// Contract fuzzing against `svc serve` (issue 21 §6): `npm run fuzz` is the deep run (50 examples
// per operation, a random seed); `npm run fuzz -- --fast` is the bounded run .ci/run makes (3
// examples per operation, seed 1). Both run every operation, all four phases (examples, coverage,
// fuzzing, stateful) and both accounts, and fail on any server error, any answer outside its
// documented status codes, headers or schema, and any object one account reads of the other.
// The hooks (test/harness/schemathesis/svc_fuzz_hooks.py) also send U+0000 in strings and bodies
// nested 40 deep, the values that found 5xx in the hostile trial (issue 32, Q5/Q6).

const { values } = parseArgs({
  options: {
    fast: { type: "boolean", default: false },
    examples: { type: "string" },
    seed: { type: "string" },
    "max-time": { type: "string" },
  },
  strict: true,
});
const maxExamples = Number(values.examples ?? (values.fast ? 3 : 50));
const seed = values.seed !== undefined ? Number(values.seed) : values.fast ? 1 : Math.floor(Math.random() * 2 ** 31);
if (!Number.isInteger(maxExamples) || maxExamples < 1) throw new Error("--examples takes a positive integer");

const started = Date.now();
const target = await startFuzzTarget();
process.stdout.write(`fuzz: schemathesis ${SCHEMATHESIS_VERSION} against svc serve at ${target.origin}, ${maxExamples} examples per operation, seed ${seed}, checks ${FUZZ_CHECKS.join(", ")}\n`);
let failed = true;
try {
  const r = await runSchemathesis(target, {
    maxExamples,
    seed,
    echo: true,
    ...(values["max-time"] !== undefined ? { maxTimeS: Number(values["max-time"]) } : {}),
  });
  const t = r.report.test_cases;
  failed = r.exitCode !== 0 || r.report.failures.length > 0 || r.report.errors.length > 0 || r.report.operations.tested < r.report.operations.selected;
  process.stdout.write(
    `fuzz: ${r.report.operations.tested}/${r.report.operations.selected} operations, ${t.generated} cases, ${t.unique_failures} unique failures, ${r.report.errors.length} errors; schemathesis ${(r.ms / 1000).toFixed(1)} s, in all ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
  );
  if (target.proc.exit() !== null) {
    failed = true;
    process.stdout.write(`fuzz: svc serve exited during the run (${JSON.stringify(target.proc.exit())}):\n${target.proc.stderr().slice(-4000)}\n`);
  }
} finally {
  await target.stop();
}
process.exitCode = failed ? 1 : 0;
