import { readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { CONTRACTS, type OperationContract } from "../gateway/contracts/index.ts";
import { RestClient, SvcApiError, SvcNetworkError } from "../gateway/client/index.ts";
import { UsageError, commandHelp, findCommand, parseCommand } from "./cli-args.ts";
import { producedFile, progressBar, renderAnswer } from "./cli-output.ts";

// The client commands of `svc`: every registered operation under its cli name (GET /capabilities
// shows the same names), built from the contracts alone, so the CLI starts without loading the
// server. Exit codes are the spec's: 0 success, 1 request error, 2 key or scope, 3 limit or
// unavailability, 4 network failure.

export interface CliIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  /** Resolves when the user presses Ctrl-C (SIGINT) while a job is followed. */
  readonly interrupted?: () => Promise<void>;
}

const DEFAULT_API_URL = "http://127.0.0.1:8080";

/** Where and who: flags, then SVC_API_URL / SVC_API_KEY, then the config file, then the default. */
export function resolveTarget(env: NodeJS.ProcessEnv, flags: { apiUrl?: string; apiKey?: string }): { url: string; key: string | undefined } {
  const path = env.SVC_CONFIG ?? join(env.XDG_CONFIG_HOME ?? join(env.HOME ?? homedir(), ".config"), "svc", "config.json");
  let file: { api_url?: unknown; api_key?: unknown } = {};
  try {
    file = JSON.parse(readFileSync(path, "utf8")) as typeof file;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw new UsageError(`cannot read the config file ${path}: ${(err as Error).message}`);
  }
  const str = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);
  return {
    url: flags.apiUrl ?? str(env.SVC_API_URL) ?? str(file.api_url) ?? DEFAULT_API_URL,
    key: flags.apiKey ?? str(env.SVC_API_KEY) ?? str(file.api_key),
  };
}

/** The list of client commands, from the registry. */
export function commandList(ops: readonly OperationContract[] = CONTRACTS): string {
  const width = Math.max(...ops.map((o) => o.cli.length));
  return ops.map((o) => `  ${o.cli.padEnd(width)}  ${o.summary}`).join("\n");
}

/** Whether argv names a client command (its leading words are an operation's cli name). */
export function isClientCommand(argv: readonly string[]): boolean {
  return findCommand(CONTRACTS, argv) !== null;
}

/** Runs one client command; returns the exit code. */
export async function runCli(argv: readonly string[], env: NodeJS.ProcessEnv, io: CliIo): Promise<number> {
  const found = findCommand(CONTRACTS, argv);
  if (!found) {
    io.err(`svc: unknown command "${argv.join(" ")}"\n\nclient commands:\n${commandList()}\n`);
    return 1;
  }
  let parsed;
  let target;
  try {
    parsed = parseCommand(found.op, found.rest);
    if (parsed.help) {
      io.out(`${commandHelp(found.op)}\n`);
      return 0;
    }
    target = resolveTarget(env, parsed);
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(`svc: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
  const client = new RestClient({
    baseUrl: target.url,
    apiKey: target.key,
    onRetry: ({ attempt, waitSeconds, code }) => io.err(`svc: ${code}; retrying in ${waitSeconds} s (attempt ${attempt + 1} of 5)\n`),
  });
  try {
    const answer = await client.call(parsed.op, parsed.fields, parsed.idempotencyKey ? { idempotencyKey: parsed.idempotencyKey } : {});
    const job = (answer.body as { job?: JobView } | null)?.job;
    if (parsed.wait && parsed.op.async && job) return await follow(client, job, parsed.json, io);
    if (parsed.out !== undefined) {
      const file = producedFile(answer.body);
      if (file === null) {
        io.err(`svc: the answer has no file to save to ${parsed.out}\n`);
        return 1;
      }
      writeFileSync(parsed.out, file);
      io.err(`svc: saved ${file.length} bytes to ${parsed.out}\n`);
    }
    io.out(`${parsed.json ? JSON.stringify(answer.body, null, 2) : renderAnswer(answer.body)}\n`);
    return 0;
  } catch (err) {
    return failure(err, io, parsed.json);
  }
}

interface JobView {
  readonly id: number;
  readonly state: string;
  readonly progress: number;
  readonly poll_after_s: number | null;
  readonly self: string;
}

/**
 * Follows a job to its end with held requests (RestClient.waitForJob: a minute's job costs two or
 * three requests), with a progress bar on stderr. Ctrl-C stops following, not the job, and says how
 * to look at it later.
 */
async function follow(client: RestClient, first: JobView, json: boolean, io: CliIo): Promise<number> {
  let job = first;
  const stop = new AbortController();
  void io.interrupted?.().then(() => stop.abort());
  const bar = (j: JobView) => io.err(`\r${progressBar(j.progress, j.state)}`);
  bar(job);
  try {
    job = await client.waitForJob(job, {
      signal: stop.signal,
      onUpdate: (j) => {
        job = j;
        bar(j);
      },
    });
  } catch (err) {
    io.err("\n");
    if (!stop.signal.aborted) throw err;
    io.err(`job ${job.id} keeps running; follow it with: svc jobs get ${job.id}\n`);
    return 0;
  }
  io.err("\n");
  io.out(`${json ? JSON.stringify({ job }, null, 2) : renderAnswer({ job })}\n`);
  return job.state === "done" ? 0 : 1;
}

function failure(err: unknown, io: CliIo, json = false): number {
  if (err instanceof SvcApiError) {
    // --json: the API's error answer on stdout, for scripts (the text stays on stderr).
    if (json && err.body !== null) io.out(`${JSON.stringify(err.body, null, 2)}\n`);
    io.err(`svc: ${err.code}: ${err.message}\n`);
    return err.exitCode;
  }
  if (err instanceof SvcNetworkError) {
    io.err(`svc: ${err.message}\n`);
    return 4;
  }
  throw err;
}
