import { createRequire } from "node:module";
import type { Font } from "fontkit";

// Text width in pixels as Google and Yandex draw snippets (Arial). Arimo has Arial's metrics, so
// its advance widths give Arial's for Latin and Cyrillic alike (a character-count estimate is
// off by a fifth on Russian titles). Fonts load once per thread, on first use.

const SUBSETS = ["latin", "cyrillic", "latin-ext", "cyrillic-ext", "greek"];
let fonts: { regular: Font[]; bold: Font[] } | null = null;
const cache = new Map<string, number>();

function load(): { regular: Font[]; bold: Font[] } {
  const require = createRequire(import.meta.url);
  // Required on first use: the catalogue (and so the CLI) loads this file without measuring anything.
  const { openSync } = require("fontkit") as typeof import("fontkit");
  const dir = require.resolve("@fontsource/arimo/package.json").replace(/package\.json$/, "files/");
  const open = (weight: number) => SUBSETS.map((s) => openSync(`${dir}arimo-${s}-${weight}-normal.woff`));
  return { regular: open(400), bold: open(700) };
}

/** Width of one character at 1 px font size. */
function advance(ch: string, bold: boolean): number {
  const key = `${bold ? "b" : "r"}${ch}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  fonts ??= load();
  const cp = ch.codePointAt(0) as number;
  const font = (bold ? fonts.bold : fonts.regular).find((f) => f.hasGlyphForCodePoint(cp));
  // A character no subset has (emoji, CJK) counts as a full em.
  const w = font ? font.glyphForCodePoint(cp).advanceWidth / font.unitsPerEm : 1;
  cache.set(key, w);
  return w;
}

export function textWidthPx(text: string, sizePx: number, bold = false): number {
  let w = 0;
  for (const ch of text) w += advance(ch, bold);
  return w * sizePx;
}

/** The longest start of text (cut at a word where possible) that fits maxPx with " …" added. */
export function truncateToPx(text: string, maxPx: number, sizePx: number): { shown: string; truncated: boolean } {
  if (textWidthPx(text, sizePx) <= maxPx) return { shown: text, truncated: false };
  const room = maxPx - textWidthPx(" ...", sizePx);
  let cut = "";
  for (const ch of text) {
    if (textWidthPx(cut + ch, sizePx) > room) break;
    cut += ch;
  }
  const atWord = cut.lastIndexOf(" ");
  const shown = (atWord > cut.length / 2 ? cut.slice(0, atWord) : cut).replace(/[\s,.;:—-]+$/u, "");
  return { shown: `${shown} ...`, truncated: true };
}
