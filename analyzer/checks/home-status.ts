import type { SiteFacts } from "../../proto/index.ts";
import type { CheckDef } from "./check.ts";
import { fail, pass } from "./check.ts";

const CAP_NO_ANSWER = 10;
const CAP_CLIENT_ERROR = 20;

/**
 * Why the home page gave no HTTP answer at all (a refused or reset connection, a timeout, a failed
 * handshake), or null when it answered with any status: the site could not be analysed, whatever
 * the rest of the facts say.
 */
export function homeNoAnswer(facts: SiteFacts): string | null {
  const response = facts.home?.response;
  if (response && response.status !== 0) return null;
  return response?.error || "no answer";
}

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
    const error = homeNoAnswer(facts);
    if (!response || error !== null) return fail(error ?? "no answer", `the home page did not answer (${error ?? "no answer"})`, { cap: CAP_NO_ANSWER });
    const status = response.status;
    if (status >= 500) return fail(status, `the home page answers ${status} (server error)`, { cap: CAP_NO_ANSWER });
    if (status >= 400) return fail(status, `the home page answers ${status} (client error)`, { cap: CAP_CLIENT_ERROR });
    if (status === 200) return pass(200, `${response.finalUrl} answers 200`);
    return fail(status, `the home page ends with status ${status}, not 200`);
  },
};
