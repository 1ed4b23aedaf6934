// 64-bit SimHash (Charikar) of a text's word 3-shingles: near-duplicate texts have hashes a few bits
// apart. Two 32-bit FNV-1a variants give the 64 bits; no BigInt in the hot loop.

function fnv1a(text: string, seed: number): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  // A final avalanche so that similar shingles spread over all bits.
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The SimHash of a text as 16 hex digits; "" for a text of fewer than 3 words. */
export function simhash(text: string): string {
  const words = text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  if (words.length < 3) return "";
  const votes = new Int32Array(64);
  for (let i = 0; i + 2 < words.length; i++) {
    const shingle = `${words[i]} ${words[i + 1]} ${words[i + 2]}`;
    const hi = fnv1a(shingle, 0x811c9dc5);
    const lo = fnv1a(shingle, 0x050c5d1f);
    for (let b = 0; b < 32; b++) {
      votes[b] = (votes[b] as number) + ((lo >>> b) & 1 ? 1 : -1);
      votes[b + 32] = (votes[b + 32] as number) + ((hi >>> b) & 1 ? 1 : -1);
    }
  }
  let lo = 0;
  let hi = 0;
  for (let b = 0; b < 32; b++) {
    if ((votes[b] as number) > 0) lo |= 1 << b;
    if ((votes[b + 32] as number) > 0) hi |= 1 << b;
  }
  return (hi >>> 0).toString(16).padStart(8, "0") + (lo >>> 0).toString(16).padStart(8, "0");
}
