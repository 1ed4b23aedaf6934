import type { ManifestIcon } from "../../proto/index.ts";
import type { CheckDef } from "./check.ts";
import { fail, notApplicable, pass } from "./check.ts";
import { htmlPages } from "./page-sample.ts";

// The icon sizes installers ask for: 192 px for the home screen, 512 px for the splash screen.
const SIZES = [192, 512];

function isPng(icon: ManifestIcon): boolean {
  return icon.type.toLowerCase() === "image/png" || (icon.type === "" && /\.png$/i.test(icon.src.split(/[?#]/)[0] ?? ""));
}

/** The usable edge (shorter side) of every PNG size a manifest declares: sizes "192x192 512x512" → [192, 512]. */
function pngEdges(icons: readonly ManifestIcon[]): number[] {
  return icons.filter(isPng).flatMap((i) =>
    i.sizes
      .toLowerCase()
      .split(/\s+/)
      .map((s) => /^(\d+)x(\d+)$/.exec(s))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => Math.min(Number(m[1]), Number(m[2]))),
  );
}

export const pwaIcons: CheckDef = {
  code: "pwa_icons",
  title: "App icons of 192 and 512 px are declared",
  group: "mobile",
  rankGroup: "presentation",
  level: "info",
  weight: 1,
  effort: 2,
  recheck: true,
  hint: 'List PNG icons of 192×192 and 512×512 in the manifest\'s "icons", and link an apple-touch-icon (180×180) from the home page for iOS.',
  run(facts) {
    const home = htmlPages(facts).find((p) => p.isHome);
    const manifest = facts.manifest;
    // Without a readable manifest pwa_manifest fails; its icons are not judged twice.
    if (!home || !manifest?.parsed) return notApplicable("no readable web app manifest");
    const edges = pngEdges(manifest.icons);
    const missing = [...SIZES.filter((size) => !edges.some((e) => e >= size)).map((size) => `a PNG icon of at least ${size}×${size}`)];
    if (!home.page.appleTouchIcon) missing.push("an apple-touch-icon link");
    const largest = edges.length > 0 ? Math.max(...edges) : 0;
    if (missing.length > 0) return fail(largest, `missing ${missing.join(", ")}`);
    return pass(largest, `PNG icons up to ${largest}×${largest}; apple-touch-icon ${home.page.appleTouchIcon}`);
  },
};
