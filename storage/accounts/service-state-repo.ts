import type { Db } from "../engine/db.ts";

export type Switch = "maintenance" | "closed";

export interface ServiceState {
  readonly maintenance: boolean;
  readonly closed: boolean;
}

/** Operator switches in Postgres, so that every gateway process sees the same state. */
export class ServiceStateRepo {
  constructor(private readonly db: Db) {}

  async read(): Promise<ServiceState> {
    const rows = await this.db.query<{ name: string; value: string }>("SELECT name, value FROM service_state");
    const on = (name: Switch) => rows.some((r) => r.name === name && r.value === "on");
    return { maintenance: on("maintenance"), closed: on("closed") };
  }

  async set(name: Switch, on: boolean, now: number): Promise<void> {
    await this.db.query(
      `INSERT INTO service_state (name, value, updated) VALUES ($1, $2, $3)
       ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value, updated = EXCLUDED.updated`,
      [name, on ? "on" : "off", now],
    );
  }
}
