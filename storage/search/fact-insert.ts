import type { Queryable } from "../engine/db.ts";

/** Rows per INSERT: each column travels as one array parameter (unnest), so a chunk costs one statement. */
export const FACT_CHUNK_ROWS = 20_000;

/** A column and its SQL type (the type of its unnest array). */
export type Column = readonly [name: string, type: "bigint" | "integer" | "text" | "double precision" | "boolean"];

/** Inserts rows (values in the order of columns) in chunks of FACT_CHUNK_ROWS, one statement each. */
export async function insertColumns(q: Queryable, table: string, columns: readonly Column[], rows: readonly (readonly unknown[])[]): Promise<void> {
  for (let start = 0; start < rows.length; start += FACT_CHUNK_ROWS) {
    const chunk = rows.slice(start, start + FACT_CHUNK_ROWS);
    const arrays = columns.map((_, i) => chunk.map((row) => row[i] ?? null));
    const unnest = columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(", ");
    await q.query(`INSERT INTO ${table} (${columns.map(([name]) => name).join(",")}) SELECT * FROM unnest(${unnest})`, arrays);
  }
}
