import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";
import { hostnameOf, httpUrl } from "./response.ts";

/** Whether a script host belongs to another site than `domain` (the site's registrable domain). */
function otherSite(src: string, domain: string): boolean {
  const host = httpUrl(src)?.hostname;
  return host !== undefined && host !== domain && !host.endsWith(`.${domain}`);
}

export const sriExternalScripts: CheckDef = {
  code: "sri_external_scripts",
  title: "Scripts from other sites carry an integrity hash",
  group: "security",
  rankGroup: "security",
  level: "info",
  weight: 1,
  effort: 2,
  recheck: true,
  hint: 'Add `integrity="sha384-…" crossorigin="anonymous"` to <script src> tags that load fixed files from other sites (CDN libraries), or host those files yourself.',
  run(facts) {
    // The site's own subdomains (static.example.com) are the site, not a third party.
    const domain = facts.dns?.registrableDomain || hostnameOf(facts.origin || facts.host);
    return aggregatePages(
      htmlPages(facts),
      ({ page }) => {
        const foreign = page.scriptsWithoutIntegrity.filter((src) => otherSite(src, domain));
        return foreign.length === 0 ? "pass" : { verdict: "fail", why: `${foreign.length} script(s) without integrity, e.g. ${foreign[0]}` };
      },
      { problem: "scripts from another site without Subresource Integrity", none: "no HTML page answered 200" },
    );
  },
};
