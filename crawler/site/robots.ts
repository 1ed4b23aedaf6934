import { HttpResponse, RobotsFacts } from "../../proto/index.ts";
import { parseRobots } from "../../analyzer/index.ts";

// The parser and the matcher (which paths a crawler may fetch) are the analyzer's, so that checks,
// crawler and the robots_txt_check utility read a robots.txt alike.
export { crawlDelaySeconds, isAllowed, matchingGroups, parseRobots, productToken, ROBOTS_MAX_BYTES } from "../../analyzer/index.ts";

/** Builds RobotsFacts from the fetch of /robots.txt: parsed when a 2xx carried a body. */
export function robotsFacts(response: HttpResponse, text: string): RobotsFacts {
  const ok = response.status >= 200 && response.status < 300 && response.error === "";
  const facts = ok ? parseRobots(text) : RobotsFacts.fromPartial({});
  facts.response = response;
  facts.present = response.status === 200 && text.length > 0;
  return facts;
}
