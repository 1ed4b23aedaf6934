import { UtilityError, defineUtility } from "../utility.ts";

interface Input {
  pattern: string;
  flags: string;
  text: string;
  replace?: string;
}

const MAX_MATCHES = 1000;

/**
 * Star height above one (a quantified group that itself holds a quantifier, like (a+)+ or
 * (\w*)*) is the classic shape of catastrophic backtracking. A heuristic: the pool's hard time
 * limit is what actually stops such a pattern.
 */
export function redosRisk(pattern: string): boolean {
  const stack: boolean[] = [];
  let inner = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") {
      i++;
      continue;
    }
    if (c === "[") {
      while (i < pattern.length && pattern[i] !== "]") i += pattern[i] === "\\" ? 2 : 1;
      continue;
    }
    if (c === "(") {
      stack.push(inner);
      inner = false;
    } else if (c === ")") {
      const hadQuantifier: boolean = inner;
      inner = stack.pop() ?? false;
      const next = pattern[i + 1];
      if (hadQuantifier && (next === "+" || next === "*" || next === "{")) return true;
      inner = inner || hadQuantifier;
    } else if (c === "+" || c === "*" || (c === "{" && /^\{\d+,\d*\}/.test(pattern.slice(i)))) inner = true;
  }
  return false;
}

export const regexTest = defineUtility<Input>({
  id: "regex_test",
  group: "dev",
  title: "Regex tester",
  description:
    "Tests a JavaScript regular expression: all matches with groups and indices, replace preview, flags and a ReDoS warning. Runs in a worker with a hard time limit of 1 s",
  net: false,
  file: false,
  cpuMs: 1000,
  fields: [
    { name: "pattern", type: "str", label: "Pattern (without slashes)", required: true, max: 1000 },
    { name: "flags", type: "str", label: "Flags (d g i m s u v y)", default: "g", max: 8, allowEmpty: true },
    { name: "text", type: "text", label: "Test text", required: true },
    { name: "replace", type: "str", label: "Replacement ($1, $<name>)", max: 1000 },
  ],
  example: { pattern: "(\\d{4})-(\\d{2})", flags: "g", text: "2024-05 and 2025-11", replace: "$2/$1" },
  run(input) {
    if (!/^[dgimsuvy]*$/.test(input.flags) || new Set(input.flags).size !== input.flags.length) {
      throw new UtilityError("bad_param", "input.flags takes each of d, g, i, m, s, u, v, y at most once", "input.flags");
    }
    let re: RegExp;
    try {
      re = new RegExp(input.pattern, input.flags.includes("g") ? input.flags : `${input.flags}g`);
    } catch (err) {
      throw new UtilityError("tool_failed", `the pattern does not compile: ${(err as Error).message}`);
    }
    const matches: { match: string; index: number; groups: (string | null)[]; named: Record<string, string | null> }[] = [];
    let truncated = false;
    for (const m of input.text.matchAll(re)) {
      if (matches.length === MAX_MATCHES) {
        truncated = true;
        break;
      }
      matches.push({
        match: m[0],
        index: m.index,
        groups: m.slice(1).map((g) => g ?? null),
        named: Object.fromEntries(Object.entries(m.groups ?? {}).map(([k, v]) => [k, v ?? null])),
      });
      if (!input.flags.includes("g")) break;
    }
    const replaced = input.replace === undefined ? null : input.text.replace(new RegExp(re.source, input.flags), input.replace);
    const risk = redosRisk(input.pattern);
    return {
      result: { count: matches.length, matches, replaced, redos_risk: risk },
      blocks: {
        pairs: [
          { label: "Matches", value: String(matches.length) },
          { label: "ReDoS risk", value: risk ? "nested quantifiers: catastrophic backtracking possible" : "none found", status: risk ? "warn" : "good" },
        ],
        tables: [{ title: "Matches", columns: ["#", "index", "match", "groups"], rows: matches.slice(0, 200).map((m, i) => [i + 1, m.index, m.match, m.groups.join(" | ")]) }],
        ...(replaced === null ? {} : { code: [{ lang: "text", text: replaced }] }),
      },
      warnings: truncated ? [{ code: "truncated", text: `only the first ${MAX_MATCHES} matches are listed` }] : [],
    };
  },
});
