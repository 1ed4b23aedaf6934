import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";
import { header } from "./response.ts";

export const permissionsPolicy: CheckDef = {
  code: "permissions_policy",
  title: "Permissions-Policy limits browser features",
  group: "security",
  rankGroup: "security",
  level: "info",
  weight: 1,
  effort: 1,
  recheck: true,
  hint: "Send a `Permissions-Policy` header that turns off the features you do not use, e.g. `camera=(), microphone=(), geolocation=()`.",
  run(facts) {
    return aggregatePages(
      htmlPages(facts),
      ({ page }) => {
        // Feature-Policy is the header's former name; browsers that know only it still honour it.
        const value = header(page.response, "permissions-policy") ?? header(page.response, "feature-policy");
        return value?.trim() ? "pass" : { verdict: "fail", why: "no Permissions-Policy" };
      },
      { problem: "no Permissions-Policy header", none: "no HTML page answered 200" },
    );
  },
};
