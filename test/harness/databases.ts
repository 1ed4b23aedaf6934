import { randomBytes } from "node:crypto";
import pg from "pg";

/** Creates a fresh database on the harness's Postgres server and returns its URL. */
export async function freshDatabase(serverUrl: string, prefix = "t"): Promise<string> {
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
