import type { CheckDef } from "./check.ts";
import { fail, notApplicable, pass } from "./check.ts";
import { statusOrError } from "./response.ts";

export const favicon: CheckDef = {
  code: "favicon",
  title: "Favicon is available",
  group: "technical",
  rankGroup: "technical",
  level: "info",
  weight: 1,
  effort: 1,
  recheck: true,
  hint: 'Serve a favicon (at least 16×16, better 48×48) and link it with `<link rel="icon" href="…">`.',
  run(facts) {
    const icon = facts.favicon;
    if (!icon) return notApplicable("the favicon was not fetched");
    if (icon.status === 200 && icon.contentType.startsWith("image/")) return pass(200, `${icon.finalUrl} is an image`);
    const what = icon.status === 200 ? `answers 200 with ${icon.contentType || "no content type"}, not an image` : `answers ${statusOrError(icon)}`;
    return fail(statusOrError(icon), `${icon.requestedUrl || "the favicon"} ${what}`);
  },
};
