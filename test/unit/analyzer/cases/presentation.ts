// Presentation's newer checks: web app manifest, hreflang sets, structured data and Open Graph details.
import { ORIGIN } from "../site-builder.ts";
import { HOME_FAILS, ONE_PAGE_FAILS, type CheckCase } from "./check-case.ts";

const HOME_JSON_LD = (organization: object) =>
  JSON.stringify({ "@context": "https://schema.org", "@graph": [{ "@type": "WebSite", name: "Example", url: `${ORIGIN}/` }, { "@type": "Organization", ...organization }] });

export const PRESENTATION_CASES: Record<string, CheckCase> = {
  pwa_manifest: {
    // short_name alone names the app; minimal-ui opens it as an app too.
    pass: (f) => Object.assign(f.manifest!, { name: "", display: "minimal-ui" }),
    passValue: "minimal-ui",
    fail: (f) => void (f.manifest!.display = "browser"),
    failStatus: "fail",
    failValue: "browser",
    failScore: 0,
  },
  pwa_icons: {
    // One icon may declare both sizes; without a type, a .png name says PNG.
    pass: (f) => void (f.manifest!.icons = [{ src: "/icons.png?v=2", sizes: "192x192 512x512", type: "", purpose: "any" }]),
    passValue: 512,
    fail: (f) => void f.manifest!.icons.pop(),
    failStatus: "fail",
    failValue: 192,
    failScore: 0,
  },
  hreflang_self: {
    passValue: 0,
    // x-default still points here, but no language entry does.
    fail: (f) => void (f.home!.hreflang[0]!.href = `${ORIGIN}/en/`),
    failStatus: "fail",
    failValue: 1,
    // Only the home page has hreflang: f = 1.
    failScore: 0,
  },
  hreflang_x_default: {
    passValue: 0,
    fail: (f) => void f.home!.hreflang.pop(),
    failStatus: "fail",
    failValue: 1,
    // Only the home page has hreflang: f = 1.
    failScore: 0,
  },
  hreflang_lang_mismatch: {
    // en-GB for itself agrees with lang="en": the primary language decides.
    pass: (f) => void (f.home!.hreflang[0]!.hreflang = "en-GB"),
    passValue: 0,
    fail: (f) => void (f.home!.lang = "de"),
    failStatus: "fail",
    failValue: 1,
    // Only the home page has hreflang: f = 1.
    failScore: 0,
  },
  schema_required: {
    // A breadcrumb's last entry (the page itself) needs no item URL: the healthy post has one like it.
    passValue: 0,
    fail: (f) => void (f.home!.jsonLd = [HOME_JSON_LD({ name: "Example", url: `${ORIGIN}/` })]),
    failStatus: "fail",
    failValue: 1,
    // The home page and the post carry checked types.
    failScore: 0.9 * (1 - 3 / 4),
  },
  schema_core_types: {
    // A LocalBusiness (here from microdata) describes the organisation too.
    pass: (f) => void (f.home!.schemaTypes = ["LocalBusiness"]),
    passValue: "LocalBusiness",
    fail: (f) => void (f.home!.schemaTypes = ["WebPage"]),
    failStatus: "fail",
    failValue: null,
    failScore: 0,
  },
  schema_breadcrumbs: {
    passValue: 0,
    // The post is the only page two levels deep: f = 1.
    fail: (f) => void (f.pages[1]!.schemaTypes = ["WebPage"]),
    failStatus: "fail",
    failValue: 1,
    failScore: 0,
  },
  og_image: {
    pass: (f) =>
      void f.home!.openGraph.push(
        { key: "og:image:width", content: "1200" },
        { key: "og:image:height", content: "630" },
      ),
    passValue: 0,
    fail: (f) => void (f.pages[0]!.openGraph.find((m) => m.key === "og:image")!.content = "/og-image.png"),
    failStatus: "fail",
    failValue: 1,
    failScore: ONE_PAGE_FAILS,
  },
  og_url_match: {
    passValue: 0,
    fail: (f) => void (f.home!.openGraph.find((m) => m.key === "og:url")!.content = `${ORIGIN}/index.html`),
    failStatus: "fail",
    failValue: 1,
    failScore: HOME_FAILS,
  },
  og_description: {
    // A page without any Open Graph tags is og_required's failure, not this one's.
    pass: (f) => void (f.pages[0]!.openGraph = []),
    passValue: 0,
    fail: (f) => void (f.home!.openGraph = f.home!.openGraph.filter((m) => m.key !== "og:description")),
    failStatus: "fail",
    failValue: 1,
    failScore: HOME_FAILS,
  },
  social_profiles: {
    // The Organization's sameAs is enough without a visible link.
    pass: (f) => void (f.home!.links = f.home!.links.filter((l) => l.internal)),
    passValue: 1,
    // A share button is not a profile.
    fail: (f) => {
      f.home!.links[2]!.href = "https://www.facebook.com/sharer/sharer.php?u=https%3A%2F%2Fexample.com%2F";
      f.home!.jsonLd = [HOME_JSON_LD({ name: "Example", url: `${ORIGIN}/`, logo: `${ORIGIN}/logo.png` })];
    },
    failStatus: "fail",
    failValue: 0,
    failScore: 0,
  },
};
