import type { ZxcvbnFactory } from "@zxcvbn-ts/core";
import { UtilityError, defineUtility, type UtilityPorts } from "../utility.ts";

interface Input {
  mode: "generate" | "check" | "htpasswd";
  length: number;
  sets: ("lower" | "upper" | "digits" | "symbols")[];
  exclude_similar: boolean;
  count: number;
  password?: string;
  username?: string;
  htpasswd_alg: "bcrypt" | "apr1";
}

const SETS = { lower: "abcdefghijklmnopqrstuvwxyz", upper: "ABCDEFGHIJKLMNOPQRSTUVWXYZ", digits: "0123456789", symbols: "!#$%&*+-=?@^_~" };
/** Characters read alike in many fonts. */
const SIMILAR = new Set([..."Il1O0o|`'\""]);
const B64 = "./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

let zxcvbn: ZxcvbnFactory | null = null;
async function strength(password: string) {
  // Loaded and built once per thread, on first use: the dictionaries are large.
  if (!zxcvbn) {
    const [{ ZxcvbnFactory: Factory }, common, english] = await Promise.all([import("@zxcvbn-ts/core"), import("@zxcvbn-ts/language-common"), import("@zxcvbn-ts/language-en")]);
    zxcvbn = new Factory({ translations: english.translations, graphs: common.adjacencyGraphs, dictionary: { ...common.dictionary, ...english.dictionary } });
  }
  return zxcvbn.check(password);
}

function pick(alphabet: string, ports: UtilityPorts): string {
  return alphabet[ports.randomInt(alphabet.length)] as string;
}

/** A password with at least one character of every chosen set, shuffled. */
function generate(i: Input, ports: UtilityPorts): { value: string; alphabet: number } {
  const sets = i.sets.map((s) => [...SETS[s]].filter((c) => !i.exclude_similar || !SIMILAR.has(c)).join(""));
  const all = sets.join("");
  const chars = sets.map((s) => pick(s, ports));
  while (chars.length < i.length) chars.push(pick(all, ports));
  for (let k = chars.length - 1; k > 0; k--) {
    const j = ports.randomInt(k + 1);
    [chars[k], chars[j]] = [chars[j] as string, chars[k] as string];
  }
  return { value: chars.join(""), alphabet: all.length };
}

function salt(ports: UtilityPorts, n: number): string {
  return Array.from({ length: n }, () => pick(B64, ports)).join("");
}

export const passwordGenerator = defineUtility<Input>({
  id: "password_generator",
  group: "dev",
  title: "Password generator & strength",
  description:
    "Generates passwords (length, character sets, no look-alikes, count). Rates any password (zxcvbn score, guesses, crack times, advice) and makes .htpasswd lines (bcrypt or APR1) for HTTP Basic auth",
  net: false,
  file: false,
  fields: [
    { name: "mode", type: "sel", label: "Mode", options: ["generate", "check", "htpasswd"], default: "generate" },
    { name: "length", type: "int", label: "Length", default: 16, min: 8, max: 128 },
    { name: "sets", type: "multi", label: "Characters", options: ["lower", "upper", "digits", "symbols"], default: ["lower", "upper", "digits", "symbols"] },
    { name: "exclude_similar", type: "bool", label: "No look-alikes (I l 1 O 0)", default: true },
    { name: "count", type: "int", label: "How many", default: 5, min: 1, max: 50 },
    { name: "password", type: "str", label: "Password (check, htpasswd)", max: 256 },
    { name: "username", type: "str", label: "User name (htpasswd)", max: 255 },
    { name: "htpasswd_alg", type: "sel", label: "htpasswd hash", options: ["bcrypt", "apr1"], default: "bcrypt" },
  ],
  example: { mode: "check", password: "P@ssw0rd2024" },
  async run(i, ports) {
    if (i.mode === "generate") {
      const passwords: { value: string; entropy_bits: number; score: number }[] = [];
      for (let n = 0; n < i.count; n++) {
        const { value, alphabet } = generate(i, ports);
        passwords.push({ value, entropy_bits: Math.round(i.length * Math.log2(alphabet) * 10) / 10, score: (await strength(value)).score });
      }
      return {
        result: { passwords },
        blocks: { tables: [{ title: "Passwords", columns: ["password", "entropy, bits", "score 0-4"], rows: passwords.map((p) => [p.value, p.entropy_bits, p.score]) }] },
      };
    }
    if (i.password === undefined) throw new UtilityError("bad_param", `input.password is required in ${i.mode} mode`, "input.password");
    if (i.mode === "htpasswd") {
      if (!i.username || /[:\n]/.test(i.username)) throw new UtilityError("bad_param", "input.username is required and may not contain : or a line break", "input.username");
      const bcrypt = (await import("bcryptjs")).default;
      // A CommonJS package whose types declare a default export: at run time the function is module.exports.
      const md5Module = (await import("apache-md5")).default;
      const apacheMd5 = ((md5Module as unknown as { default?: unknown }).default ?? md5Module) as (password: string, salt?: string) => string;
      const hash = i.htpasswd_alg === "bcrypt" ? bcrypt.hashSync(i.password, `$2y$10$${salt(ports, 22)}`) : apacheMd5(i.password, `$apr1$${salt(ports, 8)}$`);
      const line = `${i.username}:${hash}`;
      return { result: { line }, blocks: { code: [{ lang: "text", text: line, filename: ".htpasswd" }] } };
    }
    const r = await strength(i.password);
    const crack: Record<string, string> = Object.fromEntries(Object.entries(r.crackTimes as unknown as Record<string, { display: string }>).map(([k, v]) => [k, v.display]));
    return {
      result: { score: r.score, guesses: r.guesses, guesses_log10: Math.round(r.guessesLog10 * 100) / 100, crack_times: crack, warning: r.feedback.warning ?? null, suggestions: r.feedback.suggestions },
      blocks: {
        pairs: [
          { label: "Score (0-4)", value: String(r.score), status: r.score >= 3 ? "good" : r.score === 2 ? "warn" : "bad" },
          { label: "Guesses", value: String(r.guesses) },
          ...Object.entries(crack).map(([k, v]) => ({ label: k, value: v })),
          ...(r.feedback.warning ? [{ label: "Warning", value: r.feedback.warning, status: "warn" as const }] : []),
        ],
      },
    };
  },
});
