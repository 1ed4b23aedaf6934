import { filterCounts, gapKeywords, keywordGap, serpCompetitors, shareHistory, type GapKeyword, type MarketFilter, type Provider, type ShareLine } from "../../analyzer/index.ts";
import type { MarketDomainRow, Repositories } from "../../storage/index.ts";
import * as contracts from "../contracts/index.ts";
import { implement } from "../registry/operation.ts";
import { page } from "../schemas.ts";
import { freshnessOf, SERP_SNAPSHOTS, stateAndNote } from "./search-freshness.ts";
import { ownSite } from "./search-imports.ts";
import { assertSectionOn } from "./search-sources.ts";

const NEEDS_MARKET = "No market reports imported: upload Keys.so organic/concurents and organic/keywords reports (JSON; the site's and its rivals') with POST /imports/{host}.";

const NEEDS_SNAPSHOTS = "No SERP snapshots imported: upload a Topvisor snapshots_2/history export (JSON) with POST /imports/{host}; rank checks with volumes (Topvisor, Keys.so monitoring) weigh the queries.";
const DAY_MS = 86_400_000;

/** Keys.so bases → their engine and market (search-data-anchors §5.2). */
const BASES: Readonly<Record<string, { engine: "yandex" | "google"; country: string; region: string }>> = {
  msk: { engine: "yandex", country: "ru", region: "Moscow" },
  spb: { engine: "yandex", country: "ru", region: "Saint Petersburg" },
  ekb: { engine: "yandex", country: "ru", region: "Yekaterinburg" },
  nsk: { engine: "yandex", country: "ru", region: "Novosibirsk" },
  kzn: { engine: "yandex", country: "ru", region: "Kazan" },
  krr: { engine: "yandex", country: "ru", region: "Krasnodar" },
  gru: { engine: "google", country: "ru", region: "Moscow" },
  mns: { engine: "yandex", country: "by", region: "Minsk" },
  gmns: { engine: "google", country: "by", region: "Minsk" },
  gkv: { engine: "google", country: "ua", region: "Kyiv" },
  gny: { engine: "google", country: "us", region: "New York" },
};

const bare = (host: string) => host.toLowerCase().replace(/:\d+$/, "").replace(/^www\./, "");

interface MarketView {
  readonly provider: string;
  readonly base: string;
  readonly ts: number;
  readonly self: string;
  /** The competitor report's row of the site itself, null when the report has none. */
  readonly own: MarketDomainRow | null;
  readonly domains: MarketDomainRow[];
  readonly rivals: string[];
  readonly keywords: GapKeyword[];
}

/** The site's market in the newest (or the chosen) source: its competitor report, rivals and classified keywords. */
async function marketOf(repos: Pick<Repositories, "search">, accountId: number, host: string, src?: string): Promise<{ view: MarketView | null; sources: { source: string; base: string; imported_at: number }[] }> {
  const sources = (await repos.search.marketSources(accountId, host)).map((s) => ({ source: s.provider, base: s.base, imported_at: s.imported_at }));
  const chosen = sources.find((s) => src === undefined || s.source === src);
  if (!chosen) return { view: null, sources };
  const self = bare(host);
  const reported = await repos.search.marketDomains(accountId, host, chosen.source, chosen.base);
  // The report's row of the site itself gives its own figures (visibility); the others are its rivals.
  const own = reported.find((d) => bare(d.domain) === self) ?? null;
  const domains = reported.filter((d) => bare(d.domain) !== self);
  const rows = (await repos.search.marketKeywords(accountId, host, chosen.source, chosen.base)).map((r) => ({ ...r, domain: bare(r.domain) }));
  // Rivals: the competitor report's domains that have keyword data, else every other domain with keyword data.
  const withKeywords = new Set(rows.map((r) => r.domain).filter((d) => d !== self));
  const inReport = domains.map((d) => bare(d.domain)).filter((d) => withKeywords.has(d));
  const rivals = inReport.length > 0 ? inReport : [...withKeywords].sort();
  return { view: { provider: chosen.source, base: chosen.base, ts: chosen.imported_at, self, own, domains, rivals, keywords: gapKeywords(rows, self, rivals) }, sources };
}

function gapRow(k: GapKeyword) {
  const best = k.rivals[0] ?? null;
  return { keyword: k.keyword, volume: k.volume, my_pos: k.myPos, my_url: k.myUrl, rival: best?.domain ?? null, rival_pos: best?.position ?? null, url: best?.url ?? null, rivals: k.rivals.length, gain: k.gain };
}

function competitorView(d: MarketDomainRow) {
  return { domain: d.domain, common_keywords: d.common_keywords, similarity_pct: d.similarity_pct, visibility: d.visibility, top10: d.top10, pages_in_index: d.pages_in_index };
}

export const getCompetitors = implement(contracts.getCompetitors, { repos: ["search", "sites"] }, async ({ auth, repos, deps, params, now }) => {
  await ownSite(repos, auth!.accountId, params.host);
  assertSectionOn(deps, "get_competitors");
  const { view } = await marketOf(repos, auth!.accountId, params.host);
  const list = (view?.domains ?? []).sort((a, b) => (b.similarity_pct ?? 0) * (b.common_keywords ?? 0) - (a.similarity_pct ?? 0) * (a.common_keywords ?? 0) || a.domain.localeCompare(b.domain));
  if (list.length === 0) {
    // No market report: rivals from the newest SERP snapshot of each tracked query, if any.
    const end = await repos.search.serpLatestDay(auth!.accountId, params.host);
    const since = end === null ? null : new Date(Date.parse(`${end}T00:00:00Z`) - 89 * DAY_MS).toISOString().slice(0, 10);
    const rows = since === null ? [] : await repos.search.serpResults(auth!.accountId, params.host, since);
    const rivals = serpCompetitors(rows, bare(params.host));
    if (rivals.length > 0) {
      const fresh = await freshnessOf(repos, auth!.accountId, params.host, now, SERP_SNAPSHOTS);
      return {
        body: {
          host: params.host,
          data_state: fresh.state === "missing" ? ("fresh" as const) : fresh.state,
          note: ["From the site's SERP snapshots (no market competitor report imported): top10 = tracked queries whose newest snapshot of the last 90 days has the domain in the top 10; similarity_pct = their share of the tracked queries.", fresh.note].filter((n) => n !== null).join(" "),
          source: "topvisor_snapshots",
          base: null,
          ts: null,
          competitors: rivals.map((r) => ({ domain: r.domain, common_keywords: r.top10, similarity_pct: r.sharePct, visibility: null, top10: r.top10, pages_in_index: null })),
        },
      };
    }
  }
  const has = list.length > 0;
  const fresh = await freshnessOf(repos, auth!.accountId, params.host, now, { kinds: ["market"], ...(view ? { providers: [view.provider as Provider] } : {}) });
  return {
    body: {
      host: params.host,
      ...stateAndNote(fresh, has, NEEDS_MARKET),
      source: has ? view!.provider : null,
      base: has ? view!.base : null,
      ts: has ? view!.ts : null,
      competitors: list.map(competitorView),
    },
  };
});

export const getKeywordGap = implement(contracts.getKeywordGap, { repos: ["search", "sites"] }, async ({ auth, repos, deps, params, query, now }) => {
  await ownSite(repos, auth!.accountId, params.host);
  assertSectionOn(deps, "get_keyword_gap");
  const { view } = await marketOf(repos, auth!.accountId, params.host);
  const rows = view ? keywordGap(view.keywords, query.kind, view.rivals.length) : [];
  const has = (view?.keywords.length ?? 0) > 0;
  const fresh = await freshnessOf(repos, auth!.accountId, params.host, now, { kinds: ["market"], ...(view ? { providers: [view.provider as Provider] } : {}) });
  return { body: { host: params.host, kind: query.kind, ...stateAndNote(fresh, has, NEEDS_MARKET), total: rows.length, rows: rows.slice(0, query.limit).map(gapRow) } };
});

export const getMarket = implement(contracts.getMarket, { repos: ["search", "sites"] }, async ({ auth, repos, deps, params, query, now }) => {
  await ownSite(repos, auth!.accountId, params.host);
  assertSectionOn(deps, "get_market");
  const { view, sources } = await marketOf(repos, auth!.accountId, params.host, query.src);
  const filter: MarketFilter = query.filter;
  if (view === null) {
    return {
      body: { host: params.host, data_state: "missing" as const, source: query.src ?? null, sources, filter, mine: null, country: null, ts: null, domains: [], rivals: [], overlap: null, counts: {}, notes: [NEEDS_MARKET], opportunities: [], page: page(query.limit, query.offset, 0) },
    };
  }
  const chosen = view.keywords.filter((k) => k.filters.includes(filter));
  const counts = filterCounts(view.keywords);
  const mineKeywords = view.keywords.filter((k) => k.myPos !== null);
  const fresh = await freshnessOf(repos, auth!.accountId, params.host, now, { kinds: ["market"], providers: [view.provider as Provider] });
  const notes: string[] = [];
  if (mineKeywords.length === 0) notes.push(`No keyword report of ${view.self} itself in base ${view.base}: every keyword counts as the rivals' only.`);
  if (view.rivals.length === 0) notes.push("No rival keyword reports: only the site's own keywords are known.");
  if (view.own === null && view.domains.length > 0) notes.push(`The competitor report has no row of ${view.self} itself: its visibility is unknown.`);
  const base = BASES[view.base];
  if (!base) notes.push(`Base ${view.base} is not one Svc knows the market of.`);
  if (fresh.note) notes.push(fresh.note);
  return {
    body: {
      host: params.host,
      data_state: fresh.state === "missing" ? ("fresh" as const) : fresh.state,
      source: view.provider as "keysso",
      sources,
      filter,
      mine: { domain: view.self, keywords: mineKeywords.length, top10: mineKeywords.filter((k) => (k.myPos as number) <= 10).length, visibility: view.own?.visibility ?? null },
      country: base ? { base: view.base, ...base } : { base: view.base, engine: "yandex" as const, country: null, region: null },
      ts: view.ts,
      domains: view.domains.map(competitorView),
      rivals: view.rivals,
      overlap: view.keywords.length > 0 ? Math.round((counts.shared / view.keywords.length) * 1000) / 1000 : null,
      counts,
      notes,
      opportunities: chosen.slice(query.offset, query.offset + query.limit).map(gapRow),
      page: page(query.limit, query.offset, chosen.length),
    },
  };
});

const shareLine = (l: ShareLine) => ({ domain: l.domain, shares: l.shares, mean: l.mean, last: l.last });

export const getCompetitorHistory = implement(contracts.getCompetitorHistory, { repos: ["search", "sites"] }, async ({ auth, repos, deps, params, query, now }) => {
  await ownSite(repos, auth!.accountId, params.host);
  assertSectionOn(deps, "get_competitor_history");
  const accountId = auth!.accountId;
  // The span ends at the newest snapshot; read the newest one first, then only the span's days.
  const end = await repos.search.serpLatestDay(accountId, params.host);
  const since = end === null ? end : new Date(Date.parse(`${end}T00:00:00Z`) - (query.points * query.step - 1) * DAY_MS).toISOString().slice(0, 10);
  const rows = since === null ? [] : await repos.search.serpResults(accountId, params.host, since);
  const h = shareHistory(rows, bare(params.host), query.points, query.step, await repos.search.keywordVolumes(accountId, params.host));
  const fresh = await freshnessOf(repos, accountId, params.host, now, SERP_SNAPSHOTS);
  const notes = [h.validPoints === 0 ? "No point has snapshots of at least 80 % of the tracked queries: import snapshots for more dates." : null, fresh.note].filter((n): n is string => n !== null);
  return {
    body: {
      host: params.host,
      ...stateAndNote(fresh, rows.length > 0, NEEDS_SNAPSHOTS),
      ...(rows.length > 0 ? { note: notes.length > 0 ? notes.join(" ") : null } : {}),
      step_days: h.stepDays,
      days: h.days,
      valid_points: h.validPoints,
      checked_queries: h.checkedQueries,
      weights: h.weights,
      timeline: h.timeline,
      my_share: shareLine(h.mine),
      rivals: h.rivals.map(shareLine),
      movers: h.movers,
    },
  };
});

export const searchMarketHandlers = [getCompetitors, getCompetitorHistory, getKeywordGap, getMarket];
