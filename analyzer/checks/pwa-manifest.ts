import type { CheckDef } from "./check.ts";
import { fail, notApplicable, pass } from "./check.ts";
import { htmlPages } from "./page-sample.ts";
import { statusOrError } from "./response.ts";

// Display modes that open the site as an app (W3C Web Application Manifest); "browser" does not.
const APP_DISPLAY = new Set(["standalone", "fullscreen", "minimal-ui"]);

export const pwaManifest: CheckDef = {
  code: "pwa_manifest",
  title: "Web app manifest is linked and complete",
  group: "mobile",
  rankGroup: "presentation",
  level: "info",
  weight: 1,
  effort: 2,
  recheck: true,
  hint: 'Link a manifest from the home page (`<link rel="manifest" href="/site.webmanifest">`) with name, start_url and display "standalone" so the site can be installed.',
  run(facts) {
    const home = htmlPages(facts).find((p) => p.isHome);
    if (!home) return notApplicable("the home page did not answer 200 with HTML");
    if (!home.page.manifestHref) return fail(null, "the home page links no web app manifest");
    const manifest = facts.manifest;
    if (!manifest?.response) return notApplicable("the manifest was not fetched");
    const r = manifest.response;
    if (r.status !== 200 || r.error !== "") return fail(statusOrError(r), `${manifest.href} answers ${statusOrError(r)}`);
    if (!manifest.parsed) return fail(null, `${manifest.href} is not a JSON object`);
    const missing = [
      ...(manifest.name || manifest.shortName ? [] : ["name or short_name"]),
      ...(manifest.startUrl ? [] : ["start_url"]),
      ...(APP_DISPLAY.has(manifest.display) ? [] : [manifest.display ? `display "${manifest.display}" (not standalone, fullscreen or minimal-ui)` : "display"]),
    ];
    if (missing.length > 0) return fail(manifest.display || null, `${manifest.href} lacks ${missing.join(", ")}`);
    return pass(manifest.display, `${manifest.href}: "${manifest.name || manifest.shortName}", display ${manifest.display}`);
  },
};
