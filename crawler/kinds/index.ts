import type { WorkKind } from "../../proto/index.ts";
import { analyzeKind } from "./analyze.ts";
import { crawlKind } from "./crawl.ts";
import { dnsKind } from "./dns.ts";
import type { CrawlerKind } from "./kind.ts";
import { pageKind } from "./page.ts";
import { recheckKind } from "./recheck.ts";
import { tlsKind } from "./tls.ts";
import { utilityKind } from "./utility.ts";
import { webhookKind } from "./webhook.ts";

export type { CrawlerKind, PageStore, WorkContext } from "./kind.ts";
export { signatureHeaders } from "./webhook.ts";

/** Every kind of work a crawler node does, by name: the worker dispatches through this table. */
export const CRAWLER_KINDS: { readonly [K in WorkKind]: CrawlerKind<K> } = {
  analyze: analyzeKind,
  crawl: crawlKind,
  page: pageKind,
  tls: tlsKind,
  dns: dnsKind,
  webhook: webhookKind,
  utility: utilityKind,
  recheck: recheckKind,
};
