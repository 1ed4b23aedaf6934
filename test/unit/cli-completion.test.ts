import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { completionScript } from "../../bin/cli-completion.ts";
import { helpOf, HELP_TOPICS } from "../../bin/cli-help.ts";
import { commandHelp } from "../../bin/cli-args.ts";
import { CONTRACTS } from "../../gateway/contracts/index.ts";
import { shellPath } from "../harness/shells.ts";

// `svc completion bash|zsh|fish` run by the real shells: each script is loaded and asked what
// completes after a command line, as the shell asks when the user presses Tab. And `svc help <topic>`.

const dir = mkdtempSync(join(tmpdir(), "svc-completion-"));
const script = (shell: "bash" | "zsh" | "fish") => {
  const file = join(dir, `svc.${shell}`);
  writeFileSync(file, completionScript(shell));
  return file;
};

/** What bash completes after the words (the last one being typed). */
function bash(words: string[]): string[] {
  const program = `source ${script("bash")}; COMP_WORDS=(${words.map((w) => `'${w}'`).join(" ")}); COMP_CWORD=${words.length - 1}; _svc; printf '%s\\n' "\${COMPREPLY[@]}"`;
  return execFileSync("bash", ["--norc", "-c", program], { encoding: "utf8" }).split("\n").filter(Boolean);
}

let zsh: string;
let fish: string;
beforeAll(() => {
  zsh = shellPath("zsh");
  fish = shellPath("fish");
}, 300_000);

/** What zsh's completion function offers (compadd's words before zsh filters them by the prefix; _files as "(files)"). */
function zshOffers(words: string[]): string[] {
  const program = `autoload -U compinit && compinit -u; source ${script("zsh")}; compadd() { [[ $1 == -- ]] && shift; print -l -- "$@"; }; _files() { print -- "(files)"; }; words=(${words.map((w) => `'${w}'`).join(" ")}); CURRENT=${words.length}; _svc`;
  return execFileSync(zsh, ["-f", "-c", program], { encoding: "utf8", env: { ...process.env, HOME: dir } }).split("\n").filter(Boolean);
}

/** What fish completes after the command line (`complete -C`), descriptions dropped. */
function fishCompletes(line: string): string[] {
  const out = execFileSync(fish, ["--no-config", "-c", `source ${script("fish")}; complete -C '${line}'`], { encoding: "utf8", env: { ...process.env, HOME: dir } });
  return out.split("\n").filter(Boolean).map((l) => l.split("\t")[0]!);
}

const SITES = ["list", "add", "remove", "set"];
const SORTS = ["name", "rank", "delta", "crit", "tasks", "checked"];

describe("shell completion from the contracts", () => {
  it("bash: command words, subcommands, flags, enum values, utility ids and their fields", () => {
    expect(bash(["svc", "sit"])).toEqual(["sites", "site"]);
    expect(bash(["svc", "sites", ""])).toEqual(SITES);
    expect(bash(["svc", "overview", "--sort", ""])).toEqual(SORTS);
    expect(bash(["svc", "sites", "list", "--"])).toEqual(["--limit", "--offset", "--json", "--out", "--api-url", "--api-key", "--help"]);
    expect(bash(["svc", "analyze", "start", "--w"])).toEqual(["--wait"]);
    expect(bash(["svc", "check", "s"])).toEqual(["social", "structured", "ssl"]);
    expect(bash(["svc", "util", "has"])).toEqual(["hash"]);
    expect(bash(["svc", "util", "hash", "--alg"])).toEqual(["--algorithms"]);
    expect(bash(["svc", "completion", ""])).toEqual(["bash", "zsh", "fish"]);
    expect(bash(["svc", "help", "ex"])).toEqual(["exit-codes", "external", "explain"]);
    // After a host nothing of Svc's completes: bash falls back to file names (complete -o default).
    expect(bash(["svc", "report", ""])).toEqual([]);
  });

  it("zsh: the same words, and file names where no word of Svc's fits", () => {
    expect(zshOffers(["svc", "sites", ""])).toEqual(SITES);
    expect(zshOffers(["svc", "overview", "--sort", ""])).toEqual(SORTS);
    expect(zshOffers(["svc", "sites", "list", "--l"])).toEqual(["--limit", "--offset", "--json", "--out", "--api-url", "--api-key", "--help"]);
    expect(zshOffers(["svc", "report", ""])).toEqual(["(files)"]);
  }, 30_000);

  it("fish: the same words, with each command's summary as its description", () => {
    expect(fishCompletes("svc sites ").sort()).toEqual([...SITES].sort());
    expect(fishCompletes("svc overview --sort ").sort()).toEqual([...SORTS].sort());
    expect(fishCompletes("svc sites list --l")).toEqual(["--limit"]);
    expect(fishCompletes("svc util has")).toEqual(["hash"]);
    const described = execFileSync(fish, ["--no-config", "-c", `source ${script("fish")}; complete -C 'svc sites ad'`], { encoding: "utf8" });
    expect(described).toBe(`add\t${CONTRACTS.find((c) => c.id === "add_site")!.summary.replace(/'/g, "\u2019")}\n`);
  }, 30_000);

  it("completes every registered command", () => {
    for (const op of CONTRACTS) {
      const words = op.cli.split(" ");
      expect(bash(["svc", ...words.slice(0, -1), words.at(-1)!]), op.cli).toContain(words.at(-1));
    }
  }, 120_000);
});

describe("svc help <topic>", () => {
  it("explains a topic, a command and a group", () => {
    expect(helpOf(["exit-codes"])).toBe(
      [
        "Exit codes (the spec's client exit codes), with the API's error codes behind each:",
        "  0  success",
        "  1  request error: not_found, not_ready, method, bad_request, bad_host, bad_status, bad_param, unsupported, idem_conflict, tool_failed; a command-line mistake; a job that ended in error",
        "  2  key or scope problem: missing, invalid, revoked, expired, ip, blocked, scope",
        "  3  limit or unavailability: closed, limit, idem_busy, tool_off, service_off, maintenance, server",
        "  4  network failure: the service could not be reached, or what answered is not Svc's API",
      ].join("\n"),
    );
    expect(helpOf(["sites", "add"])).toBe(commandHelp(CONTRACTS.find((c) => c.id === "add_site")!));
    const group = helpOf(["webhooks"])!.split("\n");
    expect(group[0]).toBe("svc webhooks …: 7 commands (svc help <command> for one)");
    expect(group.slice(1).map((l) => l.trim().split(/\s{2,}/)[0])).toEqual(["webhooks list", "webhooks add", "webhooks remove", "webhooks rotate-secret", "webhooks test", "webhooks deliveries", "webhooks resend"]);
    expect(helpOf(["nothing"])).toBeNull();
    expect(Object.keys(HELP_TOPICS)).toEqual(["config", "output", "exit-codes", "retries", "wait", "completion"]);
  });
});
