import { readdirSync, readFileSync } from "node:fs";

/** Resident memory (MB) of a process and of every process below it (the image utilities' children), from /proc. */
export function treeRssMb(root = process.pid): number {
  const children = new Map<number, number[]>();
  const rss = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    try {
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      const ppid = Number(/^PPid:\s+(\d+)/m.exec(status)?.[1] ?? 0);
      rss.set(pid, Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) / 1024);
      children.set(ppid, [...(children.get(ppid) ?? []), pid]);
    } catch {
      // The process ended while the list was read.
    }
  }
  let total = 0;
  const stack = [root];
  while (stack.length > 0) {
    const pid = stack.pop() as number;
    total += rss.get(pid) ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}

/** Samples treeRssMb every `everyMs` while `work` runs; the peak, and the work's value. */
export async function peakTreeRssMb<T>(work: () => Promise<T>, everyMs = 50): Promise<{ peakMb: number; value: T }> {
  let peakMb = treeRssMb();
  const timer = setInterval(() => (peakMb = Math.max(peakMb, treeRssMb())), everyMs);
  try {
    const value = await work();
    return { peakMb: Math.max(peakMb, treeRssMb()), value };
  } finally {
    clearInterval(timer);
  }
}
