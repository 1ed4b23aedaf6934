/**
 * Where a crawl's CPU goes, by stage: V8 CPU profiles (`node --cpu-prof`, one file per thread)
 * cut to a time window and each sample charged to a stage by its stack.
 *
 * A sample goes to the stage of the innermost frame a rule below names (walking from the leaf
 * towards the root), so that a regular expression or a `new URL` run by extraction is extraction,
 * and htmlparser2's tokenizer is parsing while the callbacks it makes into our extraction are
 * extraction. Frames no rule names (Node's internals, natives) pass the sample on to their caller;
 * a stack no rule names at all is `other`. V8's own entries: `(garbage collector)` is `gc`,
 * `(program)` (compiling, the runtime, structured clones between threads) is `v8`, `(idle)` is
 * not CPU and is left out.
 *
 * A sample's time is the wall time to the next one on its thread, which on a loaded machine
 * includes time the thread waited for a core: the shares are what to read, and the bench scales
 * them to the run's measured CPU (`scaledTo`).
 *
 * Sample times are V8's TimeTicks (CLOCK_MONOTONIC in µs on Linux), the clock of
 * `process.hrtime.bigint()` in any process on the machine: a runner marks the crawl's window with
 * it and the profiles of another process are cut to that window.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

/** The stages, in the order they are printed. */
export const STAGES = ["fetch", "decode", "parse", "extract", "simhash", "links", "checks", "store", "analysis", "api", "job", "gc", "v8", "other"] as const;
export type Stage = (typeof STAGES)[number];

export const STAGE_MEANING: Readonly<Record<Stage, string>> = {
  fetch: "HTTP client: undici, sockets, crawler/fetch (politeness, redirects, robots, sitemaps)",
  decode: "bytes to text on the parse thread (charset, TextDecoder)",
  parse: "htmlparser2's tokenizer and parser, entity decoding",
  extract: "extraction callbacks: crawler/page/extract.ts, JSON-LD, technology detection, content hash",
  simhash: "the page's SimHash (crawler/page/simhash.ts)",
  links: "link resolution (strictKey, URL), the crawled page's link sets, frontier and trap rules",
  checks: "per-page checks (analyzer/, outside the whole-crawl analysis)",
  store: "storage and serialisation: checkpoint, facts file, protobuf, gzip, gRPC, storage/, PGlite",
  analysis: "the whole-crawl analysis on its parse thread (facts read back, duplicates, graph, rank)",
  api: "the gateway answering the bench's own requests (polls, GET /sites probes, results)",
  job: "the job around the crawl: worker, scheduler, the site's analysis alongside",
  gc: "V8's garbage collector",
  v8: "V8 outside JavaScript: compiling, runtime, messages between threads",
  other: "JavaScript no rule names (Node internals reached from an unnamed caller)",
};

interface Rule {
  readonly stage: Stage;
  /** Matches the frame's script URL (a substring). */
  readonly url?: RegExp;
  /** Matches the frame's function name. */
  readonly fn?: RegExp;
}

// Innermost match wins; order matters only for a frame two rules name (function rules first).
const RULES: readonly Rule[] = [
  { stage: "decode", fn: /^bodyText$/ },
  { stage: "simhash", url: /\/crawler\/page\/simhash\.ts/ },
  { stage: "links", fn: /^(strictKey|looseKey|internalAssets|offerWhatPageLeadsTo|collectExternal)$/ },
  { stage: "links", url: /\/analyzer\/url-keys\.ts|\/crawler\/crawl\/crawl-(frontier|traps)\.ts/ },
  { stage: "parse", url: /\/node_modules\/(htmlparser2|entities|domhandler|domutils)\// },
  { stage: "extract", url: /\/crawler\/page\/(extract|json-ld|tech-detect)\.ts/ },
  { stage: "store", url: /\/crawler\/crawl\/(crawl-checkpoint|facts-file)\.ts|\/storage\/|\/proto\/|@electric-sql|\/node_modules\/(@grpc|protobufjs|@bufbuild|long)\/|node:zlib|\/analyzer\/crawl-facts\.ts/ },
  { stage: "checks", url: /\/analyzer\// },
  { stage: "links", url: /\/crawler\/page\/crawled-page\.ts/ },
  { stage: "fetch", url: /\/crawler\/fetch\/|\/node_modules\/undici\/|node:internal\/deps\/undici|\/crawler\/site\/(robots|sitemaps)\.ts/ },
  { stage: "links", url: /\/test\/bench\/peers\/run-bare\.ts/ },
  { stage: "api", url: /\/gateway\/|\/node_modules\/(fastify|@fastify|find-my-way|avvio|light-my-request|fast-json-stringify|ajv|pino)/ },
  { stage: "job", url: /\/crawler\/|\/scheduler\/|\/runtime\/|\/bin\// },
];

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string };
  readonly children?: readonly number[];
}

interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly startTime: number;
  readonly endTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** CPU milliseconds per stage, and per thread (main, or a worker). */
export interface StageBreakdown {
  readonly windowMs: number;
  readonly totalMs: number;
  readonly stagesMs: Record<Stage, number>;
  /** CPU ms in the window by profile (one per thread): main and the parse threads. */
  readonly threadsMs: Record<string, number>;
}

function ruleStage(frame: ProfileNode["callFrame"]): Stage | null {
  for (const rule of RULES) {
    if (rule.fn && rule.fn.test(frame.functionName)) return rule.stage;
    if (rule.url && frame.url && rule.url.test(frame.url)) return rule.stage;
  }
  return null;
}

/** Below these frames everything is the whole-crawl analysis, whatever the inner frames are. */
const ANALYSIS = /^(analyzeCrawlTable|loadTable|analyzeCrawl)$/;

/** Each node's stage: the analysis below its entry, else its own rule's, else its parent's; V8's pseudo-frames their own. */
function nodeStages(profile: Profile): Map<number, Stage | "idle"> {
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const out = new Map<number, Stage | "idle">();
  const analysis = new Map<number, boolean>();
  const underAnalysis = (id: number): boolean => {
    const known = analysis.get(id);
    if (known !== undefined) return known;
    const up = parent.get(id);
    const yes = ANALYSIS.test(byId.get(id)!.callFrame.functionName) || (up !== undefined && underAnalysis(up));
    analysis.set(id, yes);
    return yes;
  };
  const resolve = (id: number): Stage | "idle" => {
    const known = out.get(id);
    if (known) return known;
    const node = byId.get(id)!;
    const name = node.callFrame.functionName;
    let stage: Stage | "idle";
    if (name === "(idle)") stage = "idle";
    else if (name === "(garbage collector)") stage = "gc";
    else if (name === "(program)") stage = "v8";
    else if (underAnalysis(id)) stage = "analysis";
    else {
      const own = ruleStage(node.callFrame);
      const up = parent.get(id);
      stage = own ?? (up === undefined ? "other" : resolve(up));
      if (stage === "idle") stage = "other";
    }
    out.set(id, stage);
    return stage;
  };
  for (const n of profile.nodes) resolve(n.id);
  return out;
}

function emptyStages(): Record<Stage, number> {
  return Object.fromEntries(STAGES.map((s) => [s, 0])) as Record<Stage, number>;
}

/**
 * The CPU of every profile in `dir` between `fromUs` and `toUs` (process.hrtime µs), by stage.
 * Each sample stands for the time to the next one (V8 samples every --cpu-prof-interval µs).
 */
export function stageBreakdown(dir: string, fromUs: number, toUs: number): StageBreakdown {
  const stagesMs = emptyStages();
  const threadsMs: Record<string, number> = {};
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".cpuprofile")).sort()) {
    const profile = JSON.parse(readFileSync(join(dir, file), "utf8")) as Profile;
    const stages = nodeStages(profile);
    // CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile: thread 0 is the main thread.
    const thread = file.split(".")[4] === "0" ? "main" : `thread ${file.split(".")[4]}`;
    let t = profile.startTime;
    let threadMs = 0;
    for (let i = 0; i < profile.samples.length; i++) {
      t += profile.timeDeltas[i] ?? 0;
      const next = i + 1 < profile.timeDeltas.length ? (profile.timeDeltas[i + 1] ?? 0) : 0;
      if (t < fromUs || t > toUs) continue;
      const stage = stages.get(profile.samples[i]!);
      if (!stage || stage === "idle") continue;
      stagesMs[stage] += next / 1000;
      threadMs += next / 1000;
    }
    if (threadMs > 0) threadsMs[thread] = (threadsMs[thread] ?? 0) + threadMs;
  }
  const totalMs = Object.values(stagesMs).reduce((a, b) => a + b, 0);
  return { windowMs: (toUs - fromUs) / 1000, totalMs, stagesMs, threadsMs };
}

/** The breakdown's stages scaled so that they sum to `cpuMs` (the run's measured CPU): each stage's share of it. */
export function scaledTo(b: StageBreakdown, cpuMs: number): Record<Stage, number> {
  const k = b.totalMs > 0 ? cpuMs / b.totalMs : 0;
  return Object.fromEntries(STAGES.map((s) => [s, b.stagesMs[s] * k])) as Record<Stage, number>;
}
