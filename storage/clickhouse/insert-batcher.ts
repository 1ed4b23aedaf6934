import type { ClickHouse } from "./open-clickhouse.ts";

/**
 * Group commit for a ClickHouse table written by many callers at once (the pages of every crawl a
 * scheduler serves): rows that arrive within `lingerMs` of the first of a group go in one INSERT,
 * and each caller's promise settles with that INSERT — resolved once its rows are stored, rejected
 * with the INSERT's error (nothing is acknowledged before it is written). Groups are written one
 * after another.
 *
 * Why: each INSERT makes a part on the server, and ClickHouse's cost is per part far more than per
 * row (on 18.16 an INSERT of 1 and of 200 crawl pages cost about the same CPU, and more the more
 * parts the table holds until merges catch up): eight crawls storing their batches at once cost
 * eight parts, grouped one.
 */
export class InsertBatcher<Row extends Record<string, unknown>> {
  private open: Group<Row> | null = null;
  private timer: NodeJS.Timeout | undefined;
  /** The groups written so far (settled either way): the next is written after them. */
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly ch: ClickHouse,
    private readonly table: string,
    private readonly columns: readonly string[],
    /** How long the first rows of a group wait for company (0: only what arrives in the same turn of the event loop). */
    private readonly lingerMs: number,
    /** A group this large is written at once. */
    private readonly maxRows = 5000,
  ) {}

  /** Resolves once these rows are stored (in one INSERT with whatever joined them), rejects with its error. */
  insert(rows: readonly Row[]): Promise<void> {
    if (rows.length === 0) return Promise.resolve();
    if (!this.open) {
      this.open = group<Row>();
      this.timer = setTimeout(() => this.close(), this.lingerMs);
    }
    const open = this.open;
    for (const row of rows) open.rows.push(row);
    if (open.rows.length >= this.maxRows) this.close();
    return open.settled;
  }

  /** The open group stops taking rows and is written after the groups before it. */
  private close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const g = this.open;
    this.open = null;
    if (!g) return;
    const written = this.writing.then(() => this.ch.insert(this.table, this.columns, g.rows));
    this.writing = written.then(
      () => undefined,
      () => undefined,
    );
    written.then(g.resolve, g.reject);
  }
}

interface Group<Row> {
  readonly rows: Row[];
  readonly settled: Promise<void>;
  readonly resolve: () => void;
  readonly reject: (err: unknown) => void;
}

function group<Row>(): Group<Row> {
  let resolve!: () => void;
  let reject!: (err: unknown) => void;
  const settled = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { rows: [], settled, resolve, reject };
}
