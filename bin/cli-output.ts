// How a client command shows an answer by default: the answer's first list of records as an
// aligned table, the rest of its fields as "name: value" lines above it. --json prints the answer
// as the API sent it instead.

const MAX_CELL = 48;

function cell(value: unknown): string {
  if (value === null || value === undefined) return "-";
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > MAX_CELL ? `${text.slice(0, MAX_CELL - 1)}…` : text;
}

function isRecordList(value: unknown): value is Record<string, unknown>[] {
  return Array.isArray(value) && value.every((v) => v !== null && typeof v === "object" && !Array.isArray(v));
}

/** Rows as an aligned table of their scalar (or short) columns, in first-seen order. */
export function renderTable(rows: readonly Record<string, unknown>[]): string {
  const columns: string[] = [];
  for (const row of rows) for (const key of Object.keys(row)) if (!columns.includes(key)) columns.push(key);
  const cells = rows.map((row) => columns.map((c) => cell(row[c])));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((r) => (r[i] as string).length)));
  const line = (parts: readonly string[]) => parts.map((p, i) => p.padEnd(widths[i] as number)).join("  ").trimEnd();
  return [line(columns.map((c) => c.toUpperCase())), ...cells.map(line)].join("\n");
}

/** An answer as people read it. */
export function renderAnswer(body: unknown): string {
  if (body === null || typeof body !== "object") return cell(body);
  if (isRecordList(body)) return body.length === 0 ? "(none)" : renderTable(body);
  const entries = Object.entries(body as Record<string, unknown>);
  const listEntry = entries.find(([, v]) => isRecordList(v) && v.length > 0) ?? entries.find(([, v]) => isRecordList(v));
  const lines: string[] = [];
  for (const [key, value] of entries) {
    if (listEntry && key === listEntry[0]) continue;
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      const inner = Object.entries(value as Record<string, unknown>).map(([k, v]) => `${k}=${cell(v)}`);
      lines.push(`${key}: ${inner.join(" ")}`);
    } else {
      lines.push(`${key}: ${cell(value)}`);
    }
  }
  if (listEntry) {
    const [key, rows] = listEntry as [string, Record<string, unknown>[]];
    if (lines.length > 0) lines.push("");
    lines.push(rows.length === 0 ? `(no ${key})` : renderTable(rows));
  }
  return lines.join("\n");
}

/** A one-line progress bar: [#########...........]  45% running. */
export function progressBar(progress: number, state: string, width = 30): string {
  const p = Math.max(0, Math.min(100, Math.round(progress)));
  const filled = Math.round((p / 100) * width);
  return `[${"#".repeat(filled)}${".".repeat(width - filled)}] ${String(p).padStart(3)}% ${state}`;
}
