import { UtilityError, defineUtility } from "../utility.ts";
import { contrast, hslToRgb, nameOf, over, parseColor, toCmyk, toHex, toHsl, toHwb, toOklch, type Rgba } from "../shared/color.ts";
import { round } from "../shared/numbers.ts";

interface Input {
  foreground: string;
  background: string;
  font_px: number;
  bold: boolean;
}

/** WCAG 2.x: large text is at least 24 px, or 18.66 px (14 pt) bold. */
function isLarge(px: number, bold: boolean): boolean {
  return px >= 24 || (bold && px >= 18.66);
}

/** The colour nearest in HSL lightness to fg (same hue and saturation) that reaches `target` on bg. */
function nearestPassing(fg: Rgba, bg: Rgba, target: number): string | null {
  const [h, s, l] = toHsl(fg);
  let best: { hex: string; delta: number } | null = null;
  for (const dir of [-1, 1]) {
    for (let step = 0.5; step <= 100; step += 0.5) {
      const light = l + dir * step;
      if (light < 0 || light > 100) break;
      const [r, g, b] = hslToRgb(h, s / 100, light / 100);
      const c = { r, g, b, a: 1 };
      if (contrast(c, bg) >= target) {
        if (!best || step < best.delta) best = { hex: toHex(c), delta: step };
        break;
      }
    }
  }
  return best?.hex ?? null;
}

function formats(c: Rgba): Record<string, string> {
  const [h, s, l] = toHsl(c);
  const [hh, w, bl] = toHwb(c);
  const [L, C, H] = toOklch(c);
  const [cy, m, y, k] = toCmyk(c);
  return {
    hex: toHex(c),
    rgb: c.a < 1 ? `rgb(${c.r} ${c.g} ${c.b} / ${c.a})` : `rgb(${c.r}, ${c.g}, ${c.b})`,
    hsl: `hsl(${h}, ${s}%, ${l}%)`,
    hwb: `hwb(${hh} ${w}% ${bl}%)`,
    oklch: `oklch(${L} ${C} ${H})`,
    cmyk: `cmyk(${cy}%, ${m}%, ${y}%, ${k}%)`,
    name: nameOf(c) ?? "",
  };
}

export const contrastRatio = defineUtility<Input>({
  id: "contrast_ratio",
  group: "calc",
  title: "Colour contrast & converter",
  description:
    "WCAG 2.x contrast ratio with AA/AAA verdicts for normal and large text, the nearest colour that passes, and HEX ⇄ RGB ⇄ HSL ⇄ HWB ⇄ OKLCH ⇄ CMYK conversion",
  net: false,
  file: false,
  fields: [
    { name: "foreground", type: "color", label: "Text colour", required: true },
    { name: "background", type: "color", label: "Background colour", default: "#ffffff" },
    { name: "font_px", type: "num", label: "Font size, px", default: 16, min: 1, max: 500 },
    { name: "bold", type: "bool", label: "Bold", default: false },
  ],
  example: { foreground: "#777777", background: "#ffffff", font_px: 16, bold: false },
  run(i) {
    const fgRaw = parseColor(i.foreground) as Rgba;
    const bgRaw = parseColor(i.background) as Rgba;
    if (bgRaw.a < 1) throw new UtilityError("bad_param", "input.background must be opaque: the contrast of a see-through background depends on what is behind it", "input.background");
    const fg = over(fgRaw, bgRaw);
    const ratio = contrast(fg, bgRaw);
    const large = isLarge(i.font_px, i.bold);
    // WCAG compares the unrounded ratio; 2 decimals are shown, as WebAIM does.
    const aa = ratio >= (large ? 3 : 4.5);
    const aaa = ratio >= (large ? 4.5 : 7);
    const result = {
      ratio: round(ratio, 2),
      large_text: large,
      aa,
      aaa,
      aa_large: ratio >= 3,
      aaa_large: ratio >= 4.5,
      suggestion: aa ? null : nearestPassing(fg, bgRaw, large ? 3 : 4.5),
      formats: { foreground: formats(fgRaw), background: formats(bgRaw) },
    };
    return {
      result,
      blocks: {
        pairs: [
          { label: "Contrast", value: `${result.ratio}:1` },
          { label: `AA (${large ? "large" : "normal"} text)`, value: aa ? "pass" : "fail", status: aa ? "good" : "bad" },
          { label: `AAA (${large ? "large" : "normal"} text)`, value: aaa ? "pass" : "fail", status: aaa ? "good" : "warn" },
          ...(result.suggestion ? [{ label: "Nearest passing text colour", value: result.suggestion, status: "info" as const }] : []),
        ],
        tables: [{ title: "Formats", columns: ["format", "foreground", "background"], rows: Object.keys(result.formats.foreground).map((k) => [k, result.formats.foreground[k] ?? "", result.formats.background[k] ?? ""]) }],
      },
    };
  },
});
