import { describe, expect, it } from "vitest";
import { Lifecycle } from "../../runtime/index.ts";

// What closes when: a role's connections close side by side once everything that uses them has closed.

function recorder() {
  const events: string[] = [];
  const gates = new Map<string, () => void>();
  const item = (name: string, waits = false) => ({
    close: async () => {
      events.push(`${name} starts`);
      if (waits) await new Promise<void>((resolve) => gates.set(name, resolve));
      events.push(`${name} done`);
    },
  });
  return { events, gates, item };
}

describe("Lifecycle", () => {
  it("closes in reverse order, a side-by-side group all at once at the place of its first member", async () => {
    const { events, gates, item } = recorder();
    const life = new Lifecycle();
    life.add("ops server", item("ops"));
    life.add("database", item("db", true), { sideBySide: "connections" });
    life.add("legacy move", item("move"));
    life.add("bus", item("bus", true), { sideBySide: "connections" });
    life.add("scheduler", item("scheduler"));

    const closed = life.close();
    await Promise.resolve();
    await new Promise((resolve) => setImmediate(resolve));
    // The bus and the database started together; the ops server waits for both.
    expect(events).toEqual(["scheduler starts", "scheduler done", "move starts", "move done", "bus starts", "db starts"]);
    gates.get("db")!();
    await new Promise((resolve) => setImmediate(resolve));
    expect(events.at(-1)).toBe("db done");
    expect(events).not.toContain("ops starts");
    gates.get("bus")!();
    await closed;
    expect(events.slice(-3)).toEqual(["bus done", "ops starts", "ops done"]);
  });

  it("closes the others when one fails, and reports the failures together", async () => {
    const life = new Lifecycle();
    const closed: string[] = [];
    life.add("a", { close: async () => void closed.push("a") });
    life.add("pool", { close: async () => Promise.reject(new Error("refused")) }, { sideBySide: "c" });
    life.add("client", { close: async () => void closed.push("client") }, { sideBySide: "c" });
    await expect(life.close()).rejects.toThrow("close failed: pool: refused");
    expect(closed).toEqual(["client", "a"]);
  });
});
