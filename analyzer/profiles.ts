// Site profiles (seo-anchors §3.7): a site type and the check families an owner excludes from the
// rank. Pure: validation against the catalogue's nominal weights, and the rank with and without the
// exclusions recomputed from a run's stored items.
import { CHECKS, type RankGroup } from "./checks/index.ts";
import { computeRank, RANK_GROUPS, roundHalfUp, type RankEntry } from "./rank.ts";

export const SITE_TYPES = ["general", "shop", "forum", "blog", "corporate", "portal"] as const;
export type SiteType = (typeof SITE_TYPES)[number];

/** The spec's whitelist of excludable families, in the spec's order. */
export const EXCLUSION_FAMILIES = ["text", "pwa", "hreflang", "bimi", "schema", "security_txt", "og", "same_ip"] as const;
export type ExclusionFamily = (typeof EXCLUSION_FAMILIES)[number];

export const PROFILE_LIMITS = Object.freeze({ max_exclusions: 5, max_group_share: 0.5, warn_lift: 5 });

/**
 * Catalogue checks each family stands for (seo-anchors §2's `[x:family]` marks). same_ip has no
 * check: it needs a reverse-IP source Svc does not have, so excluding it changes nothing.
 */
export const FAMILY_CHECKS: Readonly<Record<ExclusionFamily, readonly string[]>> = Object.freeze({
  text: ["text_length"],
  pwa: ["pwa_manifest", "pwa_icons"],
  hreflang: ["hreflang_codes", "hreflang_return", "hreflang_self", "hreflang_x_default", "hreflang_lang_mismatch"],
  bimi: ["bimi"],
  schema: ["jsonld_syntax", "schema_required", "schema_core_types", "schema_breadcrumbs"],
  security_txt: ["security_txt", "security_txt_fields"],
  og: ["og_required", "og_image", "og_url_match", "og_description", "twitter_card"],
  same_ip: [],
});

interface FamilyText {
  readonly title: string;
  /** Why a site may do without it. */
  readonly why: string;
}

const FAMILY_TEXTS: Readonly<Record<ExclusionFamily, FamilyText>> = Object.freeze({
  text: { title: "Amount of text on pages", why: "Catalogue, listing and thread pages are short by nature." },
  pwa: { title: "Progressive web app (manifest, service worker)", why: "A site that is not meant to be installed needs no web app manifest." },
  hreflang: { title: "hreflang annotations", why: "A site in one language for one region needs no hreflang." },
  bimi: { title: "BIMI brand logo in mail", why: "A domain that sends no marketing mail needs no BIMI record." },
  schema: { title: "Structured data (JSON-LD)", why: "Pages without products, articles or events gain little from structured data." },
  security_txt: { title: "security.txt", why: "A site without a security contact process may leave security.txt out." },
  og: { title: "Open Graph tags", why: "Pages nobody shares on social networks need no Open Graph tags." },
  same_ip: { title: "Neighbours on the same IP address", why: "Shared hosting is a deliberate choice of many small sites." },
});

/**
 * Default exclusions per site type (no confirmation needed). Decided in docs/analysis.md
 * ("Site profiles"), following seo-anchors §3.7's proposal.
 */
export const TYPE_DEFAULTS: Readonly<Record<SiteType, readonly ExclusionFamily[]>> = Object.freeze({
  general: [],
  shop: ["pwa"],
  forum: ["bimi", "same_ip"],
  blog: ["pwa", "bimi"],
  corporate: ["pwa"],
  portal: [],
});

export const TYPE_TITLES: Readonly<Record<SiteType, string>> = Object.freeze({
  general: "General site",
  shop: "Online shop",
  forum: "Forum or community",
  blog: "Blog",
  corporate: "Corporate site",
  portal: "Portal or media",
});

export function isExclusionFamily(code: string): code is ExclusionFamily {
  return (EXCLUSION_FAMILIES as readonly string[]).includes(code);
}

/** What validation needs of a check: the catalogue's CheckDef fits. */
export interface NominalCheck {
  readonly code: string;
  readonly title?: string;
  readonly rankGroup: RankGroup;
  readonly weight: number;
}

/** The catalogue checks the families stand for, in catalogue order. */
export function memberChecks(
  families: readonly string[],
  catalogue: readonly NominalCheck[] = CHECKS,
  members: Readonly<Record<string, readonly string[]>> = FAMILY_CHECKS,
): string[] {
  const codes = new Set(families.flatMap((f) => members[f] ?? []));
  return catalogue.filter((c) => codes.has(c.code)).map((c) => c.code);
}

export interface GroupShare {
  readonly group: RankGroup;
  /** Σ nominal weight of the excluded checks of the group. */
  readonly excluded: number;
  /** Σ nominal weight of all the group's checks. */
  readonly total: number;
}

/** Per rank group with an excluded check: excluded and total nominal weight. */
export function groupShares(
  families: readonly string[],
  catalogue: readonly NominalCheck[] = CHECKS,
  members: Readonly<Record<string, readonly string[]>> = FAMILY_CHECKS,
): GroupShare[] {
  const excluded = new Set(memberChecks(families, catalogue, members));
  return RANK_GROUPS.map((group) => {
    const inGroup = catalogue.filter((c) => c.rankGroup === group);
    return {
      group,
      excluded: inGroup.filter((c) => excluded.has(c.code)).reduce((s, c) => s + c.weight, 0),
      total: inGroup.reduce((s, c) => s + c.weight, 0),
    };
  }).filter((g) => g.excluded > 0);
}

export interface ProfileViolation {
  readonly param: "exclude" | "confirm";
  readonly message: string;
}

/**
 * The spec's profile rules, on nominal weights (deterministic, independent of any run):
 * whitelisted families only, no repeats, at most max_exclusions, every explicit exclusion named in
 * confirm, and per rank group the excluded checks' weight at most max_group_share of the group's.
 * `confirm` is null when the exclusions are a type's defaults (they need no confirmation).
 */
export function validateExclusions(
  exclude: readonly string[],
  confirm: readonly string[] | null,
  catalogue: readonly NominalCheck[] = CHECKS,
  members: Readonly<Record<string, readonly string[]>> = FAMILY_CHECKS,
): ProfileViolation | null {
  const unknown = exclude.filter((c) => !isExclusionFamily(c));
  if (unknown.length > 0) {
    return { param: "exclude", message: `${unknown.join(", ")} cannot be excluded; excludable: ${EXCLUSION_FAMILIES.join(", ")}` };
  }
  const repeated = exclude.filter((c, i) => exclude.indexOf(c) !== i);
  if (repeated.length > 0) return { param: "exclude", message: `${[...new Set(repeated)].join(", ")} is named more than once` };
  if (exclude.length > PROFILE_LIMITS.max_exclusions) {
    return { param: "exclude", message: `at most ${PROFILE_LIMITS.max_exclusions} exclusions (max_exclusions), got ${exclude.length}` };
  }
  if (confirm !== null) {
    const unconfirmed = exclude.filter((c) => !confirm.includes(c));
    if (unconfirmed.length > 0) {
      return { param: "confirm", message: `confirm the exclusion of ${unconfirmed.join(", ")} by naming it in confirm` };
    }
  }
  for (const g of groupShares(exclude, catalogue, members)) {
    if (g.excluded > PROFILE_LIMITS.max_group_share * g.total) {
      return {
        param: "exclude",
        message: `the exclusions take ${g.excluded} of the ${g.total} weight of the ${g.group} group; at most ${PROFILE_LIMITS.max_group_share * 100}% (max_group_share ${PROFILE_LIMITS.max_group_share})`,
      };
    }
  }
  return null;
}

/** What a run stores per check (scheduler/settle.ts, report.items). */
export interface StoredRankItem {
  readonly code: string;
  readonly rank_group: RankGroup;
  readonly weight: number;
  readonly score: number | null;
  readonly status: string;
}

export interface ExcludedFamily {
  readonly code: ExclusionFamily;
  readonly title: string;
  /** The family's score ×100 in the run (weighted over its applicable checks), null without a run or an applicable check. */
  readonly was: number | null;
  readonly reason: string;
}

export interface AppliedProfile {
  /** The standard rank (no exclusions); null before the host's first run. */
  readonly base: number | null;
  /** The rank with the exclusions; null before the first run. */
  readonly value: number | null;
  readonly delta: number | null;
  /** delta > warn_lift. */
  readonly warn: boolean;
  readonly excluded: ExcludedFamily[];
}

function reasonOf(family: ExclusionFamily, catalogue: readonly NominalCheck[], members: Readonly<Record<string, readonly string[]>>): string {
  const codes = memberChecks([family], catalogue, members);
  const what =
    codes.length === 0
      ? "No check of the catalogue measures it yet: excluding it changes nothing."
      : `Removes ${codes.map((c) => catalogue.find((d) => d.code === c)?.title ?? c).join(", ")} (${codes.join(", ")}) from the rank.`;
  return `${FAMILY_TEXTS[family].why} ${what}`;
}

/**
 * The rank of a run with and without the exclusions (seo-anchors §3.7): excluded checks get weight 0,
 * group weights stay, caps are the run's confirmed caps. `run` is null before the first run.
 */
export function applyProfile(
  exclude: readonly ExclusionFamily[],
  run: { readonly items: readonly StoredRankItem[]; readonly caps: readonly { code: string; cap: number }[] } | null,
  catalogue: readonly NominalCheck[] = CHECKS,
  members: Readonly<Record<string, readonly string[]>> = FAMILY_CHECKS,
): AppliedProfile {
  const byCode = new Map((run?.items ?? []).map((i) => [i.code, i]));
  const excluded = exclude.map((family) => {
    const applicable = memberChecks([family], catalogue, members)
      .map((c) => byCode.get(c))
      .filter((i): i is StoredRankItem => i !== undefined && i.status !== "na" && i.score !== null && i.weight > 0);
    const weight = applicable.reduce((s, i) => s + i.weight, 0);
    const was = weight > 0 ? roundHalfUp((100 * applicable.reduce((s, i) => s + i.weight * (i.score ?? 0), 0)) / weight) : null;
    return { code: family, title: FAMILY_TEXTS[family].title, was, reason: reasonOf(family, catalogue, members) };
  });
  if (!run) return { base: null, value: null, delta: null, warn: false, excluded };
  const caps = new Map(run.caps.map((c) => [c.code, c.cap]));
  const entries: RankEntry[] = run.items.map((i) => ({
    code: i.code,
    rankGroup: i.rank_group,
    weight: i.weight,
    score: i.status === "na" ? null : i.score,
    cap: caps.get(i.code),
  }));
  const base = computeRank(entries).rank;
  const value = computeRank(entries, { excluded: memberChecks(exclude, catalogue, members) }).rank;
  const delta = value - base;
  return { base, value, delta, warn: delta > PROFILE_LIMITS.warn_lift, excluded };
}

/** A stored task as /issues needs it (scheduler/settle.ts, report.tasks). */
export interface StoredTaskRef {
  readonly code: string;
  readonly level: string;
  readonly effort: number;
}

export interface ProfiledTask {
  readonly code: string;
  /** Rank points gained with the exclusions if this check alone passed (one decimal, as TaskDraft.impact). */
  readonly impact: number;
  /** The check is the binding cap of the profiled rank. */
  readonly lifts_cap: boolean;
}

export interface ProfiledIssues {
  /** The run's rank with the excluded checks at weight 0 (= applyProfile's value). */
  readonly rank: number;
  /** The profiled rank if every remaining task's check passed. */
  readonly after: number;
  /** The run's tasks without the excluded checks, re-priced and re-ordered as analyzeSite orders them. */
  readonly tasks: ProfiledTask[];
}

const LEVEL_RANK: Readonly<Record<string, number>> = { bad: 0, warn: 1, info: 2 };

/**
 * A run's tasks as the profile sees them (/issues?apply_profile=1): the excluded
 * families' checks are no tasks; the others are priced against the rank with the exclusions
 * (caps recomputed), ordered by impact, level, effort, exact gain and code like analyzeSite's.
 * With no exclusions it reproduces the stored tasks, rank and after.
 */
export function profiledIssues(
  exclude: readonly ExclusionFamily[],
  run: { readonly items: readonly StoredRankItem[]; readonly caps: readonly { code: string; cap: number }[]; readonly tasks: readonly StoredTaskRef[] },
  catalogue: readonly NominalCheck[] = CHECKS,
  members: Readonly<Record<string, readonly string[]>> = FAMILY_CHECKS,
): ProfiledIssues {
  const excluded = new Set(memberChecks(exclude, catalogue, members));
  const caps = new Map(run.caps.map((c) => [c.code, c.cap]));
  const entries: RankEntry[] = run.items.map((i) => ({
    code: i.code,
    rankGroup: i.rank_group,
    weight: excluded.has(i.code) ? 0 : i.weight,
    score: i.status === "na" ? null : i.score,
    cap: excluded.has(i.code) ? undefined : caps.get(i.code),
  }));
  const fixedRank = (codes: ReadonlySet<string>) => computeRank(entries.map((e) => (codes.has(e.code) ? { ...e, score: 1, cap: undefined } : e)));
  const points = (r: { raw: number; ceiling: number }) => Math.min(100 * r.raw, r.ceiling);
  const current = computeRank(entries);
  const kept = run.tasks.filter((t) => !excluded.has(t.code));
  const priced = kept.map((t) => {
    const fixed = fixedRank(new Set([t.code]));
    const cap = caps.get(t.code);
    return {
      task: t,
      impact: Number((fixed.rank - current.rank).toFixed(1)),
      exact: points(fixed) - points(current),
      lifts_cap: cap !== undefined && cap === current.ceiling && current.ceiling < 100 * current.raw,
    };
  });
  priced.sort(
    (a, b) =>
      b.impact - a.impact ||
      (LEVEL_RANK[a.task.level] ?? 2) - (LEVEL_RANK[b.task.level] ?? 2) ||
      a.task.effort - b.task.effort ||
      b.exact - a.exact ||
      a.task.code.localeCompare(b.task.code),
  );
  return {
    rank: current.rank,
    after: fixedRank(new Set(kept.map((t) => t.code))).rank,
    tasks: priced.map((p) => ({ code: p.task.code, impact: p.impact, lifts_cap: p.lifts_cap })),
  };
}
