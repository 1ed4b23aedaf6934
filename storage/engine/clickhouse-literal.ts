// The one place where a value becomes ClickHouse SQL text. ClickHouse before 19.x has no query
// parameters, so every value that reaches a query on such a server passes through sqlLiteral();
// statements are built with the sql`` template (sql-template.ts), never by concatenation.

/** What may be written into a statement as a literal. */
export type SqlValue = string | number | bigint | boolean | Date | null | readonly SqlValue[];

// DateTime (UInt32 seconds) covers 1970-01-01 00:00:00 .. 2106-02-07 06:28:15 UTC.
const DATETIME_MAX_SECONDS = 2 ** 32 - 1;
const INT64_MIN = -(2n ** 63n);
const UINT64_MAX = 2n ** 64n - 1n;

const NAMED_ESCAPES: Readonly<Record<string, string>> = {
  "\\": "\\\\",
  "'": "\\'",
  "\0": "\\0",
  "\b": "\\b",
  "\f": "\\f",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
};

/**
 * A value as a ClickHouse literal:
 * - strings in single quotes; backslash, quote and every control character escaped (named escapes
 *   or \xHH), the rest verbatim (UTF-8 on the wire); a lone UTF-16 surrogate is refused, since it
 *   could not come back unchanged;
 * - finite numbers and bigints in Int64/UInt64 range; negative ones in parentheses so that no
 *   `--` comment can form; NaN and ±Infinity are refused;
 * - booleans as 1 and 0 (ClickHouse 18 has no Bool), null as NULL;
 * - a Date as 'YYYY-MM-DD hh:mm:ss' in UTC, whole seconds (milliseconds are dropped): compare it
 *   with a DateTime('UTC') column, whose type decides how the text is read;
 * - arrays as [a, b, …] of the above.
 * Throws TypeError or RangeError for anything else.
 */
export function sqlLiteral(value: SqlValue): string {
  if (value === null) return "NULL";
  switch (typeof value) {
    case "string":
      return `'${escapeString(value)}'`;
    case "number":
      return numberLiteral(value);
    case "bigint":
      if (value < INT64_MIN || value > UINT64_MAX) throw new RangeError(`${value} is outside Int64/UInt64`);
      return value < 0n ? `(${value})` : String(value);
    case "boolean":
      return value ? "1" : "0";
    case "object":
      if (value instanceof Date) return `'${dateTimeText(value)}'`;
      if (Array.isArray(value)) return `[${(value as readonly SqlValue[]).map(sqlLiteral).join(", ")}]`;
      break;
    default:
      break;
  }
  throw new TypeError(`no SQL literal for ${describe(value)}`);
}

/** A name (database, table, column) in backquotes, escaped like a string. */
export function sqlIdentifier(name: string): string {
  if (typeof name !== "string" || name === "") throw new TypeError("an identifier must be a non-empty string");
  if (name.includes("\0")) throw new RangeError("an identifier cannot contain NUL");
  return `\`${escapeString(name).replace(/`/g, "\\`")}\``;
}

/** 'YYYY-MM-DD hh:mm:ss' of a Date in UTC, for DateTime('UTC') columns; seconds truncated. */
export function dateTimeText(date: Date): string {
  const ms = date.getTime();
  if (!Number.isFinite(ms)) throw new RangeError("an invalid Date has no DateTime literal");
  const seconds = Math.floor(ms / 1000);
  if (seconds < 0 || seconds > DATETIME_MAX_SECONDS) throw new RangeError(`${date.toISOString()} is outside ClickHouse's DateTime range`);
  return new Date(seconds * 1000).toISOString().slice(0, 19).replace("T", " ");
}

function escapeString(s: string): string {
  if (/\p{Surrogate}/u.test(s)) throw new RangeError("a string with a lone UTF-16 surrogate cannot be stored unchanged");
  let out = "";
  for (const ch of s) {
    const named = NAMED_ESCAPES[ch];
    if (named !== undefined) out += named;
    else {
      const code = ch.codePointAt(0) as number;
      out += code < 0x20 || code === 0x7f ? `\\x${code.toString(16).toUpperCase().padStart(2, "0")}` : ch;
    }
  }
  return out;
}

function numberLiteral(n: number): string {
  if (!Number.isFinite(n)) throw new RangeError(`${n} has no SQL literal (NaN and Infinity are refused)`);
  if (Object.is(n, -0)) return "0";
  // String() gives the shortest text that reads back as the same double (1e+21, 1.5e-7 included).
  return n < 0 ? `(${String(n)})` : String(n);
}

function describe(value: unknown): string {
  if (value === undefined) return "undefined";
  if (typeof value === "object") return `an object (${Object.prototype.toString.call(value)})`;
  return typeof value;
}
