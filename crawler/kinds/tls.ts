import { TlsResult } from "../../proto/index.ts";
import { splitHost } from "../fetch/politeness.ts";
import { collectTlsFacts } from "../site/tls-facts.ts";
import type { CrawlerKind } from "./kind.ts";

/** A live TLS handshake with a host (GET /ssl/{host}). */
export const tlsKind: CrawlerKind<"tls"> = {
  name: "tls",
  async run(task, ctx) {
    const { node } = ctx;
    const { hostname, port } = splitHost(task.host);
    await node.refuseBlocked(hostname);
    const facts = await collectTlsFacts(hostname, port ?? 443, node.egress, { timeoutMs: Math.min(10_000, node.settings.fetchTimeoutMs) });
    return TlsResult.fromPartial({ facts });
  },
};
