// RFC 4180 CSV: quoted fields, doubled quotes, CRLF or LF. Own code: a few lines cover what the
// utilities read (keyword lists, sitemap rows, data conversion).

export function parseCsv(text: string, delimiter: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += c;
    } else if (c === '"' && field === "") quoted = true;
    else if (c === delimiter) {
      row.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      field = "";
      if (row.length > 1 || row[0] !== "") rows.push(row);
      row = [];
    } else field += c;
  }
  if (field !== "" || row.length > 0) {
    row.push(field);
    if (row.length > 1 || row[0] !== "") rows.push(row);
  }
  return rows;
}

/** The delimiter among , ; tab and | that splits the first lines most consistently. */
export function detectDelimiter(text: string): string {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== "").slice(0, 10);
  let best = ",";
  let bestScore = -1;
  for (const d of [",", ";", "\t", "|"]) {
    const counts = lines.map((l) => parseCsv(l, d)[0]?.length ?? 1);
    const first = counts[0] ?? 1;
    const score = first > 1 && counts.every((n) => n === first) ? first * 10 : Math.max(...counts, 1) - 1;
    if (score > bestScore) {
      best = d;
      bestScore = score;
    }
  }
  return best;
}

function quote(v: string, delimiter: string): string {
  return /["\r\n]/.test(v) || v.includes(delimiter) ? `"${v.replace(/"/g, '""')}"` : v;
}

export function toCsv(rows: readonly (readonly string[])[], delimiter: string): string {
  return rows.map((r) => r.map((v) => quote(v, delimiter)).join(delimiter)).join("\n");
}
