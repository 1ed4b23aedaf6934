import type { ImportFacts, ImportKind, Provider } from "./facts.ts";

/** What a format reader is told about the file it reads. */
export interface ReadContext {
  /** The entry's name (in a ZIP, with its folder): GSC drill-down Table.csv takes its reason from it. */
  readonly fileName: string;
  /** A data row the format could not use (no date, no URL…), with why: counted, and a file of mostly such rows is refused. */
  skip(reason: string): void;
}

/** A table read row by row: its rows, and the file's row number of the row last handed out (errors name it). */
export interface TableSource {
  readonly name: string;
  readonly rows: Iterable<string[]> | AsyncIterable<string[]>;
  position(): number;
}

/** The rows a format reads after its header. */
export type DataRows = AsyncIterable<string[]>;

/** A table export recognised by its header row (one file per format, listed in formats/index.ts). */
export interface TableFormat {
  readonly id: string;
  readonly provider: Provider;
  readonly kind: ImportKind;
  /** The header it expects, said to a user whose file matched nothing. */
  readonly expects: string;
  /** True when this header row (cells as headerKey gives them) is this format's. */
  matches(header: readonly string[]): boolean;
  /** Reads the data rows after the header into facts; a figure that is not one throws CellError. */
  read(header: readonly string[], rows: DataRows, facts: ImportFacts, ctx: ReadContext): Promise<void>;
}

/** A JSON document from a provider's API saved to a file (Topvisor, Keys.so). */
export interface JsonFormat {
  readonly id: string;
  readonly provider: Provider;
  readonly kind: ImportKind;
  readonly expects: string;
  matches(doc: unknown): boolean;
  read(doc: unknown, facts: ImportFacts): void;
}

/** A file the importer cannot use; the message names what was expected. */
export class ImportFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ImportFormatError";
  }
}

/**
 * A cell that holds no valid figure (a count or position that is text, negative or too large): the
 * importer refuses the file, naming the row and the column's header, rather than store a guess.
 */
export class CellError extends Error {
  constructor(
    readonly column: number,
    readonly problem: string,
  ) {
    super(problem);
    this.name = "CellError";
  }
}

/** The column index of the first header among names (already headerKey'd), or -1. */
export function columnOf(header: readonly string[], ...names: string[]): number {
  for (const n of names) {
    const i = header.indexOf(n);
    if (i >= 0) return i;
  }
  return -1;
}

/** True when every group of alternatives has a column in the header. */
export function hasColumns(header: readonly string[], ...groups: (readonly string[])[]): boolean {
  return groups.every((alts) => alts.some((a) => header.includes(a)));
}
