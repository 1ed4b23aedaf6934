/** Anything long-lived that must be released. */
export interface Closeable {
  close(): Promise<void>;
}

/**
 * Collects what a composition root opened and closes it in reverse order, once.
 * Errors of one close do not stop the others; they are reported together.
 */
export class Lifecycle implements Closeable {
  private readonly items: { name: string; item: Closeable }[] = [];
  private closing: Promise<void> | null = null;

  add<T extends Closeable>(name: string, item: T): T {
    this.items.push({ name, item });
    return item;
  }

  close(): Promise<void> {
    this.closing ??= this.closeAll();
    return this.closing;
  }

  private async closeAll(): Promise<void> {
    const failures: string[] = [];
    for (const { name, item } of [...this.items].reverse()) {
      try {
        await item.close();
      } catch (err) {
        failures.push(`${name}: ${(err as Error).message}`);
      }
    }
    if (failures.length > 0) throw new Error(`close failed: ${failures.join("; ")}`);
  }
}
