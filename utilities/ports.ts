import { createHash } from "node:crypto";
import type { UtilityPorts } from "./utility.ts";

/**
 * Ports whose randomness is drawn from a seed (SHA-256 in counter mode): the gateway seeds each run
 * with bytes from its injected random source, so a test that fixes that source fixes every
 * password and id a utility makes, and the worker thread needs nothing but the seed.
 */
export function seededPorts(nowMs: number, seed: Uint8Array): UtilityPorts {
  let counter = 0;
  let pool = Buffer.alloc(0);
  const randomBytes = (n: number): Uint8Array => {
    while (pool.length < n) {
      const block = createHash("sha256").update(seed).update(String(counter++)).digest();
      pool = Buffer.concat([pool, block]);
    }
    const out = new Uint8Array(pool.subarray(0, n));
    pool = pool.subarray(n);
    return out;
  };
  const randomInt = (max: number): number => {
    if (max <= 1) return 0;
    // Rejection sampling over 32 bits: no modulo bias.
    const limit = Math.floor(0x1_0000_0000 / max) * max;
    for (;;) {
      const b = randomBytes(4);
      const v = ((b[0] as number) * 0x1000000 + ((b[1] as number) << 16) + ((b[2] as number) << 8) + (b[3] as number)) >>> 0;
      if (v < limit) return v % max;
    }
  };
  return { nowMs, randomBytes, randomInt };
}
