// Colour quantisation by median cut: the box of pixels with the widest channel range (weighted by
// its population) is split at that channel's median until there are n boxes or nothing left to
// split; each box's colour is its mean. Deterministic, so a flat-colour image gives its exact
// colours and shares.

export type Rgb = readonly [number, number, number];

export interface Cluster {
  readonly rgb: Rgb;
  readonly count: number;
}

interface Box {
  readonly pixels: Uint32Array;
  readonly channel: 0 | 1 | 2;
  readonly range: number;
}

const channelOf = (p: number, c: 0 | 1 | 2) => (p >> (16 - 8 * c)) & 0xff;

function boxOf(pixels: Uint32Array): Box {
  const min = [255, 255, 255];
  const max = [0, 0, 0];
  for (const p of pixels) {
    for (const c of [0, 1, 2] as const) {
      const v = channelOf(p, c);
      if (v < (min[c] as number)) min[c] = v;
      if (v > (max[c] as number)) max[c] = v;
    }
  }
  const ranges = [0, 1, 2].map((c) => (max[c] as number) - (min[c] as number));
  const channel = ranges.indexOf(Math.max(...ranges)) as 0 | 1 | 2;
  return { pixels, channel, range: ranges[channel] as number };
}

/** Pixels packed as 0xRRGGBB. */
export function medianCut(pixels: Uint32Array, n: number): Cluster[] {
  if (pixels.length === 0) return [];
  const boxes: Box[] = [boxOf(pixels)];
  while (boxes.length < n) {
    let best = -1;
    let bestScore = 0;
    boxes.forEach((b, i) => {
      const score = b.range * Math.sqrt(b.pixels.length);
      if (b.range > 0 && score > bestScore) {
        bestScore = score;
        best = i;
      }
    });
    if (best < 0) break;
    const box = boxes[best] as Box;
    const sorted = Uint32Array.from(box.pixels).sort((a, b) => channelOf(a, box.channel) - channelOf(b, box.channel));
    // Split at the median, moved off a run of equal values so both halves differ.
    let cut = sorted.length >> 1;
    const at = channelOf(sorted[cut] as number, box.channel);
    while (cut > 0 && channelOf(sorted[cut - 1] as number, box.channel) === at) cut--;
    if (cut === 0) while (cut < sorted.length && channelOf(sorted[cut] as number, box.channel) === at) cut++;
    boxes.splice(best, 1, boxOf(sorted.subarray(0, cut)), boxOf(sorted.subarray(cut)));
  }
  return boxes
    .map((b) => {
      const sum = [0, 0, 0];
      for (const p of b.pixels) for (const c of [0, 1, 2] as const) sum[c] = (sum[c] as number) + channelOf(p, c);
      const rgb = sum.map((s) => Math.round(s / b.pixels.length)) as unknown as Rgb;
      return { rgb, count: b.pixels.length };
    })
    .sort((a, b) => b.count - a.count);
}
