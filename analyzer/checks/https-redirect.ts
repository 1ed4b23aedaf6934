import type { HttpResponse, Redirect, SiteFacts } from "../../proto/index.ts";
import type { CheckDef } from "./check.ts";
import { fail, notApplicable, pass } from "./check.ts";
import { hostnameOf, httpUrl } from "./response.ts";
import { httpsWorks } from "./tls-state.ts";

const PERMANENT = new Set([301, 308]);
const CAP_WHILE_HTTPS_WORKS = 79;

function redirectProblem(facts: SiteFacts, plain: HttpResponse, first: Redirect): string | undefined {
  if (!PERMANENT.has(first.status)) return `the first hop is ${first.status}, not 301/308`;
  const target = httpUrl(first.location);
  // The monitored host or the host the site is served from: http://example.com → https://www.example.com is one clean hop.
  const hosts = new Set([hostnameOf(facts.host), hostnameOf(facts.origin)]);
  if (target?.protocol !== "https:" || !hosts.has(target.hostname)) return `the first hop goes to ${first.location}, not to https:// on this host`;
  if (!plain.finalUrl.startsWith("https://")) return `the redirects end at ${plain.finalUrl}`;
  return undefined;
}

export const httpsRedirect: CheckDef = {
  code: "https_redirect",
  title: "HTTP redirects to HTTPS",
  group: "security",
  rankGroup: "security",
  level: "bad",
  weight: 6,
  effort: 1,
  recheck: true,
  hint: "Redirect every http:// request with a 301 (or 308) straight to the same URL on https://.",
  run(facts) {
    const plain = facts.httpVariant;
    // Not probed (e.g. a site on a custom port): nothing measured.
    if (!plain) return notApplicable("http:// was not probed");
    // Port 80 closed: nothing to redirect (Mozilla Observatory's redirection-not-needed-no-http, no penalty).
    if (plain.status === 0) return notApplicable(`http:// does not answer (${plain.error || "no answer"}), no redirect needed`);
    // Without working HTTPS there is nowhere to redirect to: https_available carries the cap then.
    const cap = httpsWorks(facts) ? CAP_WHILE_HTTPS_WORKS : undefined;
    const first = plain.redirects[0];
    if (!first) return fail(plain.status, `http:// answers ${plain.status} without redirecting to https://`, { cap });
    const problem = redirectProblem(facts, plain, first);
    if (problem) return fail(first.status, `http:// ${problem}`, { cap });
    return pass(first.status, `http:// redirects with ${first.status} to ${first.location}`);
  },
};
