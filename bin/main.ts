// The server modules are imported only by the commands that run them: a client command
// (`svc sites list`) loads the operation contracts and nothing of the server.
import { ListenError } from "./listen.ts";

async function usage(): Promise<string> {
  const { PACKAGE_VERSION } = await import("./compose.ts");
  const { commandList } = await import("./cli.ts");
  const { topicList } = await import("./cli-help.ts");
  return `svc ${PACKAGE_VERSION}: site monitoring and SEO analysis

usage: svc <command>
  serve            run the whole service (gateway and workers) in one process (npm start)
  gateway          run the REST gateway alone (distributed mode: SVC_POSTGRES_URL, SVC_SCHEDULER_ADDRESS)
  scheduler        run the scheduler alone (distributed mode: SVC_POSTGRES_URL, SVC_KAFKA_BROKERS)
  crawler          run one crawler node (distributed mode: SVC_KAFKA_BROKERS, SVC_SCHEDULER_ADDRESS)
  admin …          operator commands; \`svc admin help\` lists them
  version          print the version
  help <topic>     a command's help, a group's commands, or a topic (below)
  completion SHELL shell completion for bash, zsh or fish (\`svc help completion\`)

Configuration is read from SVC_* environment variables (docs/configuration.md).

help topics (\`svc help <topic>\`):
${topicList()}

client commands (SVC_API_URL, SVC_API_KEY or ~/.config/svc/config.json; \`svc <command> --help\`):
${commandList()}`;
}

/** The `svc` command line: returns the process exit code. */
export async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case "serve": {
        const { serve } = await import("./serve.ts");
        return await serve(env);
      }
      case "gateway": {
        const { gateway } = await import("./gateway.ts");
        return await gateway(env);
      }
      case "scheduler": {
        const { scheduler } = await import("./scheduler.ts");
        return await scheduler(env);
      }
      case "crawler": {
        const { crawler } = await import("./crawler.ts");
        return await crawler(env);
      }
      case "admin": {
        const { admin } = await import("./admin.ts");
        const out = await admin(rest, env);
        process.stdout.write(`${typeof out === "string" ? out : JSON.stringify(out, null, 2)}\n`);
        return 0;
      }
      case "version":
      case "--version": {
        const { PACKAGE_VERSION } = await import("./compose.ts");
        process.stdout.write(`${PACKAGE_VERSION}\n`);
        return 0;
      }
      case "help":
      case "--help": {
        if (rest.length === 0) {
          process.stdout.write(`${await usage()}\n`);
          return 0;
        }
        const { helpOf, topicList } = await import("./cli-help.ts");
        const text = helpOf(rest);
        if (text === null) {
          process.stderr.write(`svc: no command or topic "${rest.join(" ")}"; topics:\n${topicList()}\n`);
          return 1;
        }
        process.stdout.write(`${text}\n`);
        return 0;
      }
      case "completion": {
        const { completionScript, SHELLS } = await import("./cli-completion.ts");
        const shell = SHELLS.find((s) => s === rest[0]);
        if (shell === undefined || rest.length > 1) {
          process.stderr.write(`usage: svc completion ${SHELLS.join("|")}\n`);
          return 1;
        }
        process.stdout.write(completionScript(shell));
        return 0;
      }
      case undefined:
        process.stdout.write(`${await usage()}\n`);
        return 1;
      default: {
        const cli = await import("./cli.ts");
        if (!cli.isClientCommand(argv)) {
          process.stderr.write(`unknown command "${command}"\n\n${await usage()}\n`);
          return 1;
        }
        return await cli.runCli(argv, env, {
          out: (text) => process.stdout.write(text),
          err: (text) => process.stderr.write(text),
          interrupted: () => new Promise((done) => process.once("SIGINT", () => done())),
        });
      }
    }
  } catch (err) {
    const { ConfigError } = await import("../runtime/index.ts");
    const { DataDirLockedError, MigrationChangedError } = await import("../storage/index.ts");
    const { AdminCommandError, AdminUsageError } = await import("../gateway/index.ts");
    if (err instanceof ConfigError || err instanceof DataDirLockedError || err instanceof AdminUsageError || err instanceof ListenError || err instanceof MigrationChangedError) {
      process.stderr.write(`svc: ${err.message}\n`);
      return 2;
    }
    if (err instanceof AdminCommandError) {
      process.stderr.write(`svc: ${err.message}\n`);
      return 1;
    }
    process.stderr.write(`svc: ${(err as Error).stack ?? String(err)}\n`);
    return 1;
  }
}
