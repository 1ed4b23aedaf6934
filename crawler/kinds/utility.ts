import { existsSync } from "node:fs";
import { UtilityResult } from "../../proto/index.ts";
import { startEgressProxy, type EgressProxy } from "../fetch/egress-proxy.ts";
import { UtilityError, runValidated, seededPorts, utilityById } from "../../utilities/index.ts";
import { createUtilityNet, NET_BUDGET } from "../utility-net/utility-net.ts";
import type { CrawlerKind } from "./kind.ts";

/**
 * A network utility's run (POST /utilities/{id}, net: true): the utility runs here, on the node's
 * egress guard, within the catalogue's budgets; what it refuses is a result (tool_failed or
 * bad_param with its reason), not a failed job, so the caller hears why at once.
 */
export const utilityKind: CrawlerKind<"utility"> = {
  name: "utility",
  async run(task, ctx) {
    const failed = (err: UtilityError) => UtilityResult.fromPartial({ failed: err.code, failedMessage: err.message, failedField: err.field ?? "" });
    const u = utilityById(task.utility);
    if (!u?.net) return failed(new UtilityError("tool_failed", `no network utility has the id ${task.utility}`));
    const { node } = ctx;
    const deadline = new AbortController();
    const stop = () => deadline.abort();
    ctx.signal.addEventListener("abort", stop, { once: true });
    let timer: NodeJS.Timeout | undefined;
    const overrun = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        deadline.abort();
        reject(new UtilityError("tool_failed", `the run took longer than ${NET_BUDGET.runMs / 1000} s`));
      }, NET_BUDGET.runMs);
    });
    const net = createUtilityNet({
      egress: node.egress,
      dnsServers: node.settings.dnsServers,
      resolvers: node.settings.utilityResolvers,
      ports: node.settings.utilityPorts,
      whoisRoot: node.settings.whoisRoot,
      whoisPort: node.settings.whoisPort ?? 43,
      ...(node.settings.smtpPort !== undefined ? { smtpPort: node.settings.smtpPort } : {}),
      echoUrl: node.settings.echoUrl || null,
      userAgent: node.settings.userAgent,
      signal: deadline.signal,
    });
    // A utility that drives a browser gets the node's Chromium behind a guarded proxy of its own
    // (every request of the page admitted by the egress guard), for this run only.
    let proxy: EgressProxy | null = null;
    try {
      const browserPath = node.settings.browserPath;
      if (u.browser && existsSync(browserPath)) {
        proxy = await startEgressProxy((hostname) => node.egress.resolve(hostname), node.egress, { connectTimeoutMs: NET_BUDGET.connectMs });
      }
      const browser = proxy ? { executablePath: browserPath, proxy: { server: proxy.server } } : undefined;
      const input = JSON.parse(task.inputJson) as Record<string, unknown>;
      const output = await Promise.race([runValidated(u, input, { ...seededPorts(task.nowMs, task.seed), net: browser ? { ...net, browser } : net }), overrun]);
      return UtilityResult.fromPartial({ outputJson: JSON.stringify(output) });
    } catch (err) {
      if (err instanceof UtilityError) return failed(err);
      if (ctx.signal.aborted) throw err;
      return failed(new UtilityError("tool_failed", `the run failed: ${(err as Error).message}`));
    } finally {
      await proxy?.close().catch(() => undefined);
      clearTimeout(timer);
      deadline.abort();
      ctx.signal.removeEventListener("abort", stop);
    }
  },
};
