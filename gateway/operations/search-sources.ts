import { PROVIDERS, type Provider } from "../../analyzer/index.ts";
import type { HandlerDeps } from "../registry/operation.ts";
import { ApiError } from "../errors.ts";

/**
 * Which providers' imports feed each search section (by operation id). A section answers 503
 * service_off only when every provider it reads is turned off by the administrator
 * (SVC_SEARCH_SOURCES_OFF); with one of them still on it answers from what it has.
 */
export const SECTION_SOURCES: Readonly<Record<string, readonly Provider[]>> = {
  list_search_queries: ["gsc", "yandex_webmaster"],
  list_search_opportunities: ["gsc", "yandex_webmaster"],
  get_traffic_forecast: ["gsc", "yandex_webmaster"],
  list_backlinks: ["gsc", "ahrefs", "semrush"],
  get_indexing: ["gsc_indexing", "yandex_webmaster"],
  list_positions: ["topvisor", "keysso"],
  get_position_pages: ["topvisor", "keysso", "gsc", "yandex_webmaster"],
  get_serp_volatility: ["topvisor", "keysso"],
  get_competitors: ["keysso", "topvisor"],
  get_competitor_history: ["topvisor"],
  get_keyword_gap: ["keysso"],
  get_market: ["keysso"],
};

/** The providers the administrator turned off (the gateway refuses to start when SVC_SEARCH_SOURCES_OFF names one that does not exist). */
export function sourcesOff(deps: HandlerDeps): ReadonlySet<Provider> {
  const off = new Set(deps.config.searchSourcesOff);
  return new Set(PROVIDERS.filter((p) => off.has(p)));
}

/** Throws service_off when every provider the section reads is turned off. */
export function assertSectionOn(deps: HandlerDeps, operation: keyof typeof SECTION_SOURCES): void {
  const sources = SECTION_SOURCES[operation] ?? [];
  const off = sourcesOff(deps);
  if (sources.length > 0 && sources.every((p) => off.has(p))) {
    throw new ApiError("service_off", `this section reads only ${sources.join(", ")}, which the administrator of this installation turned off (SVC_SEARCH_SOURCES_OFF)`, { details: { providers: [...sources] } });
  }
}

/** Throws service_off for an import from a provider the administrator turned off. */
export function assertProviderOn(deps: HandlerDeps, provider: Provider): void {
  if (sourcesOff(deps).has(provider)) {
    throw new ApiError("service_off", `imports from ${provider} are turned off by the administrator of this installation (SVC_SEARCH_SOURCES_OFF)`, { details: { provider } });
  }
}
