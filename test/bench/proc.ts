/**
 * What benches read from /proc: a process's CPU seconds (all its threads) and resident memory,
 * and the machine's busy CPU.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

export const CLK_TCK = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** User + system CPU seconds of a process so far (all its threads); NaN once it is gone. */
export function processCpuS(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // After the command: utime and stime are the 12th and 13th fields.
    return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
  } catch {
    return NaN;
  }
}

/** A field of /proc/<pid>/status in MB (VmRSS now, VmHWM the peak). */
export function memMb(pid: number, field: "VmRSS" | "VmHWM"): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** CPU seconds so far of every process whose command name is one of `names` (by pid). */
export function cpuByName(names: readonly string[]): Map<number, { name: string; cpuS: number }> {
  const out = new Map<number, { name: string; cpuS: number }>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      if (names.includes(name)) out.set(Number(entry), { name, cpuS: processCpuS(Number(entry)) });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** CPU seconds per command name between two snapshots (processes started meanwhile count from 0). */
export function cpuDelta(before: Map<number, { name: string; cpuS: number }>, after: Map<number, { name: string; cpuS: number }>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [pid, a] of after) out[a.name] = (out[a.name] ?? 0) + a.cpuS - (before.get(pid)?.cpuS ?? 0);
  return out;
}

/** The machine's busy and total CPU time so far (every core), from /proc/stat. */
export function machineCpu(): { busy: number; total: number } {
  const line = readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "";
  const v = line.trim().split(/\s+/).slice(1, 9).map(Number);
  const total = v.reduce((a, b) => a + b, 0);
  const idle = (v[3] ?? 0) + (v[4] ?? 0);
  return { busy: total - idle, total };
}

/** Every process: pid, parent pid, command line. */
function processTable(): { pid: number; ppid: number; cmdline: string }[] {
  const rows: { pid: number; ppid: number; cmdline: string }[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      rows.push({ pid: Number(entry), ppid, cmdline: readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\0", " ") });
    } catch {
      // gone meanwhile
    }
  }
  return rows;
}

/**
 * The processes of the engines a bench started (not another Postgres or JVM on the machine): the
 * postmaster listening on one of `postgresPorts` with its backends, and the JVM whose command line
 * names one of `jvmArgs` (the Kafka broker's properties file).
 */
export function engineProcesses(postgresPorts: readonly number[], jvmArgs: readonly string[]): number[] {
  const table = processTable();
  const postmasters = table.filter((p) => postgresPorts.some((port) => p.cmdline.includes(`-p ${port} `) || p.cmdline.endsWith(`-p ${port}`))).map((p) => p.pid);
  const backends = table.filter((p) => postmasters.includes(p.ppid)).map((p) => p.pid);
  const jvms = table.filter((p) => p.cmdline.startsWith("java ") && jvmArgs.some((a) => p.cmdline.includes(a))).map((p) => p.pid);
  return [...postmasters, ...backends, ...jvms];
}

/** A process's command line (a Postgres backend's title: "postgres: user db 127.0.0.1(port) idle"), "" once it is gone. */
export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").trim();
  } catch {
    return "";
  }
}

/** The ClickHouse server listening on this HTTP port: found by the config file its command line names. */
export function clickhouseProcesses(httpPort: number): number[] {
  return processTable()
    .filter((p) => p.cmdline.includes("clickhouse"))
    .filter((p) => {
      const config = /--config-file[= ](\S+)/.exec(p.cmdline)?.[1];
      try {
        return config !== undefined && readFileSync(config, "utf8").includes(`<http_port>${httpPort}</http_port>`);
      } catch {
        return false;
      }
    })
    .map((p) => p.pid);
}

/** CPU seconds so far of each thread of a process, by thread id, with the thread's name. */
export function threadCpuS(pid: number): Map<number, { name: string; cpuS: number }> {
  const out = new Map<number, { name: string; cpuS: number }>();
  let tids: string[] = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      out.set(Number(tid), { name, cpuS: (Number(fields[11]) + Number(fields[12])) / CLK_TCK });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/**
 * Where a process's resident memory is, from /proc/<pid>/smaps, in MB: the main malloc arena (the
 * `[heap]` mapping), glibc's per-thread malloc arenas (anonymous mappings that start on a 64 MB
 * boundary: each arena reserves HEAP_MAX_SIZE, 64 MB, aligned to it), other anonymous memory (V8's
 * heaps of every thread, WASM memory, stacks) and file-backed pages (code, the page cache of mapped
 * files); and the process's thread count.
 */
export function smapsMb(pid: number): { brk: number; arenas: number; anon: number; file: number; threads: number } {
  const out = { brk: 0, arenas: 0, anon: 0, file: 0, threads: 0 };
  let text = "";
  try {
    text = readFileSync(`/proc/${pid}/smaps`, "utf8");
    out.threads = Number(/^Threads:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
  } catch {
    return out;
  }
  let kind: keyof typeof out = "anon";
  const ARENA = 64 * 1024 * 1024;
  for (const line of text.split("\n")) {
    const head = /^([0-9a-f]+)-[0-9a-f]+ \S+ \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (head) {
      const path = (head[2] ?? "").trim();
      if (path === "[heap]") kind = "brk";
      else if (path.startsWith("/")) kind = "file";
      else if (path === "" && Number(BigInt(`0x${head[1]}`) % BigInt(ARENA)) === 0) kind = "arenas";
      else kind = "anon";
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) out[kind] += Number(rss[1]) / 1024;
  }
  for (const k of ["brk", "arenas", "anon", "file"] as const) out[k] = Math.round(out[k]);
  return out;
}

/**
 * A process and its live descendants: each one's command name and CPU seconds so far (user +
 * system), with what it has reaped of its own children (cutime + cstime). Summed, the whole tree's
 * CPU: a browser's renderers that came and went included. A descendant re-parented outside the
 * tree (an orphan) is lost.
 */
export function processTree(root: number): { pid: number; name: string; cpuS: number }[] {
  const table = new Map<number, { ppid: number; name: string; cpuS: number }>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // After the command: ppid is the 2nd field; utime, stime, cutime, cstime the 12th to 15th.
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      table.set(Number(entry), { ppid: Number(f[1]), name, cpuS: (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / CLK_TCK });
    } catch {
      // gone meanwhile
    }
  }
  const inTree = (pid: number): boolean => {
    for (let p = pid, hops = 0; p > 1 && hops < 64; hops++) {
      if (p === root) return true;
      p = table.get(p)?.ppid ?? 0;
    }
    return false;
  };
  return [...table].filter(([pid]) => inTree(pid)).map(([pid, row]) => ({ pid, name: row.name, cpuS: row.cpuS }));
}

/** CPU seconds so far of a process's whole tree (processTree, summed). */
export function treeCpuS(root: number): number {
  return processTree(root).reduce((sum, p) => sum + p.cpuS, 0);
}
