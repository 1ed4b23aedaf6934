import {
  applyProfile,
  EXCLUSION_FAMILIES,
  isExclusionFamily,
  PROFILE_LIMITS,
  TYPE_DEFAULTS,
  TYPE_TITLES,
  validateExclusions,
  type ExclusionFamily,
  type SiteType,
} from "../../analyzer/index.ts";
import type { Repositories } from "../../storage/index.ts";
import * as contracts from "../contracts/index.ts";
import { ApiError } from "../errors.ts";
import { implement } from "../registry/operation.ts";

// Site profiles (spec "Profile", "Profile rules"; seo-anchors §3.7; docs/analysis.md "Site
// profiles"). A profile belongs to the account that monitors the site. It does not change the
// standard rank of /report and /history; applied{} shows what it would make of the latest run.

async function requireMonitored(repos: Pick<Repositories, "sites">, accountId: number, host: string): Promise<void> {
  if (!(await repos.sites.get(accountId, host))) throw new ApiError("not_found", `you do not monitor ${host}`);
}

/** The whitelist's order, so that equal profiles read the same. */
function ordered(codes: readonly string[]): ExclusionFamily[] {
  return EXCLUSION_FAMILIES.filter((f) => codes.includes(f));
}

async function profileView(repos: Pick<Repositories, "runs">, host: string, profile: SiteType, exclude: readonly string[], updated: number | null) {
  const families = ordered(exclude.filter(isExclusionFamily));
  const run = await repos.runs.latest(host);
  const report = run?.report;
  return {
    host,
    profile,
    title: TYPE_TITLES[profile],
    exclude: families,
    updated,
    applied: applyProfile(families, report ? { items: report.items, caps: report.caps } : null),
    limits: { ...PROFILE_LIMITS },
  };
}

export const getSiteProfile = implement(contracts.getSiteProfile, { repos: ["profiles", "runs", "sites"] }, async ({ auth, repos, params }) => {
  await requireMonitored(repos, auth!.accountId, params.host);
  const row = await repos.profiles.get(auth!.accountId, params.host);
  return { body: await profileView(repos, params.host, (row?.profile as SiteType | undefined) ?? "general", row?.exclude ?? [], row?.updated ?? null) };
});

export const setSiteProfile = implement(contracts.setSiteProfile, { repos: ["profiles", "runs", "sites"] }, async ({ auth, repos, params, body, now }) => {
  await requireMonitored(repos, auth!.accountId, params.host);
  const exclude = body.exclude ?? TYPE_DEFAULTS[body.profile];
  const violation = validateExclusions(exclude, body.exclude === undefined ? null : (body.confirm ?? []));
  if (violation) throw new ApiError("bad_param", violation.message, { param: violation.param });
  const row = await repos.profiles.set(auth!.accountId, params.host, body.profile, ordered(exclude), now);
  if (!row) throw new ApiError("not_found", `you do not monitor ${params.host}`);
  return { body: await profileView(repos, params.host, row.profile as SiteType, row.exclude, row.updated) };
});

export const resetSiteProfile = implement(contracts.resetSiteProfile, { repos: ["profiles", "sites"] }, async ({ auth, repos, params }) => {
  await requireMonitored(repos, auth!.accountId, params.host);
  await repos.profiles.reset(auth!.accountId, params.host);
  return { body: { host: params.host, profile: "general", exclude: [], reset: true } };
});

export const profilesHandlers = [getSiteProfile, setSiteProfile, resetSiteProfile];
