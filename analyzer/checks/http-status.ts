import type { CheckDef } from "./check.ts";
import { fail, notApplicable, pass } from "./check.ts";

/**
 * The checked page's own status, for the single-page checks (GET /full, /check/{tool}), as
 * Lighthouse's http-status-code audit judges it: a page that answers 4xx or 5xx is a failure in
 * its own right, not a page whose other checks are all "not applicable". A site analysis judges
 * its home page with home_status and its other URLs with broken_internal, so this check is not in
 * the site catalogue (CHECKS): it would only say again what those say.
 */
export const httpStatus: CheckDef = {
  code: "http_status",
  title: "The page answers 2xx",
  group: "indexing",
  rankGroup: "indexing",
  level: "bad",
  weight: 6,
  effort: 2,
  recheck: true,
  hint: "Make the page answer 200 (or redirect it with 301 to the page that replaced it); search engines drop pages that answer 4xx or 5xx from their index.",
  run(facts) {
    const response = (facts.home ?? facts.pages[0])?.response;
    if (!response) return notApplicable("no page was fetched");
    // No answer at all is no verdict on the page (the reason is the result's error), as in Lighthouse.
    if (response.status === 0) return notApplicable(`the page did not answer (${response.error || "no answer"})`);
    const url = response.finalUrl || response.requestedUrl;
    if (response.status >= 200 && response.status < 300) return pass(response.status, `${url} answers ${response.status}`);
    return fail(response.status, `${url} answers ${response.status}${response.status >= 500 ? " (server error)" : response.status >= 400 ? " (client error)" : ""}`);
  },
};
