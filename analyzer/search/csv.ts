import { ImportFormatError, type TableSource } from "./format.ts";

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
 * Reads RFC 4180 records lazily: quoted fields may hold delimiters, doubled quotes and newlines;
 * blank lines are skipped. A generator, so a 200,000-row file is held once as text and never as a
 * second full array of rows. `position()` is the line the record last yielded starts on (1-based).
 * A quote that is never closed, or text after a closing quote, is a file that did not parse:
 * ImportFormatError naming the line, never a record that swallowed the rest of the file.
 */
export function csvTable(name: string, text: string, delimiter: Delimiter): TableSource {
  let position = 0;
  function* records(): Generator<string[]> {
    let field = "";
    let record: string[] = [];
    let quoted = false;
    let line = 1;
    let recordLine = 1;
    let quoteLine = 1;
    let i = 0;
    const n = text.length;
    const emit = () => {
      record.push(field);
      field = "";
      const done = record;
      record = [];
      return done.length === 1 && done[0] === "" ? null : done;
    };
    while (i < n) {
      const ch = text[i] as string;
      if (quoted) {
        const close = text.indexOf('"', i);
        if (close < 0) break;
        for (let at = text.indexOf("\n", i); at >= 0 && at < close; at = text.indexOf("\n", at + 1)) line++;
        field += text.slice(i, close);
        if (text[close + 1] === '"') {
          field += '"';
          i = close + 2;
          continue;
        }
        quoted = false;
        i = close + 1;
        // Only the delimiter or the end of the record may follow a closing quote (spaces allowed).
        while (text[i] === " ") i++;
        const next = text[i];
        if (next !== undefined && next !== delimiter && next !== "\n" && next !== "\r") throw new ImportFormatError(`${name}: the quoted field closed on row ${line} is followed by text (${JSON.stringify(text.slice(i, i + 20))}); the file is not valid CSV and was not imported`);
        continue;
      }
      if (ch === '"' && field === "") {
        quoted = true;
        quoteLine = line;
        i++;
      } else if (ch === delimiter) {
        record.push(field);
        field = "";
        i++;
      } else if (ch === "\n" || ch === "\r") {
        const done = emit();
        i += ch === "\r" && text[i + 1] === "\n" ? 2 : 1;
        line++;
        if (done) {
          position = recordLine;
          yield done;
        }
        recordLine = line;
      } else {
        const stop = nextSpecial(text, i, delimiter);
        field += text.slice(i, stop);
        i = stop;
      }
    }
    if (quoted) throw new ImportFormatError(`${name}: the quote opened on row ${quoteLine} is never closed; the file is not valid CSV and was not imported`);
    const done = emit();
    if (done) {
      position = recordLine;
      yield done;
    }
  }
  return { name, rows: records(), position: () => position };
}

/** The index of the next delimiter, quote or line break from i (or the end). */
function nextSpecial(text: string, i: number, delimiter: string): number {
  let j = i;
  const n = text.length;
  while (j < n) {
    const c = text[j];
    if (c === delimiter || c === "\n" || c === "\r" || c === '"') return j === i ? i + 1 : j;
    j++;
  }
  return n;
}
