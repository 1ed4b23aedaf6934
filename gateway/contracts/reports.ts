import { Type } from "@sinclair/typebox";
// ReportSchema is still defined beside renderReport, which fills it; it is pure (TypeBox only).
import { ReportSchema } from "../operations/report-view.ts";
import { HostParams, Nullable, PageEnvelope, StringEnum, UnixSeconds, pagedQuery } from "../schemas.ts";
import { defineContract } from "./contract.ts";

export const getReport = defineContract({
  id: "get_report",
  method: "GET",
  path: "/report/{host}",
  scope: "read",
  shared: true,
  cli: "report",
  summary: "The latest report of a site: rank, grouped check results, technologies",
  description: "Reports are shared by all users. not_found: nobody added or analysed the host; not_ready: no finished run yet.",
  tags: ["Site data"],
  errors: ["bad_host", "not_found", "not_ready"],
  params: HostParams,
  response: ReportSchema,
});

const RunEntry = Type.Object(
  { id: Type.Integer(), checked_at: UnixSeconds, rank: Type.Integer(), label: Type.String(), color: Type.String() },
  { additionalProperties: false },
);

export const getHistory = defineContract({
  id: "get_history",
  method: "GET",
  path: "/history/{host}",
  scope: "read",
  shared: true,
  cli: "history",
  summary: "The site's finished checks, newest first (their ids are the check numbers of /changes)",
  tags: ["Site data"],
  errors: ["bad_host", "not_found"],
  params: HostParams,
  pageMax: 200,
  query: pagedQuery(200, {}),
  response: Type.Object({ host: Type.String(), runs: Type.Array(RunEntry), page: PageEnvelope }, { additionalProperties: false }),
});

const ChangeEntry = Type.Object(
  { code: Type.String(), title: Type.String(), group: Type.String(), from: Type.String(), to: Type.String(), value: Type.Union([Type.String(), Type.Number(), Type.Null()]) },
  { additionalProperties: false },
);
const RunRef = Type.Object({ id: Type.Integer(), checked_at: UnixSeconds, rank: Type.Integer() }, { additionalProperties: false });
const PerformanceChange = Type.Object(
  {
    url: Type.String(),
    device: Type.String({ description: "mobile or desktop: the profile both measurements used" }),
    metric: Type.String({ description: "score, fcp_ms, lcp_ms, tbt_ms, cls or inp_ms" }),
    from: Type.Number({ description: "The value in the older check" }),
    to: Type.Number({ description: "The value in the newer check" }),
  },
  { additionalProperties: false },
);

export const getChanges = defineContract({
  id: "get_changes",
  method: "GET",
  path: "/changes/{host}",
  scope: "read",
  shared: true,
  cli: "changes",
  summary: "What changed between two checks (default: the last two)",
  description:
    "returned: failing again after having been fixed in an earlier check; returned_known: some returned issue was seen before `from`. " +
    "performance is an extension: the browser metrics of a page measured in the same profile in both checks that got worse (the score by 10 points or more; FCP, LCP, TBT, CLS or INP beyond both a relative and an absolute threshold and past good, docs/analysis.md); it counts in changed.",
  tags: ["Site data"],
  errors: ["bad_host", "not_found", "not_ready"],
  params: HostParams,
  query: Type.Object(
    { from: Type.Optional(Type.Integer({ minimum: 1, description: "Older check number (from /history)" })), to: Type.Optional(Type.Integer({ minimum: 1, description: "Newer check number" })) },
    { additionalProperties: false },
  ),
  response: Type.Object(
    {
      host: Type.String(),
      from: RunRef,
      to: RunRef,
      rank_delta: Type.Integer(),
      new: Type.Array(ChangeEntry),
      fixed: Type.Array(ChangeEntry),
      returned: Type.Array(ChangeEntry),
      worse: Type.Array(ChangeEntry),
      improved: Type.Array(ChangeEntry),
      tech_added: Type.Array(Type.String()),
      tech_removed: Type.Array(Type.String()),
      performance: Type.Array(PerformanceChange, { description: "Extension: browser metrics that regressed between the two checks, per page and profile" }),
      changed: Type.Boolean(),
      returned_known: Type.Boolean(),
    },
    { additionalProperties: false },
  ),
});

export const getTopIssues = defineContract({
  id: "get_top_issues",
  method: "GET",
  path: "/issues/{host}",
  scope: "read",
  shared: true,
  cli: "issues",
  summary: "The five most useful problems to fix, with the rank after fixing all",
  description:
    "profile is your site type for the host (PUT /profile/{host}), null when you store none. With apply_profile=1 the answer is computed with your profile's exclusions: " +
    "rank, label, verdict, problems, total_issues, after and gain_all leave the excluded checks out (profile is then \"general\" when you store none, and the answer is the standard one). " +
    "Without it the answer keeps the standard rank of /report.",
  tags: ["Site data"],
  errors: ["bad_host", "not_found", "not_ready"],
  params: HostParams,
  query: Type.Object({ apply_profile: Type.Optional(Type.Integer({ minimum: 0, maximum: 1, description: "1 takes the owner's site type into account" })) }, { additionalProperties: false }),
  response: Type.Object(
    {
      host: Type.String(),
      checked_at: UnixSeconds,
      profile: Nullable(Type.String()),
      rank: Type.Integer(),
      label: Type.String(),
      verdict: Type.String(),
      total_issues: Type.Integer(),
      problems: Type.Array(
        Type.Object(
          {
            code: Type.String(),
            name: Type.String(),
            level: StringEnum(["bad", "warn", "info"]),
            status: StringEnum(["open", "done", "ignored"], { description: "Your task's status (open when you do not monitor the site)" }),
            gain: Type.Number(),
            lifts_cap: Type.Boolean(),
            effort: Type.Integer({ minimum: 1, maximum: 3 }),
            how: Type.String(),
          },
          { additionalProperties: false },
        ),
        { maxItems: 5 },
      ),
      after: Nullable(Type.Integer({ description: "Projected rank if every issue were fixed; null when most checks were not measured (after_note says why)" })),
      gain_all: Nullable(Type.Integer({ description: "after − rank; null with after" })),
      after_note: Nullable(Type.String({ description: "Extension: why after and gain_all are null (more than half of the checks not measured, e.g. the site did not answer); null when they are shown" })),
      more: Type.Integer({ description: "Issues beyond the five shown" }),
    },
    { additionalProperties: false },
  ),
});
