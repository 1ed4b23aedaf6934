import type { CheckDef } from "./check.ts";
import { fail, pass } from "./check.ts";

const CAP_NO_ANSWER = 10;
const CAP_CLIENT_ERROR = 20;

export const homeStatus: CheckDef = {
  code: "home_status",
  title: "Home page answers 200",
  group: "indexing",
  rankGroup: "indexing",
  level: "bad",
  weight: 6,
  effort: 2,
  recheck: true,
  hint: "Make the home page answer 200 within 10 seconds: check the server, the firewall and any bot protection in front of it.",
  run(facts) {
    const response = facts.home?.response;
    // The crawler always requests the home page; facts without it mean there was no answer at all.
    if (!response || response.status === 0) {
      const error = response?.error || "no answer";
      return fail(error, `the home page did not answer (${error})`, { cap: CAP_NO_ANSWER });
    }
    const status = response.status;
    if (status >= 500) return fail(status, `the home page answers ${status} (server error)`, { cap: CAP_NO_ANSWER });
    if (status >= 400) return fail(status, `the home page answers ${status} (client error)`, { cap: CAP_CLIENT_ERROR });
    if (status === 200) return pass(200, `${response.finalUrl} answers 200`);
    return fail(status, `the home page ends with status ${status}, not 200`);
  },
};
