// 64-bit SimHash (Charikar) of a text's word 3-shingles: near-duplicate texts have hashes a few bits
// apart. Words are hashed once (FNV-1a over their letters and digits, case folded); a shingle's two
// 32-bit halves mix its three word hashes. Long texts vote with a fixed quarter of their shingles
// (those whose hash ends in 00: the same shingles in both texts of a pair), which keeps the cost
// linear and small without changing which texts are alike.

const SAMPLE_ABOVE = 512;

// Hashes stay int32 throughout (`| 0`, never `>>> 0`; bits taken with `>>`): an unsigned 32-bit
// value above 2^31 is not a small integer to V8, and the optimised code deoptimised on it ("lost
// precision") again and again.

function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h | 0;
}

/** FNV-1a hashes of the text's words (runs of letters and digits), lower-cased. */
function wordHashes(text: string): number[] {
  const out: number[] = [];
  let h = 0x811c9dc5 | 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const lower = c >= 65 && c <= 90 ? c + 32 : c;
    const isWord = (lower >= 97 && lower <= 122) || (c >= 48 && c <= 57) || (c > 127 && /[\p{L}\p{N}]/u.test(text[i] as string));
    if (isWord) {
      h ^= c > 127 ? text[i]!.toLowerCase().charCodeAt(0) : lower;
      h = Math.imul(h, 0x01000193);
      inWord = true;
    } else if (inWord) {
      out.push(h);
      h = 0x811c9dc5 | 0;
      inWord = false;
    }
  }
  if (inWord) out.push(h);
  return out;
}

/** The SimHash of a text as 16 hex digits; "" for a text of fewer than 3 words. */
export function simhash(text: string): string {
  const words = wordHashes(text);
  if (words.length < 3) return "";
  return hex(votes(words));
}

// The vote and the hex digits are functions of their own: code V8 compiles while a long text's
// loop runs (on-stack replacement) is reused by later calls, and a loop after it that had not run
// yet left a deoptimisation in it that every later call hit.

/** Each of the 64 bits' vote over the shingles: positive when more shingle hashes have it set. */
function votes(words: readonly number[]): Int32Array {
  const shingles = words.length - 2;
  const sample = shingles > SAMPLE_ABOVE;
  const out = new Int32Array(64);
  for (let i = 0; i < shingles; i++) {
    const a = words[i] as number;
    const b = words[i + 1] as number;
    const c = words[i + 2] as number;
    const lo = mix(Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca77) ^ c);
    if (sample && (lo & 3) !== 0) continue;
    const hi = mix(Math.imul(c, 0x9e3779b1) ^ Math.imul(a, 0xc2b2ae3d) ^ b ^ 0x27d4eb2f);
    for (let bit = 0; bit < 32; bit++) {
      out[bit] = (out[bit] as number) + (((lo >> bit) & 1) << 1) - 1;
      out[bit + 32] = (out[bit + 32] as number) + (((hi >> bit) & 1) << 1) - 1;
    }
  }
  return out;
}

function hex(votes: Int32Array): string {
  let lo = 0;
  let hi = 0;
  for (let bit = 0; bit < 32; bit++) {
    if ((votes[bit] as number) > 0) lo |= 1 << bit;
    if ((votes[bit + 32] as number) > 0) hi |= 1 << bit;
  }
  return (hi >>> 0).toString(16).padStart(8, "0") + (lo >>> 0).toString(16).padStart(8, "0");
}
