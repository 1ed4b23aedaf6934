import { runUtility, seededPorts, utilityById, type Utility } from "../../../utilities/index.ts";

/** 2026-11-22 10:00:00 UTC, the tests' fixed "now". */
export const NOW_MS = Date.UTC(2026, 10, 22, 10, 0, 0);

/** Runs a utility in this thread with a fixed clock and seed. */
export function run(id: string, input: unknown, seed = 7) {
  return runUtility(id, input, seededPorts(NOW_MS, new Uint8Array([seed])));
}

/** Runs a utility's own input_example. */
export function runExample(id: string) {
  const u = utilityById(id) as Utility;
  return run(id, u.example);
}

/** The refusal of a run: its code, field and message. */
export async function refusal(id: string, input: unknown): Promise<{ code: string; field?: string; message: string }> {
  try {
    await run(id, input);
  } catch (err) {
    const e = err as { code: string; field?: string; message: string };
    return { code: e.code, ...(e.field ? { field: e.field } : {}), message: e.message };
  }
  throw new Error(`${id} accepted the input`);
}
