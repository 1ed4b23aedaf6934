import { UtilityError, defineUtility, type Warning } from "../utility.ts";
import { isSvgText } from "../shared/sniff.ts";
import { EXAMPLE_SVG } from "./example-image.ts";
import { encode, formatCount, openImage, savedPct } from "./image-input.ts";
import { cleanSvg } from "./svg-clean.ts";

interface Input {
  svg?: string;
  file?: Uint8Array;
  file_name?: string;
  precision: number;
  multipass: boolean;
  sanitize: boolean;
}

const RISKY = /<script[\s>]|\son[a-z]+\s*=|javascript:|<foreignObject[\s>]|(?:xlink:)?href\s*=\s*["']\s*(?:https?:|file:|\/\/)/gi;

export const svgOptimize = defineUtility<Input>({
  id: "svg_optimize",
  group: "img",
  title: "SVG optimizer",
  description:
    "Optimises an SVG (file or text) with SVGO: removes editor metadata, comments and hidden parts, merges paths, rounds precision. The sanitise option also drops scripts, event handlers and external references. Gives a PNG preview",
  net: false,
  file: true,
  fileKinds: ["svg"],
  fields: [
    { name: "svg", type: "text", label: "SVG markup" },
    { name: "file", type: "file", label: "SVG file" },
    { name: "precision", type: "int", label: "Decimal places", default: 3, min: 0, max: 8 },
    { name: "multipass", type: "bool", label: "Repeat until nothing changes", default: true },
    { name: "sanitize", type: "bool", label: "Remove scripts, event handlers and external references", default: true },
  ],
  oneOf: [["svg", "file"]],
  example: { svg: EXAMPLE_SVG, precision: 2 },
  async run(input) {
    const source = input.svg ?? Buffer.from(input.file as Uint8Array).toString("utf8");
    if (!isSvgText(Buffer.from(source.slice(0, 4096)))) throw new UtilityError("tool_failed", "the text is not an SVG document (its first element must be <svg>)");
    const warnings: Warning[] = [];
    const risky = [...new Set([...source.matchAll(RISKY)].map((m) => m[0].trim().slice(0, 30)))];
    if (risky.length && !input.sanitize) warnings.push({ code: "unsafe_content", text: `the SVG has active or external content (${risky.slice(0, 5).join(", ")}); sanitize removes it` });
    const svg = await cleanSvg(source, { precision: input.precision, multipass: input.multipass, sanitize: input.sanitize });
    const before = Buffer.byteLength(source);
    const after = Buffer.byteLength(svg);
    // The preview rasterises a sanitised copy whatever was asked (openImage sanitises SVG).
    const img = await openImage(Buffer.from(svg));
    const side = Math.max(img.width, img.height);
    const density = Math.min(2400, Math.max(1, (72 * Math.min(512, side * 4)) / side));
    const { data: png, info } = await encode(img.pipeline({ density }).resize(512, 512, { fit: "inside", withoutEnlargement: true }).png());
    const saved = savedPct(before, after);
    return {
      result: { svg, bytes_before: before, bytes_after: after, saved_pct: saved, removed_unsafe: input.sanitize ? risky : [], width: img.width, height: img.height },
      blocks: {
        pairs: [
          { label: "Before", value: `${formatCount(before)} bytes` },
          { label: "After", value: `${formatCount(after)} bytes` },
          { label: "Saved", value: `${saved}%`, status: saved > 0 ? "good" : "info" },
          ...(input.sanitize ? [{ label: "Unsafe parts removed", value: risky.length ? risky.join(", ") : "none found", status: risky.length ? ("warn" as const) : ("good" as const) }] : []),
        ],
        code: [{ lang: "xml", text: svg, filename: "optimized.svg" }],
        images: [{ mime: "image/png", data_base64: png.toString("base64"), width: info.width, height: info.height, alt: "SVG preview" }],
      },
      warnings,
    };
  },
});
