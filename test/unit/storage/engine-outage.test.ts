import { describe, expect, it } from "vitest";
import { EngineStates, EngineUnavailableError, guardedDb, isConnectionFailure, unavailableEngine } from "../../../storage/index.ts";

// An engine outage is one "down" and one "up" however many calls meet it, and only failures that
// say the engine did not answer count as one (a wrong query is the query's fault).

function refused(): Error {
  return Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
}

describe("EngineStates", () => {
  it("reports an outage once when it starts and once when the engine answers again, with its length", async () => {
    const heard: string[] = [];
    let now = 1000;
    const states = new EngineStates({ down: (e) => heard.push(`down ${e}`), up: (e, ms) => heard.push(`up ${e} ${ms}`) }, () => now);
    for (let i = 0; i < 5; i++) {
      const err = await states.guard("clickhouse", () => Promise.reject(refused())).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(EngineUnavailableError);
      expect(unavailableEngine(err)).toBe("clickhouse");
    }
    expect(states.state("clickhouse")).toBe("down");
    now = 21_000;
    expect(await states.guard("clickhouse", async () => 7)).toBe(7);
    expect(await states.guard("clickhouse", async () => 8)).toBe(8);
    expect(heard).toEqual(["down clickhouse", "up clickhouse 20000"]);
    expect(states.state("clickhouse")).toBe("ok");
  });

  it("passes a query's own error through as it is: the engine answered", async () => {
    const states = new EngineStates({ down: () => expect.fail("not an outage"), up: () => undefined });
    const syntax = Object.assign(new Error('syntax error at or near "SELEC"'), { code: "42601" });
    await expect(states.guard("postgres", () => Promise.reject(syntax))).rejects.toBe(syntax);
    expect(states.state("postgres")).toBe("ok");
  });
});

describe("isConnectionFailure", () => {
  it("knows a server restarting or away from a call's own error", () => {
    expect(isConnectionFailure(refused())).toBe(true);
    expect(isConnectionFailure(Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" }))).toBe(true);
    expect(isConnectionFailure(Object.assign(new Error("the database system is starting up"), { code: "57P03" }))).toBe(true);
    expect(isConnectionFailure(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isConnectionFailure(new Error("wrapped", { cause: Object.assign(new Error("socket hang up"), { code: "ECONNRESET" }) }))).toBe(true);
    expect(isConnectionFailure(new AggregateError([refused(), refused()], ""))).toBe(true);
    expect(isConnectionFailure(Object.assign(new Error('duplicate key value violates unique constraint "x"'), { code: "23505" }))).toBe(false);
    expect(isConnectionFailure(new Error("Code: 60. DB::Exception: Table svc.nope doesn't exist"))).toBe(false);
  });
});

describe("guardedDb", () => {
  it("never takes what a transaction's own code throws (a Kafka publish refused) for Postgres away", async () => {
    const heard: string[] = [];
    const states = new EngineStates({ down: (e) => heard.push(`down ${e}`), up: (e) => heard.push(`up ${e}`) });
    const fake = {
      kind: "postgres" as const,
      query: async () => [],
      exec: async () => undefined,
      tx: async <T,>(fn: (q: { query: () => Promise<never[]>; exec: () => Promise<void> }) => Promise<T>) => fn({ query: async () => [], exec: async () => undefined }),
      listen: async () => ({ close: async () => undefined }),
      close: async () => undefined,
    };
    const db = guardedDb(fake, states);
    const kafka = Object.assign(new Error("Connection error: connect ECONNREFUSED 127.0.0.1:9092"), { name: "KafkaJSConnectionError" });
    await expect(db.tx(async () => Promise.reject(kafka))).rejects.toBe(kafka);
    expect(heard).toEqual([]);
    expect(states.state("postgres")).toBe("ok");
  });
});
