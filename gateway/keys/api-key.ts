import { createHash, randomBytes } from "node:crypto";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

export type RandomBytes = (n: number) => Buffer;

/** A new API key: "svc_" and 40 base62 characters (about 238 bits). */
export function generateKey(random: RandomBytes = randomBytes): string {
  const bytes = random(40);
  let out = "svc_";
  for (const b of bytes) out += ALPHABET[b % 62];
  return out;
}

/** Keys are stored only as this hash. They are long and random, so one SHA-256 suffices. */
export function hashKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/** The visible part of a key, shown in lists so that its owner can tell keys apart. */
export function keyPrefix(key: string): string {
  return key.slice(0, 12);
}
