import type { CheckDef } from "./check.ts";
import { fail, notApplicable, pass } from "./check.ts";
import { statusOrError } from "./response.ts";

export const securityTxt: CheckDef = {
  code: "security_txt",
  title: "security.txt is published",
  group: "security",
  rankGroup: "security",
  level: "info",
  weight: 1,
  effort: 1,
  recheck: true,
  hint: "Publish /.well-known/security.txt (text/plain, over HTTPS) with `Contact:` and an `Expires:` date less than a year ahead (RFC 9116).",
  run(facts) {
    const file = facts.securityTxt;
    if (!file) return notApplicable("security.txt was not fetched");
    const served = file.status === 200 && file.contentType === "text/plain" && file.finalUrl.startsWith("https://");
    if (served) return pass(200, `${file.finalUrl} is served as text/plain`);
    if (file.status === 200) return fail(200, `${file.finalUrl} answers 200 but as ${file.contentType || "no content type"} or over http`);
    return fail(statusOrError(file), `/.well-known/security.txt answers ${statusOrError(file)}`);
  },
};
