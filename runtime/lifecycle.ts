/** Anything long-lived that must be released. */
export interface Closeable {
  close(): Promise<void>;
}

export interface AddOptions {
  /**
   * Items given the same name here close side by side (each a connection that needs none of the
   * others: a pool, a producer, a client), all at the place of the first of them registered, so
   * that everything registered after any of them has closed by then.
   */
  readonly sideBySide?: string;
}

interface Entry {
  readonly name: string;
  readonly item: Closeable;
  readonly group: string | undefined;
}

/**
 * Collects what a composition root opened and closes it in reverse order, once (items of one
 * side-by-side group together). Errors of one close do not stop the others; they are reported together.
 */
export class Lifecycle implements Closeable {
  private readonly items: Entry[] = [];
  private closing: Promise<void> | null = null;

  add<T extends Closeable>(name: string, item: T, options: AddOptions = {}): T {
    this.items.push({ name, item, group: options.sideBySide });
    return item;
  }

  close(): Promise<void> {
    this.closing ??= this.closeAll();
    return this.closing;
  }

  /** The closing steps, in order: each a list of entries closed side by side. */
  private steps(): Entry[][] {
    const first = new Map<string, number>();
    this.items.forEach((e, i) => {
      if (e.group !== undefined && !first.has(e.group)) first.set(e.group, i);
    });
    const steps: Entry[][] = [];
    for (let i = this.items.length - 1; i >= 0; i--) {
      const e = this.items[i] as Entry;
      if (e.group === undefined) steps.push([e]);
      else if (first.get(e.group) === i) steps.push(this.items.filter((x) => x.group === e.group).reverse());
    }
    return steps;
  }

  private async closeAll(): Promise<void> {
    const failures: string[] = [];
    for (const step of this.steps()) {
      await Promise.all(
        step.map(async ({ name, item }) => {
          try {
            await item.close();
          } catch (err) {
            failures.push(`${name}: ${(err as Error).message}`);
          }
        }),
      );
    }
    if (failures.length > 0) throw new Error(`close failed: ${failures.join("; ")}`);
  }
}

/**
 * The item, its close waited for `ms` at most: past it, `late` is called and closing goes on (what
 * is still open goes with the process: a pool whose query waits on a lock, whose transaction the
 * server then rolls back).
 */
export function closedWithin(item: Closeable, ms: number, late: () => void): Closeable {
  return {
    close: async () => {
      let timer: NodeJS.Timeout | undefined;
      const over = new Promise<"late">((resolve) => {
        timer = setTimeout(() => resolve("late"), ms);
        timer.unref();
      });
      try {
        if ((await Promise.race([item.close(), over])) === "late") late();
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
