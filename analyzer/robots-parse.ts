// robots.txt read into RobotsFacts (RFC 9309 plus Yandex's Clean-param and Host): the one parser
// the crawler obeys and the robots_txt_check utility reports with, beside the one matcher
// (robots-match.ts), so that a utility and a site's report read a file the same way. Pure.
import { RobotsFacts, RobotsGroupRules } from "../proto/index.ts";

/** Google reads the first 500 KiB of a robots.txt and ignores the rest. */
export const ROBOTS_MAX_BYTES = 500 * 1024;

// Directives we accept without comment: RFC 9309, the de-facto extensions (Lighthouse's safelist)
// and Yandex's. Anything else is reported as a syntax error.
const GROUP_RULES = new Set(["allow", "disallow", "crawl-delay", "request-rate", "visit-time", "noindex"]);
const GLOBAL = new Set(["sitemap", "clean-param", "host"]);

/** Where each group and rule of RobotsFacts stands in the file (1-based lines), parallel to `facts.groups`. */
export interface RobotsLines {
  readonly groups: readonly {
    /** The group's first user-agent line. */
    readonly line: number;
    /** Its user-agent values as written (RobotsFacts keeps them lower-cased). */
    readonly agents: readonly string[];
    readonly rules: readonly { readonly allow: boolean; readonly pattern: string; readonly line: number }[];
  }[];
}

/** A robots.txt read: its facts and the lines they came from (for a report that quotes them). */
export interface RobotsReading {
  readonly facts: RobotsFacts;
  readonly lines: RobotsLines;
}

/** Parses a robots.txt body (RFC 9309 plus Yandex Clean-param and Host) into RobotsFacts. */
export function parseRobots(text: string): RobotsFacts {
  return readRobots(text).facts;
}

/** parseRobots, with the line of every group and rule kept. */
export function readRobots(text: string): RobotsReading {
  const bytes = new TextEncoder().encode(text);
  const facts = RobotsFacts.fromPartial({ sizeBytes: bytes.length });
  const lineGroups: { line: number; agents: string[]; rules: { allow: boolean; pattern: string; line: number }[] }[] = [];
  if (facts.sizeBytes > ROBOTS_MAX_BYTES) {
    text = new TextDecoder().decode(bytes.subarray(0, ROBOTS_MAX_BYTES));
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
        lineGroups.push({ line: i + 1, agents: [], rules: [] });
        groupHasRules = false;
      }
      if (value === "") return error("empty user-agent");
      group.userAgents.push(value.toLowerCase());
      lineGroups[lineGroups.length - 1]?.agents.push(value);
      return;
    }
    if (GLOBAL.has(key)) return globalDirective(facts, key, value, error);
    if (!GROUP_RULES.has(key)) return error(`unknown directive "${line.slice(0, colon).trim()}"`);
    if (group === null) return error(`${key} before any user-agent`);
    groupHasRules = true;
    const rule = groupRule(group, key, value, error);
    if (rule) lineGroups[lineGroups.length - 1]?.rules.push({ ...rule, line: i + 1 });
  });
  return { facts, lines: { groups: lineGroups } };
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

/** Adds one rule line to its group; the Allow/Disallow rule it added, if any. */
function groupRule(group: RobotsGroupRules, key: string, value: string, error: (m: string) => void): { allow: boolean; pattern: string } | null {
  if (key === "allow" || key === "disallow") {
    if (value === "") return null; // an empty rule matches nothing (RFC 9309 §2.2.2)
    if (!value.startsWith("/") && !value.startsWith("*")) error(`${key} pattern must start with '/' or '*': "${value}"`);
    (key === "allow" ? group.allow : group.disallow).push(value);
    return { allow: key === "allow", pattern: value };
  } else if (key === "crawl-delay") {
    const seconds = Number(value);
    if (value === "" || !Number.isFinite(seconds) || seconds < 0) {
      error(`crawl-delay is not a number of seconds: "${value}"`);
      return null;
    }
    group.crawlDelayS = seconds;
  }
  return null;
}
