import { HttpResponse, RobotsFacts, RobotsGroupRules } from "../../proto/index.ts";

// The matcher (which paths a crawler may fetch) is the analyzer's, so that checks and crawler agree.
export { crawlDelaySeconds, isAllowed, matchingGroups, productToken } from "../../analyzer/index.ts";

/** Google reads the first 500 KiB of a robots.txt and ignores the rest. */
export const ROBOTS_MAX_BYTES = 500 * 1024;

// Directives we accept without comment: RFC 9309, the de-facto extensions (Lighthouse's safelist)
// and Yandex's. Anything else is reported as a syntax error.
const GROUP_RULES = new Set(["allow", "disallow", "crawl-delay", "request-rate", "visit-time", "noindex"]);
const GLOBAL = new Set(["sitemap", "clean-param", "host"]);

/** Parses a robots.txt body (RFC 9309 plus Yandex Clean-param and Host) into RobotsFacts. */
export function parseRobots(text: string): RobotsFacts {
  const facts = RobotsFacts.fromPartial({ sizeBytes: Buffer.byteLength(text) });
  if (facts.sizeBytes > ROBOTS_MAX_BYTES) {
    text = Buffer.from(text).subarray(0, ROBOTS_MAX_BYTES).toString("utf8");
    facts.syntaxErrors.push(`line 1: file is ${facts.sizeBytes} bytes; only the first ${ROBOTS_MAX_BYTES} are read`);
  }
  let group: RobotsGroupRules | null = null;
  let groupHasRules = false;
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/);
  lines.forEach((raw, i) => {
    const error = (msg: string) => facts.syntaxErrors.push(`line ${i + 1}: ${msg}`);
    const line = raw.replace(/#.*$/, "").trim();
    if (line === "") return;
    const colon = line.indexOf(":");
    if (colon < 0) return error(`no ':' in "${line.slice(0, 80)}"`);
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === "user-agent") {
      if (group === null || groupHasRules) {
        group = RobotsGroupRules.fromPartial({});
        facts.groups.push(group);
        groupHasRules = false;
      }
      if (value === "") return error("empty user-agent");
      group.userAgents.push(value.toLowerCase());
      return;
    }
    if (GLOBAL.has(key)) return globalDirective(facts, key, value, error);
    if (!GROUP_RULES.has(key)) return error(`unknown directive "${line.slice(0, colon).trim()}"`);
    if (group === null) return error(`${key} before any user-agent`);
    groupHasRules = true;
    groupRule(group, key, value, error);
  });
  return facts;
}

function globalDirective(facts: RobotsFacts, key: string, value: string, error: (m: string) => void): void {
  if (key === "sitemap") {
    if (!/^https?:\/\/[^/\s]+/i.test(value) || !URL.canParse(value)) return error(`sitemap is not an absolute http(s) URL: "${value}"`);
    if (!facts.sitemaps.includes(value)) facts.sitemaps.push(value);
  } else if (key === "clean-param") {
    if (value === "") return error("empty clean-param");
    facts.cleanParams.push(value);
  } else if (value === "") {
    error("empty host");
  } else if (facts.hostDirective === "") {
    facts.hostDirective = value;
  } else {
    error(`repeated host directive "${value}" (the first one counts)`);
  }
}

function groupRule(group: RobotsGroupRules, key: string, value: string, error: (m: string) => void): void {
  if (key === "allow" || key === "disallow") {
    if (value === "") return; // an empty rule matches nothing (RFC 9309 §2.2.2)
    if (!value.startsWith("/") && !value.startsWith("*")) error(`${key} pattern must start with '/' or '*': "${value}"`);
    (key === "allow" ? group.allow : group.disallow).push(value);
  } else if (key === "crawl-delay") {
    const seconds = Number(value);
    if (value === "" || !Number.isFinite(seconds) || seconds < 0) return error(`crawl-delay is not a number of seconds: "${value}"`);
    group.crawlDelayS = seconds;
  }
}

/** Builds RobotsFacts from the fetch of /robots.txt: parsed when a 2xx carried a body. */
export function robotsFacts(response: HttpResponse, text: string): RobotsFacts {
  const ok = response.status >= 200 && response.status < 300 && response.error === "";
  const facts = ok ? parseRobots(text) : RobotsFacts.fromPartial({});
  facts.response = response;
  facts.present = response.status === 200 && text.length > 0;
  return facts;
}
