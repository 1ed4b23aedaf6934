import type { ImportFacts, ImportKind, Provider } from "./facts.ts";

/** What a format reader is told about the file it reads. */
export interface ReadContext {
  /** The entry's name (in a ZIP, with its folder): GSC drill-down Table.csv takes its reason from it. */
  readonly fileName: string;
}

/** A table export recognised by its header row (one file per format, listed in formats/index.ts). */
export interface TableFormat {
  readonly id: string;
  readonly provider: Provider;
  readonly kind: ImportKind;
  /** The header it expects, said to a user whose file matched nothing. */
  readonly expects: string;
  /** True when this header row (cells as headerKey gives them) is this format's. */
  matches(header: readonly string[]): boolean;
  /** Reads the data rows after the header into facts. */
  read(header: readonly string[], rows: Iterable<string[]>, facts: ImportFacts, ctx: ReadContext): void;
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
