import type { CustomPlugin, PluginConfig } from "svgo";
import { UtilityError } from "../utility.ts";

// SVG is untrusted (utilities-catalogue.md §4): before anything rasterises an uploaded SVG, its
// scripts, event handlers, foreignObject, DOCTYPE (entities) and every reference that leaves the
// document (http:, file:, and relative hrefs, CSS url() and @import) are removed with SVGO. Only
// in-document references (#id) and embedded raster data (data:image/png|jpeg|gif|webp) stay.

const SAFE_REF = /^\s*(#|data:image\/(png|jpeg|gif|webp);base64,)/i;
const URL_IN_CSS = /url\(\s*(['"]?)\s*(?!#)[^)]*\)|@import[^;]*;?/gi;

const removeExternalRefs: CustomPlugin = {
  name: "removeExternalRefs",
  fn: () => ({
    element: {
      enter(node, parent) {
        if (node.name === "foreignObject" || node.name.endsWith(":foreignObject")) {
          parent.children = parent.children.filter((c) => c !== node);
          return;
        }
        for (const [name, value] of Object.entries(node.attributes)) {
          const local = name.includes(":") ? name.split(":")[1] : name;
          if ((local === "href" || local === "src") && !SAFE_REF.test(value)) delete node.attributes[name];
          else if (name === "style" && URL_IN_CSS.test(value)) node.attributes[name] = value.replace(URL_IN_CSS, "none");
          URL_IN_CSS.lastIndex = 0;
        }
        if (node.name === "style") {
          for (const child of node.children) if (child.type === "text" || child.type === "cdata") child.value = child.value.replace(URL_IN_CSS, "none");
        }
      },
    },
  }),
};

export interface CleanOptions {
  readonly precision: number;
  readonly multipass: boolean;
  /** Drop scripts, handlers and external references (always done before rasterising). */
  readonly sanitize: boolean;
  /** Only sanitise: keep the drawing as written (favicon.svg, rasterising). */
  readonly minimal?: boolean;
}

/** The SVG optimised (and sanitised) by SVGO; tool_failed when it is not well-formed SVG. */
export async function cleanSvg(svg: string, options: CleanOptions): Promise<string> {
  const { optimize } = await import("svgo");
  const plugins: PluginConfig[] = [];
  if (!options.minimal) {
    plugins.push({ name: "preset-default", params: { floatPrecision: options.precision } } as PluginConfig);
  } else plugins.push("removeDoctype", "removeXMLProcInst", "removeComments");
  if (options.sanitize) plugins.push("removeScripts", removeExternalRefs);
  try {
    const out = optimize(svg, { multipass: options.multipass, plugins }).data;
    if (!/<svg[\s>]/.test(out)) throw new Error("no <svg> element");
    return out;
  } catch (err) {
    if (err instanceof UtilityError) throw err;
    throw new UtilityError("tool_failed", `the SVG could not be parsed (${(err instanceof Error ? err.message : String(err)).replace(/\s+/g, " ").slice(0, 200)})`);
  }
}

/** An uploaded SVG made safe to rasterise. */
export async function safeSvg(svg: string): Promise<Buffer> {
  return Buffer.from(await cleanSvg(svg, { precision: 3, multipass: false, sanitize: true, minimal: true }), "utf8");
}
