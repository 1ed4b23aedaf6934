import { dateTimeText, sqlIdentifier, sqlLiteral, type SqlValue } from "./clickhouse-literal.ts";

/** A name rendered as a backquoted identifier. */
class Identifier {
  constructor(readonly name: string) {}
}

/** A value always written as an escaped literal, also where query parameters exist (LIMIT n). */
class Inline {
  constructor(readonly value: SqlValue) {}
}

/** `(a, b, …)` for `x IN …`: ClickHouse 18 refuses an array on the right of IN. */
class InList {
  constructor(readonly values: readonly SqlValue[]) {}
}

type Part = SqlValue | Sql | Identifier | Inline | InList;

/**
 * A statement with its values kept apart from the text, built by the sql`` template. It is rendered
 * either with every value as an escaped literal (servers without query parameters) or with
 * {pN:Type} placeholders and the values sent as query parameters.
 */
export class Sql {
  constructor(
    readonly strings: readonly string[],
    readonly parts: readonly Part[],
  ) {}
}

/** sql`SELECT … WHERE host = ${host}`: values are never pasted into the text unescaped. */
export function sql(strings: TemplateStringsArray, ...parts: Part[]): Sql {
  return new Sql([...strings], parts);
}

export function ident(name: string): Identifier {
  return new Identifier(name);
}

export function inline(value: SqlValue): Inline {
  return new Inline(value);
}

/** A non-empty list for IN; an empty one has no SQL form that means "nothing", so it is refused. */
export function inList(values: readonly SqlValue[]): InList {
  if (values.length === 0) throw new RangeError("IN needs at least one value");
  return new InList(values);
}

/** The statement with every value as an escaped literal. */
export function renderLiterals(q: Sql): string {
  return render(q, (v) => sqlLiteral(v));
}

/** The statement with {pN:Type} placeholders, and the parameters to send with it. */
export function renderParams(q: Sql): { query: string; params: Record<string, unknown> } {
  const params: Record<string, unknown> = {};
  let n = 0;
  const query = render(q, (value) => {
    const typed = paramOf(value);
    if (!typed) return sqlLiteral(value);
    const name = `p${n++}`;
    params[name] = typed.value;
    return `{${name}:${typed.type}}`;
  });
  return { query, params };
}

function render(q: Sql, value: (v: SqlValue) => string): string {
  let out = q.strings[0] ?? "";
  q.parts.forEach((part, i) => {
    out += renderPart(part, value) + (q.strings[i + 1] ?? "");
  });
  return out;
}

function renderPart(part: Part, value: (v: SqlValue) => string): string {
  if (part instanceof Sql) return render(part, value);
  if (part instanceof Identifier) return sqlIdentifier(part.name);
  if (part instanceof Inline) return sqlLiteral(part.value);
  if (part instanceof InList) return `(${part.values.map(value).join(", ")})`;
  return value(part);
}

/**
 * The parameter type and value of a value, or null where a literal says it as well and carries no
 * data of a caller (NULL, the empty array, booleans).
 */
function paramOf(value: SqlValue): { type: string; value: unknown } | null {
  if (value === null || typeof value === "boolean") return null;
  if (Array.isArray(value)) {
    const items = (value as readonly SqlValue[]).map(paramOf);
    if (items.length === 0) return null;
    const types = new Set(items.map((t) => t?.type ?? "?"));
    if (types.size !== 1 || types.has("?")) throw new TypeError("an array parameter needs elements of one type (no NULL, no empty array inside)");
    return { type: `Array(${[...types][0]})`, value: items.map((t) => t?.value) };
  }
  if (typeof value === "string") {
    sqlLiteral(value); // the same refusals (lone surrogates) in both modes
    return { type: "String", value };
  }
  if (typeof value === "number") {
    sqlLiteral(value);
    return { type: Number.isSafeInteger(value) ? "Int64" : "Float64", value: Object.is(value, -0) ? 0 : value };
  }
  if (typeof value === "bigint") {
    sqlLiteral(value);
    return { type: value < 0n ? "Int64" : "UInt64", value };
  }
  if (value instanceof Date) return { type: "DateTime('UTC')", value: dateTimeText(value) };
  throw new TypeError(`no SQL parameter for ${typeof value}`);
}
