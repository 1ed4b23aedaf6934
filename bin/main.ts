import { ConfigError } from "../runtime/index.ts";
import { DataDirLockedError, MigrationChangedError } from "../storage/index.ts";
import { AdminCommandError, AdminUsageError } from "../gateway/index.ts";
import { PACKAGE_VERSION } from "./compose.ts";
import { ListenError } from "./listen.ts";

const USAGE = `svc ${PACKAGE_VERSION}: site monitoring and SEO analysis

usage: svc <command>
  serve            run the whole service (gateway and workers) in one process (npm start)
  gateway          run the REST gateway alone (distributed mode: SVC_POSTGRES_URL, SVC_SCHEDULER_ADDRESS)
  scheduler        run the scheduler alone (distributed mode: SVC_POSTGRES_URL, SVC_KAFKA_BROKERS)
  crawler          run one crawler node (distributed mode: SVC_KAFKA_BROKERS, SVC_SCHEDULER_ADDRESS)
  admin …          operator commands; \`svc admin help\` lists them
  version          print the version

Configuration is read from SVC_* environment variables (docs/configuration.md).`;

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
      case "--version":
        process.stdout.write(`${PACKAGE_VERSION}\n`);
        return 0;
      case undefined:
      case "help":
      case "--help":
        process.stdout.write(`${USAGE}\n`);
        return command === undefined ? 1 : 0;
      default:
        process.stderr.write(`unknown command "${command}"\n\n${USAGE}\n`);
        return 1;
    }
  } catch (err) {
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
