import { Type } from "@sinclair/typebox";
import { EXCLUSION_FAMILIES, PROFILE_LIMITS, SITE_TYPES, TYPE_DEFAULTS } from "../../analyzer/index.ts";
import { HostParams, Nullable, StringEnum, UnixSeconds } from "../schemas.ts";
import { defineContract } from "./contract.ts";

// Site profiles (spec "Profile", "Profile rules"; seo-anchors §3.7; docs/analysis.md "Site
// profiles"). A profile belongs to the account that monitors the site. It does not change the
// standard rank of /report and /history; applied{} shows what it would make of the latest run.

const SiteTypeSchema = StringEnum(SITE_TYPES, { description: "Site type" });
const FamilySchema = StringEnum(EXCLUSION_FAMILIES, { description: "An excludable check family" });

const ProfileSchema = Type.Object(
  {
    host: Type.String(),
    profile: SiteTypeSchema,
    title: Type.String({ description: "The site type's name" }),
    exclude: Type.Array(FamilySchema, { description: "Excluded check families, in the whitelist's order" }),
    updated: Nullable(UnixSeconds),
    applied: Type.Object(
      {
        base: Nullable(Type.Integer({ minimum: 1, maximum: 100, description: "The standard rank of the latest run (no exclusions); null before the first run" })),
        value: Nullable(Type.Integer({ minimum: 1, maximum: 100, description: "The latest run's rank with the exclusions; null before the first run" })),
        delta: Nullable(Type.Integer({ description: "value − base (may be negative: excluding a passing check removes good weight)" })),
        warn: Type.Boolean({ description: `delta > warn_lift (${PROFILE_LIMITS.warn_lift})` }),
        excluded: Type.Array(
          Type.Object(
            {
              code: FamilySchema,
              title: Type.String(),
              was: Nullable(Type.Number({ minimum: 0, maximum: 100, description: "The family's score ×100 in the latest run; null without a run or an applicable check" })),
              reason: Type.String(),
            },
            { additionalProperties: false },
          ),
        ),
      },
      { additionalProperties: false },
    ),
    limits: Type.Object(
      { max_exclusions: Type.Integer(), max_group_share: Type.Number(), warn_lift: Type.Number() },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

const RULES =
  `Only whitelisted families (${EXCLUSION_FAMILIES.join(", ")}); at most ${PROFILE_LIMITS.max_exclusions}; ` +
  `per rank group the excluded checks' nominal weight at most ${PROFILE_LIMITS.max_group_share} of the group's; ` +
  "every family sent in exclude must be named in confirm. Without exclude the type's default exclusions apply " +
  `(${SITE_TYPES.map((t) => `${t}: ${TYPE_DEFAULTS[t].join(", ") || "none"}`).join("; ")}), no confirmation needed. ` +
  "A rule broken answers bad_param naming exclude or confirm.";

export const getSiteProfile = defineContract({
  id: "get_site_profile",
  method: "GET",
  path: "/profile/{host}",
  scope: "read",
  cli: "profile show",
  summary: "Your site's profile: site type, excluded checks, and what they make of the rank",
  description:
    "Profiles belong to the account that monitors the site (not_found otherwise). Without a stored profile the answer is the default: general, no exclusions, updated null. " +
    "applied compares the latest run's rank without (base) and with (value) the exclusions; before the first run they are null. /report and /history keep the standard rank.",
  tags: ["Sites"],
  errors: ["bad_host", "not_found"],
  params: HostParams,
  response: ProfileSchema,
});

export const setSiteProfile = defineContract({
  id: "set_site_profile",
  method: "PUT",
  path: "/profile/{host}",
  scope: "write",
  cli: "profile set",
  summary: "Set your site's type and the check families excluded from its rank",
  description: `${RULES} The answer is the stored profile as GET /profile/{host} shows it (host, profile, exclude, applied{base, value, delta} and more).`,
  tags: ["Sites"],
  errors: ["bad_host", "bad_param", "not_found"],
  params: HostParams,
  bodyLimitBytes: 8 * 1024,
  body: Type.Object(
    {
      profile: SiteTypeSchema,
      exclude: Type.Optional(Type.Array(FamilySchema, { description: "Families to exclude; omitted: the type's defaults" })),
      confirm: Type.Optional(Type.Array(FamilySchema, { description: "Families whose exclusion reason you confirm" })),
    },
    { additionalProperties: false },
  ),
  response: ProfileSchema,
});

export const resetSiteProfile = defineContract({
  id: "reset_site_profile",
  method: "DELETE",
  path: "/profile/{host}",
  scope: "write",
  cli: "profile reset",
  summary: "Reset your site's profile to the standard set of checks",
  description:
    "Drops the stored profile: the site is general again with no exclusions. Answers {host, profile: \"general\", exclude: [], reset: true}, the same whether or not a profile was stored. not_found when you do not monitor the site.",
  tags: ["Sites"],
  errors: ["bad_host", "not_found"],
  params: HostParams,
  response: Type.Object(
    {
      host: Type.String(),
      profile: Type.Literal("general"),
      exclude: Type.Array(FamilySchema, { maxItems: 0 }),
      reset: Type.Literal(true),
    },
    { additionalProperties: false },
  ),
});
