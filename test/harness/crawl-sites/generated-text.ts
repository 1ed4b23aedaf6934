// Deterministic text for the crawl fixture sites: a seeded PRNG (no Math.random, so a site is the
// same bytes on every run and every machine) and prose drawn from a fixed word list. Random words
// make unrelated pages share almost no word 3-shingles, so every similarity a site has is one it
// was built to have.

/** Mulberry32: tiny, fast, and good enough to shuffle a fixture. */
export class Prng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** An integer in [min, max]. */
  between(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error("pick from an empty list");
    return items[this.int(items.length)] as T;
  }

  /** `k` distinct items in random order (all of them when there are fewer). */
  sample<T>(items: readonly T[], k: number): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
    }
    return copy.slice(0, k);
  }
}

// 260 plain words: 17.6 million possible 3-shingles, so two unrelated pages of 300 words share almost none.
export const WORDS: readonly string[] = (
  "able about above across action active actual adapt advice after again against agree ahead allow almost alone along already also always amount angle animal answer anyone appear apply area argue around arrive article aside autumn " +
  "avoid award balance basic basket beach become before begin behind belief below berry better beyond bicycle blanket border bottle bottom branch bread breeze bridge bright bring broad brother budget build burden button cabin " +
  "camera campfire candle canyon capture carry castle casual cause ceiling center chain chance change charge cheap check choice circle claim clean clear climb clock close cloud coast coffee collect colour comfort common compass " +
  "corner cotton course cover craft create credit crowd current cycle daily damage dance danger debate decide deep degree delay depend desert design detail device direct discover distance double draft dream drive early " +
  "earth easily effort eight either empty energy engine enjoy enough entire equal escape evening event exact example expect explain fabric factor family famous farm fast feather field figure final finger fire first " +
  "flame flat flight floor flower follow forest forget form forward frame fresh friend front frost fruit future garden gather gentle glass global golden grain gravel green ground group guide habit handle harbor " +
  "harvest heavy height hidden highland hill history hollow honest horizon hour humble idea image inch indoor island jacket journey kettle kitchen ladder lake lantern large late layer leather level light limit " +
  "linen little local lodge long lucky maple market meadow measure metal middle minute mirror modest moment morning mountain narrow nature needle night noble north number ocean offer orange outdoor paddle paper path"
).split(" ");

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** `n` random words joined by spaces. */
export function words(rng: Prng, n: number): string {
  return Array.from({ length: n }, () => rng.pick(WORDS)).join(" ");
}

/** A capitalised sentence of 8–16 words ending with a full stop. */
export function sentence(rng: Prng): string {
  return `${cap(words(rng, rng.between(8, 16)))}.`;
}

/** Paragraphs of 4–6 sentences each: about 50 words apiece. */
export function paragraphs(rng: Prng, count: number): string[] {
  return Array.from({ length: count }, () => Array.from({ length: rng.between(4, 6) }, () => sentence(rng)).join(" "));
}

/** A title-like phrase of `n` words, first word capitalised. */
export function phrase(rng: Prng, n: number): string {
  return cap(words(rng, n));
}

/** The words of a text (letters and digits), lower-cased: what shingles are made of. */
export function tokens(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** The set of word 3-shingles of a text. */
export function shingles(text: string): Set<string> {
  const w = tokens(text);
  const out = new Set<string>();
  for (let i = 0; i + 2 < w.length; i++) out.add(`${w[i]} ${w[i + 1]} ${w[i + 2]}`);
  return out;
}

/** Jaccard similarity of two shingle sets. */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0;
  for (const s of a) if (b.has(s)) shared += 1;
  const union = a.size + b.size - shared;
  return union === 0 ? 1 : shared / union;
}
