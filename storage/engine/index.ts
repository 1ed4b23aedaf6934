// The storage engines: the Db port (PGlite, PostgreSQL), the ClickHouse connection and its SQL, migrations, the data-directory lock, write timing, outages.
export { isUniqueViolation, ping, type Db, type Queryable } from "./db.ts";
export { openPglite, type PgliteSettings } from "./pglite-db.ts";
export { checkSeriesLocation, seriesLocationOf, SeriesLocationError, type SeriesLocation } from "./series-location.ts";
export { openPostgres, type PostgresOptions } from "./postgres-db.ts";
export { migrate, listMigrations, migrationChecksum, MigrationChangedError, type Migration } from "./migrate.ts";
export { lockDataDir, dataDirOwner, processIdentity, DataDirLockedError, type DataDirLock } from "./data-dir-lock.ts";
export { timedClickHouse, timedDb, type Stopwatch, type WriteObserver } from "./write-timing.ts";
export { EngineStates, EngineUnavailableError, guardedClickHouse, guardedDb, isConnectionFailure, pingClickHouse, unavailableEngine, type EngineWatcher, type StoreEngine } from "./engine-outage.ts";
export { openClickHouse, type ClickHouse, type ClickHouseOptions } from "./open-clickhouse.ts";
export { parseServerVersion, serverFeatures, type ClickHouseFeatures, type ServerVersion } from "./clickhouse-features.ts";
export { sqlLiteral, sqlIdentifier, type SqlValue } from "./clickhouse-literal.ts";
export { sql as clickhouseSql, ident as clickhouseIdent, inline as clickhouseInline, inList as clickhouseInList, renderLiterals, renderParams, type Sql } from "./clickhouse-sql.ts";
