import { UtilityError, defineUtility } from "../utility.ts";

const OPS = [
  "trim",
  "drop_empty",
  "dedupe",
  "dedupe_ci",
  "sort_az",
  "sort_za",
  "sort_natural",
  "sort_length",
  "shuffle",
  "reverse",
  "prefix",
  "suffix",
  "number",
  "filter_include",
  "filter_exclude",
  "join",
  "split",
] as const;
type Op = (typeof OPS)[number];

interface Input {
  text: string;
  ops: Op[];
  prefix?: string;
  suffix?: string;
  filter?: string;
  filter_regex: boolean;
  delimiter: string;
}

export const linesTool = defineUtility<Input>({
  id: "lines_tool",
  group: "text",
  title: "Lines & list processor",
  description:
    "Removes duplicates (optionally ignoring case), sorts (A–Z, Z–A, natural, by length, random), trims, drops empty lines, adds prefixes, suffixes or numbers, filters by text or regex (include/exclude), reverses, joins or splits by a delimiter. Operations run in the order given",
  net: false,
  file: false,
  fields: [
    { name: "text", type: "text", label: "Lines", required: true },
    { name: "ops", type: "multi", label: "Operations, in order", required: true, options: OPS },
    { name: "prefix", type: "str", label: "Prefix", max: 200 },
    { name: "suffix", type: "str", label: "Suffix", max: 200 },
    { name: "filter", type: "str", label: "Filter text (or regex)", max: 500 },
    { name: "filter_regex", type: "bool", label: "The filter is a regular expression", default: false },
    { name: "delimiter", type: "str", label: "Delimiter of join and split (\\n, \\t understood)", default: ", ", max: 20 },
  ],
  example: { text: "banana\nApple\n\napple\ncherry 10\ncherry 9\nbanana", ops: ["trim", "drop_empty", "dedupe_ci", "sort_natural", "number"] },
  run(i, ports) {
    let lines = i.text.split(/\r?\n/);
    const before = lines.length;
    const delimiter = i.delimiter.replace(/\\n/g, "\n").replace(/\\t/g, "\t");
    const collator = new Intl.Collator(["ru", "en"], { sensitivity: "base" });
    const natural = new Intl.Collator(["ru", "en"], { numeric: true, sensitivity: "base" });
    let matcher: ((l: string) => boolean) | null = null;
    if (i.filter !== undefined) {
      if (i.filter_regex) {
        let re: RegExp;
        try {
          re = new RegExp(i.filter, "u");
        } catch (err) {
          throw new UtilityError("bad_param", `input.filter is not a regular expression: ${(err as Error).message}`, "input.filter");
        }
        matcher = (l) => re.test(l);
      } else {
        const needle = i.filter.toLocaleLowerCase();
        matcher = (l) => l.toLocaleLowerCase().includes(needle);
      }
    }
    const dedupe = (key: (l: string) => string) => {
      const seen = new Set<string>();
      lines = lines.filter((l) => (seen.has(key(l)) ? false : (seen.add(key(l)), true)));
    };
    for (const op of i.ops) {
      switch (op) {
        case "trim":
          lines = lines.map((l) => l.trim());
          break;
        case "drop_empty":
          lines = lines.filter((l) => l.trim() !== "");
          break;
        case "dedupe":
          dedupe((l) => l);
          break;
        case "dedupe_ci":
          dedupe((l) => l.toLocaleLowerCase());
          break;
        case "sort_az":
          lines.sort(collator.compare);
          break;
        case "sort_za":
          lines.sort((a, b) => collator.compare(b, a));
          break;
        case "sort_natural":
          lines.sort(natural.compare);
          break;
        case "sort_length":
          lines.sort((a, b) => a.length - b.length || collator.compare(a, b));
          break;
        case "shuffle":
          // Fisher–Yates over the injected randomness.
          for (let k = lines.length - 1; k > 0; k--) {
            const j = ports.randomInt(k + 1);
            [lines[k], lines[j]] = [lines[j] as string, lines[k] as string];
          }
          break;
        case "reverse":
          lines.reverse();
          break;
        case "prefix":
          lines = lines.map((l) => (i.prefix ?? "") + l);
          break;
        case "suffix":
          lines = lines.map((l) => l + (i.suffix ?? ""));
          break;
        case "number":
          lines = lines.map((l, n) => `${n + 1}. ${l}`);
          break;
        case "filter_include":
        case "filter_exclude": {
          if (!matcher) throw new UtilityError("bad_param", `input.filter is required by ${op}`, "input.filter");
          const m = matcher;
          lines = lines.filter((l) => m(l) === (op === "filter_include"));
          break;
        }
        case "join":
          lines = [lines.join(delimiter)];
          break;
        case "split":
          lines = lines.flatMap((l) => l.split(delimiter));
          break;
      }
    }
    const text = lines.join("\n");
    return {
      result: { text, lines_before: before, lines_after: lines.length, removed: Math.max(0, before - lines.length) },
      blocks: { code: [{ lang: "text", text }], pairs: [{ label: "Lines before", value: String(before) }, { label: "Lines after", value: String(lines.length) }] },
    };
  },
});
