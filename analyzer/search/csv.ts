/** A delimiter an export may use: GSC and Yandex write commas, some locales semicolons, Ahrefs tabs. */
export type Delimiter = "," | ";" | "\t";

const DELIMITERS: readonly Delimiter[] = ["\t", ";", ","];

/**
 * Guesses the delimiter from the first lines: the one that splits them (outside quotes) into the
 * most fields consistently. A one-column file answers ",".
 */
export function sniffDelimiter(text: string): Delimiter {
  const lines = text.slice(0, 8192).split(/\r?\n/).filter((l) => l.trim() !== "").slice(0, 10);
  let best: Delimiter = ",";
  let bestScore = 0;
  for (const d of DELIMITERS) {
    const counts = lines.map((l) => countOutsideQuotes(l, d));
    const min = Math.min(...counts);
    // A delimiter seen on every line scores by its least count; ties go to the earlier (rarer in text) one.
    if (min > bestScore) {
      best = d;
      bestScore = min;
    }
  }
  return best;
}

function countOutsideQuotes(line: string, d: string): number {
  let n = 0;
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (ch === d && !quoted) n++;
  }
  return n;
}

/**
 * Reads RFC 4180 records lazily: quoted fields may hold delimiters, doubled quotes and newlines.
 * Yields one string array per record; blank lines are skipped. A generator, so a 200,000-row file
 * is held once as text and never as a second full array of rows by the caller that streams it.
 */
export function* csvRecords(text: string, delimiter: Delimiter): Generator<string[]> {
  let field = "";
  let record: string[] = [];
  let quoted = false;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const ch = text[i] as string;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        continue;
      }
      field += ch;
      i++;
      continue;
    }
    if (ch === '"' && field === "") {
      quoted = true;
      i++;
    } else if (ch === delimiter) {
      record.push(field);
      field = "";
      i++;
    } else if (ch === "\n" || ch === "\r") {
      record.push(field);
      field = "";
      if (!(record.length === 1 && record[0] === "")) yield record;
      record = [];
      i += ch === "\r" && text[i + 1] === "\n" ? 2 : 1;
    } else {
      field += ch;
      i++;
    }
  }
  record.push(field);
  if (!(record.length === 1 && record[0] === "")) yield record;
}
