import { describe, expect, it } from "vitest";
import { isNonDescriptive, NON_DESCRIPTIVE, normaliseAnchor } from "../../../analyzer/checks/link-text.ts";

const PHRASES = ["click here", "here", "read more", "more info", "подробнее", "читать далее", "learn more"];
// What anchors are made of: letters of both cases and scripts, spaces of every kind, punctuation,
// symbols and arrows, emoji (astral symbols), combining marks, digits, controls.
const PIECES = [
  ..."abcdehiklmnoruvyzABCDEHIKLMNORUVYZпдробнеПОДРОБНЕчтаьЧТАЬ0123456789",
  " ", "  ", "\t", "\n", "\u00a0", "\u2003", "\u3000", "\ufeff",
  ..."!?.,;:-–—…«»\"'()[]{}/\\|*#&@%$^~`+=<>",
  "→", "»", "›", "↗", "★", "👉", "😀", "\u0301", "\u0000", "\u007f", "İ",
];

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

describe("isNonDescriptive", () => {
  it("decides like the phrase list over normaliseAnchor, for phrases dressed in spaces, case, punctuation and arrows", () => {
    const cases = ["Click here", "  READ   more →", "«Подробнее»", "here!", "…here…", "👉 here", "learn\u00a0more ›", "Читать  далее...", "here 😀", "(more info)", "h ere", "there", "read-more", "read more about it", "clicks here", "", "→", "here\u0301"];
    for (const text of cases) expect(isNonDescriptive(text), JSON.stringify(text)).toBe(NON_DESCRIPTIVE.has(normaliseAnchor(text)));
    expect(cases.filter(isNonDescriptive)).toEqual(["Click here", "  READ   more →", "«Подробнее»", "here!", "…here…", "👉 here", "learn\u00a0more ›", "Читать  далее...", "here 😀", "(more info)"]);
  });

  it("agrees with NON_DESCRIPTIVE.has(normaliseAnchor(text)) on 20000 generated anchors", () => {
    const next = random(42);
    const pick = <T,>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!;
    let matches = 0;
    for (let n = 0; n < 20_000; n++) {
      const parts: string[] = [];
      const count = 1 + Math.floor(next() * 8);
      for (let i = 0; i < count; i++) parts.push(next() < 0.3 ? pick(PHRASES) : pick(PIECES));
      const text = next() < 0.5 ? parts.join("") : parts.join(pick([" ", "  ", "\u00a0", " → "]));
      const expected = NON_DESCRIPTIVE.has(normaliseAnchor(text));
      if (expected) matches++;
      expect(isNonDescriptive(text), JSON.stringify(text)).toBe(expected);
    }
    // The generator reaches both answers often.
    expect(matches).toBeGreaterThan(500);
  });
});

