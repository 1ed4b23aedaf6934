import type { CheckDef } from "./check.ts";
import { fail, notApplicable, pass } from "./check.ts";
import { header } from "./response.ts";

// Headers that name server software; a version number in them tells attackers which exploits fit.
const PRODUCT_HEADERS = ["server", "x-powered-by"];
// Headers that exist only to state a version.
const VERSION_HEADERS = ["x-aspnet-version", "x-aspnetmvc-version"];
const VERSION = /\d+\.\d+/;

export const versionDisclosure: CheckDef = {
  code: "version_disclosure",
  title: "Server headers hide software versions",
  group: "security",
  rankGroup: "security",
  level: "info",
  weight: 1,
  effort: 1,
  recheck: true,
  hint: "Stop headers from naming software versions: `server_tokens off` in nginx, `ServerTokens Prod` in Apache, `expose_php = Off` in PHP, and remove X-AspNet-Version.",
  run(facts) {
    const response = facts.home?.response;
    if (!response || response.status === 0) return notApplicable("the home page did not answer");
    const shown = [
      ...PRODUCT_HEADERS.map((name) => [name, header(response, name)] as const).filter(([, v]) => v !== undefined && VERSION.test(v)),
      ...VERSION_HEADERS.map((name) => [name, header(response, name)] as const).filter(([, v]) => v !== undefined),
    ].map(([name, value]) => `${name}: ${value}`);
    if (shown.length === 0) return pass(null, "no header states a software version");
    return fail(shown.join("; "), `the home page's headers state versions: ${shown.join("; ")}`);
  },
};
