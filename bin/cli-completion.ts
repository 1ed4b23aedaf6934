import { CONTRACTS, type OperationContract } from "../gateway/contracts/index.ts";
import { UTILITIES } from "../utilities/index.ts";
import { fieldsOf } from "./cli-args.ts";
import { HELP_TOPICS } from "./cli-help.ts";

// `svc completion bash|zsh|fish`: shell completion generated from the operation contracts (and the
// utility catalogue for `svc util <id>`), so a command, flag or value the registry gains completes
// without touching this file. Each script holds three lookups generated as data (the words that may
// follow the command typed so far, a command's flags, a flag's values) and one small function per
// shell that finds the command typed so far the way the CLI does: its leading words.

export const SHELLS = ["bash", "zsh", "fish"] as const;
export type Shell = (typeof SHELLS)[number];

/** The commands of `svc` that are not operations (bin/main.ts). */
export const PROCESS_COMMANDS: readonly (readonly [string, string])[] = [
  ["serve", "run the whole service in one process"],
  ["gateway", "run the REST gateway alone"],
  ["scheduler", "run the scheduler alone"],
  ["crawler", "run one crawler node"],
  ["admin", "operator commands"],
  ["version", "print the version"],
  ["help", "list the commands, or explain one command or topic"],
  ["completion", "print a shell completion script (bash, zsh, fish)"],
];

const GLOBAL_FLAGS = ["--json", "--out", "--api-url", "--api-key", "--help"];

interface Word {
  readonly word: string;
  readonly about: string;
}

/** What completes where: the words after a command prefix, a command's flags, a flag's values. */
export interface CompletionTable {
  readonly next: ReadonlyMap<string, readonly Word[]>;
  readonly flags: ReadonlyMap<string, readonly string[]>;
  readonly values: ReadonlyMap<string, readonly string[]>;
}

/** A schema's closed set of values (enum, a union of consts, or an array of either); values are strings, numbers or booleans. */
function enumOf(schema: unknown): string[] {
  const s = schema as { enum?: (string | number | boolean)[]; anyOf?: { const?: string | number | boolean; enum?: (string | number | boolean)[] }[]; type?: unknown; items?: unknown };
  if (s.enum) return s.enum.map(String);
  if (s.anyOf) return s.anyOf.flatMap((a) => (a.const !== undefined ? [String(a.const)] : (a.enum ?? []).map(String)));
  if (s.type === "array" && s.items) return enumOf(s.items);
  return [];
}

const flagName = (name: string) => `--${name.replace(/_/g, "-")}`;

/** The completion table of the given operations (every registered one by default). */
export function completionTable(ops: readonly OperationContract[] = CONTRACTS, topics: readonly string[] = Object.keys(HELP_TOPICS)): CompletionTable {
  const next = new Map<string, Word[]>();
  const add = (prefix: string, word: string, about: string) => {
    const list = next.get(prefix) ?? [];
    if (!list.some((w) => w.word === word)) list.push({ word, about });
    next.set(prefix, list);
  };
  const flags = new Map<string, string[]>();
  const values = new Map<string, string[]>();
  for (const [word, about] of PROCESS_COMMANDS) add("", word, about);
  for (const shell of SHELLS) add("completion", shell, `the ${shell} script`);
  for (const topic of topics) add("help", topic, "topic");
  for (const op of ops) {
    const words = op.cli.split(" ");
    words.forEach((word, i) => add(words.slice(0, i).join(" "), word, i === words.length - 1 ? op.summary : `${words.slice(0, i + 1).join(" ")} …`));
    add("help", words[0]!, "command");
    const fields = fieldsOf(op).filter((f) => !f.inPath);
    const own = [...fields.map((f) => flagName(f.name)), ...GLOBAL_FLAGS, ...(op.async ? ["--wait"] : []), ...(op.readOnly ? [] : ["--idempotency-key"])];
    flags.set(op.cli, own);
    for (const f of fields) {
      const vals = enumOf(f.schema);
      if (vals.length > 0) values.set(`${op.cli} ${flagName(f.name)}`, vals);
    }
    // A first positional value from a closed set (check <tool>) completes as a word.
    const first = fieldsOf(op).find((f) => f.inPath);
    for (const v of first ? enumOf(first.schema) : []) {
      add(op.cli, v, first!.name);
      flags.set(`${op.cli} ${v}`, own);
    }
  }
  // svc util <id> [<value>] [--field value]: the utility catalogue's ids and fields.
  const util = ops.find((o) => o.id === "run_utility");
  if (util) {
    for (const u of UTILITIES) {
      add(util.cli, u.id, u.title);
      flags.set(`${util.cli} ${u.id}`, [...u.fields.map((f) => flagName(f.name)), ...GLOBAL_FLAGS, "--idempotency-key"]);
      for (const f of u.fields) if (f.options && f.options.length > 0) values.set(`${util.cli} ${u.id} ${flagName(f.name)}`, [...f.options]);
    }
  }
  return { next, flags, values };
}

/** A text with no character that a shell would read inside single quotes or a case pattern. */
/** A text a shell reads as is inside single quotes or a case pattern: no quote, backslash, tab or newline. */
const plain = (text: string) => text.replace(/'/g, "’").replace(/[\\\t\n]/g, " ");

/** A case statement over the lookup's keys (bash and zsh read the same syntax). */
function shCase(name: string, entries: Iterable<readonly [string, string]>): string {
  const arms = [...entries].map(([key, words]) => `    '${plain(key)}') echo '${plain(words)}' ;;`);
  return `${name}() {\n  case "$1" in\n${arms.join("\n")}\n  esac\n}\n`;
}

function fishSwitch(name: string, entries: Iterable<readonly [string, readonly string[]]>): string {
  const arms = [...entries].map(([key, lines]) => `        case '${plain(key)}'\n            printf '%s\\n' ${lines.map((l) => `'${plain(l).replace(/\u0001/g, "\t")}'`).join(" ")}`);
  return `function ${name}\n    switch "$argv[1]"\n${arms.join("\n")}\n    end\nend\n`;
}

function lookups(table: CompletionTable): { next: [string, string][]; flags: [string, string][]; values: [string, string][] } {
  return {
    next: [...table.next].map(([k, ws]) => [k, ws.map((w) => w.word).join(" ")]),
    flags: [...table.flags].map(([k, fs]) => [k, fs.join(" ")]),
    values: [...table.values].map(([k, vs]) => [k, vs.join(" ")]),
  };
}

const SH_WALK = `  local cmd="" w i
  for ((i = @FIRST@; i < @LAST@; i++)); do
    w=@WORD@
    [[ " $(_svc_next "$cmd") " == *" $w "* ]] || break
    cmd=\${cmd:+$cmd }$w
  done`;

function bashScript(table: CompletionTable): string {
  const l = lookups(table);
  return `# svc completion for bash, generated from the operation contracts (svc completion bash).
# Load it with: source <(svc completion bash)   or save it as /etc/bash_completion.d/svc
${shCase("_svc_next", l.next)}${shCase("_svc_flags", l.flags)}${shCase("_svc_values", l.values)}_svc() {
  local cur=\${COMP_WORDS[COMP_CWORD]} prev=\${COMP_WORDS[COMP_CWORD-1]}
${SH_WALK.replace("@FIRST@", "1").replace("@LAST@", "COMP_CWORD").replace("@WORD@", "${COMP_WORDS[i]}")}
  local v
  if [[ $prev == --* ]]; then
    v=$(_svc_values "$cmd $prev")
    if [[ -n $v ]]; then COMPREPLY=($(compgen -W "$v" -- "$cur")); return; fi
  fi
  if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "$(_svc_flags "$cmd")" -- "$cur")); return; fi
  COMPREPLY=($(compgen -W "$(_svc_next "$cmd")" -- "$cur"))
}
complete -o default -F _svc svc
`;
}

function zshScript(table: CompletionTable): string {
  const l = lookups(table);
  return `#compdef svc
# svc completion for zsh, generated from the operation contracts (svc completion zsh).
# Load it with: source <(svc completion zsh)   or save it as _svc in a directory of $fpath
${shCase("_svc_next", l.next)}${shCase("_svc_flags", l.flags)}${shCase("_svc_values", l.values)}_svc() {
  local cur=\${words[CURRENT]} prev=\${words[CURRENT-1]}
${SH_WALK.replace("@FIRST@", "2").replace("@LAST@", "CURRENT").replace("@WORD@", "${words[i]}")}
  local v
  if [[ $prev == --* ]]; then
    v=$(_svc_values "$cmd $prev")
    if [[ -n $v ]]; then compadd -- \${=v}; return; fi
  fi
  if [[ $cur == -* ]]; then v=$(_svc_flags "$cmd"); compadd -- \${=v}; return; fi
  v=$(_svc_next "$cmd")
  if [[ -n $v ]]; then compadd -- \${=v}; else _files; fi
}
if [[ \${zsh_eval_context[-1]} == loadautofunc ]]; then _svc "$@"; else compdef _svc svc; fi
`;
}

function fishScript(table: CompletionTable): string {
  // fish shows a description after a tab: the command's summary beside each word.
  const next = [...table.next].map(([k, ws]) => [k, ws.map((w) => `${w.word}\u0001${w.about}`)] as const);
  return `# svc completion for fish, generated from the operation contracts (svc completion fish).
# Load it with: svc completion fish | source   or save it as ~/.config/fish/completions/svc.fish
${fishSwitch("__svc_next", next)}${fishSwitch("__svc_flags", [...table.flags].map(([k, fs]) => [k, fs] as const))}${fishSwitch("__svc_values", [...table.values].map(([k, vs]) => [k, vs] as const))}function __svc_complete
    set -l words (commandline -opc)
    set -l cur (commandline -ct)
    set -l cmd ""
    for w in $words[2..-1]
        contains -- $w (__svc_next "$cmd" | string replace -r '\\t.*' '') ; or break
        set cmd (string trim -- "$cmd $w")
    end
    if string match -q -- '--*' $words[-1]
        set -l v (__svc_values "$cmd $words[-1]")
        if test (count $v) -gt 0
            printf '%s\\n' $v
            return
        end
    end
    if string match -q -- '-*' $cur
        __svc_flags "$cmd"
        return
    end
    __svc_next "$cmd"
end
complete -c svc -f -a '(__svc_complete)'
`;
}

/** The completion script of a shell. */
export function completionScript(shell: Shell, table: CompletionTable = completionTable()): string {
  return shell === "bash" ? bashScript(table) : shell === "zsh" ? zshScript(table) : fishScript(table);
}
