import { ClickHouseLogLevel, createClient, type ClickHouseClient } from "@clickhouse/client";
import { parseServerVersion, serverFeatures, type ClickHouseFeatures } from "./clickhouse-features.ts";
import { sqlIdentifier } from "./clickhouse-literal.ts";
import { renderLiterals, renderParams, type Sql } from "./clickhouse-sql.ts";

export interface ClickHouseOptions {
  /** http(s)://[user[:password]@]host:port[/database] (SVC_CLICKHOUSE_URL). */
  readonly url: string;
  /** The database, when not in the URL's path; the database must exist. */
  readonly database?: string;
  readonly requestTimeoutMs?: number;
  readonly maxOpenConnections?: number;
  /** Overrides the version's answer: false forces escaped literals. */
  readonly queryParams?: boolean;
  /** Rows per INSERT request of insert(). */
  readonly insertBatchRows?: number;
}

/** A ClickHouse connection that knows the server's version and renders statements to suit it. */
export interface ClickHouse {
  /** The server's version(), e.g. "18.16.1". */
  readonly version: string;
  readonly features: ClickHouseFeatures;
  /** Rows of a SELECT, as JSON objects (64-bit integers arrive as strings). */
  query<R = Record<string, unknown>>(q: Sql): Promise<R[]>;
  /** A statement without rows (DDL, ALTER). */
  command(q: Sql): Promise<void>;
  /** JSONEachRow INSERT of rows with exactly these columns, in batches of insertBatchRows (each batch its own request). */
  insert(table: string, columns: readonly string[], rows: readonly Record<string, unknown>[]): Promise<void>;
  close(): Promise<void>;
}

/** Opens a client and asks the server its version; fails when the server does not answer. */
export async function openClickHouse(options: ClickHouseOptions): Promise<ClickHouse> {
  const client = createClient({
    url: options.url,
    ...(options.database !== undefined ? { database: options.database } : {}),
    request_timeout: options.requestTimeoutMs ?? 30_000,
    max_open_connections: options.maxOpenConnections ?? 10,
    application: "svc",
    // Failures are thrown to the caller, which logs them once; the client would log them again.
    log: { level: ClickHouseLogLevel.OFF },
  });
  try {
    const rows = await (await client.query({ query: "SELECT version() AS version", format: "JSONEachRow" })).json<{ version: string }>();
    const version = rows[0]?.version ?? "";
    const detected = serverFeatures(parseServerVersion(version));
    const features = { ...detected, queryParams: options.queryParams ?? detected.queryParams };
    return new ClickHouseHandle(client, version, features, options.insertBatchRows ?? 10_000);
  } catch (err) {
    await client.close();
    throw new Error(`ClickHouse at ${redact(options.url)} did not answer: ${(err as Error).message}`, { cause: err });
  }
}

class ClickHouseHandle implements ClickHouse {
  constructor(
    private readonly client: ClickHouseClient,
    readonly version: string,
    readonly features: ClickHouseFeatures,
    private readonly batchRows: number,
  ) {}

  async query<R>(q: Sql): Promise<R[]> {
    const result = await this.client.query({ ...this.statement(q), format: "JSONEachRow" });
    return result.json<R>();
  }

  async command(q: Sql): Promise<void> {
    await this.client.command(this.statement(q));
  }

  async insert(table: string, columns: readonly string[], rows: readonly Record<string, unknown>[]): Promise<void> {
    if (columns.length === 0) throw new RangeError("insert() needs its columns");
    // Explicit columns: omitted ones get their DEFAULT expression, not the type's zero (18.16). The
    // client pastes the names as they are, so they go quoted.
    const names = columns.map(sqlIdentifier) as [string, ...string[]];
    for (let i = 0; i < rows.length; i += this.batchRows) {
      await this.client.insert({ table: sqlIdentifier(table), columns: names, values: rows.slice(i, i + this.batchRows), format: "JSONEachRow" });
    }
  }

  close(): Promise<void> {
    return this.client.close();
  }

  private statement(q: Sql): { query: string; query_params?: Record<string, unknown> } {
    if (!this.features.queryParams) return { query: renderLiterals(q) };
    const { query, params } = renderParams(q);
    return { query, query_params: params };
  }
}

function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(unparsable URL)";
  }
}
