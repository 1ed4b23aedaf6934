import { CONTRACTS, type OperationContract } from "../gateway/contracts/index.ts";
import { ERROR_CATALOGUE, exitCodeOf, type ErrorCode } from "../gateway/errors.ts";
import { commandHelp, findCommand } from "./cli-args.ts";

// `svc help <topic>`: a command's help (as `svc <command> --help`), every command of a group
// (`svc help sites`), or one of the topics below, which say what docs/clients.md says about the
// command line, short.

function exitCodes(): string {
  const by = new Map<number, string[]>();
  for (const code of Object.keys(ERROR_CATALOGUE) as ErrorCode[]) by.set(exitCodeOf(code), [...(by.get(exitCodeOf(code)) ?? []), code]);
  return [
    "Exit codes (the spec's client exit codes), with the API's error codes behind each:",
    "  0  success",
    `  1  request error: ${(by.get(1) ?? []).join(", ")}; a command-line mistake; a job that ended in error`,
    `  2  key or scope problem: ${(by.get(2) ?? []).join(", ")}`,
    `  3  limit or unavailability: ${(by.get(3) ?? []).join(", ")}`,
    "  4  network failure: the service could not be reached, or what answered is not Svc's API",
  ].join("\n");
}

export const HELP_TOPICS: Readonly<Record<string, { readonly about: string; readonly text: () => string }>> = {
  config: {
    about: "where the CLI sends requests and with which key",
    text: () =>
      [
        "Where and who, first found wins:",
        "  1. --api-url URL and --api-key KEY",
        "  2. SVC_API_URL and SVC_API_KEY",
        "  3. the config file: SVC_CONFIG, else $XDG_CONFIG_HOME/svc/config.json or ~/.config/svc/config.json,",
        '     JSON {"api_url": "https://svc.example.com", "api_key": "svc_…"}',
        "  4. http://127.0.0.1:8080 without a key",
      ].join("\n"),
  },
  output: {
    about: "text and tables, --json, --out FILE",
    text: () =>
      [
        "Answers print as a person reads them: the main list of records as an aligned table at the end,",
        "other fields as `name: value` lines above it, times as UTC dates, a utility's ready blocks.",
        "  --json      the API's JSON answer as sent; on an error, the API's error JSON on stdout",
        "  --out FILE  save the file an answer produced (an image, a sitemap, a generated text)",
        "Messages and the progress bar go to stderr.",
      ].join("\n"),
  },
  "exit-codes": { about: "what each exit code means", text: exitCodes },
  retries: {
    about: "which errors are retried, and the Idempotency-Key",
    text: () =>
      [
        "Only the catalogue's retryable codes are retried: after Retry-After when it is at most 30 s",
        "(a longer one ends the command at once, exit 3), else after 1, 2, 4, 8 s; at most 5 attempts.",
        "Every mutating command sends an Idempotency-Key (random, or --idempotency-key K), the same on",
        "every attempt, so a retry never executes twice.",
      ].join("\n"),
  },
  wait: {
    about: "long operations (jobs), --wait and Ctrl-C",
    text: () =>
      [
        "`analyze start` and `crawl start` answer a job at once. With --wait the CLI follows it with held",
        "requests (GET /jobs/{id}?wait=30 and the last ETag: an unchanged answer is a 304 that costs no",
        "request of the hour), drawing a progress bar on stderr; a minute's job costs two or three requests.",
        "Ctrl-C stops following, not the job: `svc jobs get <id>` looks at it later. A job ending in error exits 1.",
      ].join("\n"),
  },
  completion: {
    about: "shell completion for bash, zsh and fish",
    text: () =>
      [
        "svc completion bash|zsh|fish prints a completion script generated from the operation contracts:",
        "  bash  source <(svc completion bash)      or save it as /etc/bash_completion.d/svc",
        "  zsh   source <(svc completion zsh)       or save it as _svc in a directory of $fpath",
        "  fish  svc completion fish | source       or save it as ~/.config/fish/completions/svc.fish",
        "Commands, flags, closed sets of values (--sort, check <tool>) and utility ids complete.",
      ].join("\n"),
  },
};

/** The topics' list, for `svc help` and for completion. */
export function topicList(): string {
  const width = Math.max(...Object.keys(HELP_TOPICS).map((t) => t.length));
  return Object.entries(HELP_TOPICS)
    .map(([name, t]) => `  ${name.padEnd(width)}  ${t.about}`)
    .join("\n");
}

/** The help of a topic, a command or a group of commands; null when the words name none. */
export function helpOf(words: readonly string[], ops: readonly OperationContract[] = CONTRACTS): string | null {
  const topic = words.length === 1 ? HELP_TOPICS[words[0]!] : undefined;
  if (topic && Object.hasOwn(HELP_TOPICS, words[0]!)) return topic.text();
  const found = findCommand(ops, words);
  if (found && found.rest.length === 0) return commandHelp(found.op);
  const group = ops.filter((o) => words.every((w, i) => o.cli.split(" ")[i] === w));
  if (group.length === 0) return null;
  const width = Math.max(...group.map((o) => o.cli.length));
  return [`svc ${words.join(" ")} …: ${group.length} commands (svc help <command> for one)`, ...group.map((o) => `  ${o.cli.padEnd(width)}  ${o.summary}`)].join("\n");
}
