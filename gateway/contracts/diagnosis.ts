import { Type } from "@sinclair/typebox";
import { DIAGNOSIS_RULES, EVIDENCE_SOURCES } from "../../analyzer/index.ts";
import { HostParams, Nullable, StringEnum, UnixSeconds } from "../schemas.ts";
import { defineContract } from "./contract.ts";

// The spec names the fields of the diagnosis operations and leaves the structure inside the
// diagnosis objects "not shown": the shapes below are Svc's, described for the OpenAPI document.

const LEVELS = ["critical", "bad", "warn", "ok", "unknown"] as const;
export const DiagnosisLevelSchema = StringEnum(LEVELS, {
  description: "critical, bad, warn, ok: the worst of the health band (below 30 critical, 50 bad, 70 warn) and of the causes' severities; unknown: the site was never checked nor probed",
});
const Source = StringEnum(EVIDENCE_SOURCES, { description: "report (checks), uptime (probes), browser (browser measurements), search (imported clicks), indexing (imported index status), backlinks, positions (tracked queries)" });
const Day = Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}$", description: "UTC day" });

export const CauseSchema = Type.Object(
  {
    code: StringEnum(DIAGNOSIS_RULES.map((r) => r.code), { description: "The rule that found it" }),
    title: Type.String(),
    text: Type.String({ description: "What happened, as a chain of events with the figures" }),
    severity: StringEnum(["critical", "bad", "warn"]),
    confidence: Type.Number({ minimum: 0, maximum: 1, description: "How sure the rule is, 0-1" }),
    since: Nullable(UnixSeconds),
    evidence: Type.Array(Type.Object({ source: Source, fact: Type.String() }, { additionalProperties: false }), { description: "The facts the rule used" }),
    fixed_by: Type.Array(Type.String(), { description: "Check codes whose tasks fix the cause" }),
    action: Type.String({ description: "What to do about it" }),
  },
  { additionalProperties: false, description: "A root cause found by one of the rules, from the evidence of the sources it needs" },
);

/** The short form of a root cause in lists. */
export const CauseBriefSchema = Type.Object(
  { code: Type.String(), title: Type.String(), text: Type.String(), severity: StringEnum(["critical", "bad", "warn"]), confidence: Type.Number({ minimum: 0, maximum: 1 }) },
  { additionalProperties: false },
);

const Trend = StringEnum(["up", "down", "flat"]);

export const ActionSchema = Type.Object(
  {
    order: Type.Integer({ minimum: 1 }),
    task_id: Nullable(Type.Integer({ description: "The task it completes; null for a cause's own action no task covers" })),
    code: Nullable(Type.String({ description: "The task's check code" })),
    title: Type.String(),
    level: StringEnum(["bad", "warn", "info"]),
    gain: Nullable(Type.Number({ description: "Estimated rank (index) points gained: the task's impact" })),
    effort: Nullable(Type.Integer({ minimum: 1, maximum: 3 })),
    time_min: Nullable(Type.Integer({ description: "Estimated working time in minutes: effort 1 → 30, 2 → 120, 3 → 480" })),
    cause: Nullable(Type.String({ description: "The root cause it answers" })),
  },
  { additionalProperties: false },
);

const ZoneSchema = Type.Object(
  {
    zone: Type.String({ description: "A rank group of the latest report (indexing, technical, security, performance, content, links, presentation), or availability, speed, index_coverage, traffic" }),
    source: Source,
    score: Nullable(Type.Integer({ minimum: 0, maximum: 100 })),
    state: StringEnum(["ok", "warn", "bad", "nodata"], { description: "score ≥ 70 ok, ≥ 50 warn, else bad; nodata without data" }),
    note: Type.String(),
  },
  { additionalProperties: false },
);

const DiagnosisObject = Type.Object(
  {
    host: Type.String(),
    checked_at: Nullable(UnixSeconds),
    level: DiagnosisLevelSchema,
    health: Nullable(
      Type.Integer({
        minimum: 0,
        maximum: 100,
        description: "Weighted mean of the parts with data: rank 50, availability 20 (each 0.1 % of 7-day uptime lost costs 2 points; 0 while down), speed 10 (home page browser score), index coverage 10 (indexed pages ÷ the 30-day peak), traffic 10 (100 + % change of daily clicks, last 7 days against the 21 before)",
      }),
    ),
    root_cause: Nullable(CauseSchema),
    causes: Type.Array(CauseSchema, { description: "Every cause found, most severe and certain first (severity weight × confidence)" }),
    zones: Type.Array(ZoneSchema),
    dynamics: Type.Object(
      {
        rank: Nullable(Type.Object({ value: Type.Integer(), delta_7d: Nullable(Type.Integer()), delta_30d: Nullable(Type.Integer()), trend: Trend }, { additionalProperties: false })),
        health: Nullable(Type.Object({ value: Type.Integer(), delta_7d: Nullable(Type.Integer()), trend: Trend }, { additionalProperties: false })),
        traffic: Nullable(Type.Object({ clicks_per_day: Type.Number(), before: Type.Number(), change_pct: Type.Number(), trend: Trend }, { additionalProperties: false, description: "Daily clicks of the last 7 days of data against the 21 before" })),
        indexed: Nullable(Type.Object({ pages: Type.Integer(), peak_30d: Type.Integer(), change_pct: Type.Number(), trend: Trend }, { additionalProperties: false })),
      },
      { additionalProperties: false },
    ),
    completeness: Type.Object(
      {
        score: Type.Integer({ minimum: 0, maximum: 100, description: "Weighted share of the health's parts whose source has data" }),
        sources: Type.Array(Type.Object({ source: Source, present: Type.Boolean() }, { additionalProperties: false })),
        missing: Type.Array(Source),
        rules_not_evaluated: Type.Array(Type.Object({ rule: Type.String(), missing: Type.Array(Source) }, { additionalProperties: false }), { description: "Root-cause rules not asked for lack of their evidence" }),
      },
      { additionalProperties: false },
    ),
    actions: Type.Array(ActionSchema, { description: "At most 10: each cause's fixing tasks (or its own action) in the causes' order, then open tasks by gain per effort" }),
  },
  { additionalProperties: false },
);

export const getDiagnosisAll = defineContract({
  id: "get_diagnosis_all",
  method: "GET",
  path: "/diagnosis",
  scope: "read",
  cli: "diagnosis list",
  summary: "Every site of your account with its level, health score and root cause; most severe first",
  description: "Sorted by level (critical, bad, warn, unknown, ok), then by health (lowest first), then host.",
  tags: ["Diagnosis"],
  response: Type.Object(
    {
      sites: Type.Array(
        Type.Object(
          {
            host: Type.String(),
            level: DiagnosisLevelSchema,
            health: Nullable(Type.Integer({ minimum: 0, maximum: 100, description: "The health score, as in GET /diagnosis/{host}" })),
            root_cause: Nullable(CauseBriefSchema),
            rank: Nullable(Type.Integer({ description: "An extension: the latest check's rank" })),
            checked_at: Nullable({ ...UnixSeconds, description: "An extension: when the latest check ran" }),
            completeness: Type.Integer({ minimum: 0, maximum: 100, description: "An extension: the data completeness score of GET /diagnosis/{host}" }),
          },
          { additionalProperties: false },
        ),
      ),
    },
    { additionalProperties: false },
  ),
});

export const getDiagnosis = defineContract({
  id: "get_diagnosis",
  method: "GET",
  path: "/diagnosis/{host}",
  scope: "read",
  cli: "diagnosis",
  summary: "One of your sites' diagnosis: health zones, root cause, dynamics, data completeness, recommended actions",
  description:
    "The root cause is found by rules, each needing certain evidence (a rule without its evidence is not asked, and completeness.rules_not_evaluated says so): site_down (uptime), index_drop_after_block (report, indexing; with search data the traffic it cost), certificate (report), new_critical_problems (report: the rank fell with new critical checks), performance_regression (browser), position_drop (positions), lost_backlinks (backlinks), external_traffic_drop (search; only when no internal cause is found).",
  tags: ["Diagnosis"],
  errors: ["bad_host", "not_found"],
  params: HostParams,
  response: Type.Object({ diagnosis: DiagnosisObject }, { additionalProperties: false }),
});

export const getDiagnosisHistory = defineContract({
  id: "get_diagnosis_history",
  method: "GET",
  path: "/diagnosis/{host}/history",
  scope: "read",
  cli: "diagnosis history",
  summary: "One of your sites' health day by day, its stability and the last week",
  description: "Each point is the diagnosis as it stood at the end of its UTC day (today's: now), from what was known by then.",
  tags: ["Diagnosis"],
  errors: ["bad_host", "not_found"],
  params: HostParams,
  query: Type.Object({ days: Type.Integer({ minimum: 1, maximum: 365, default: 30 }) }, { additionalProperties: false }),
  response: Type.Object(
    {
      host: Type.String(),
      days: Type.Integer(),
      stability: Nullable(Type.Integer({ minimum: 0, maximum: 100, description: "Share (%) of consecutive days, both with a health, whose health moved by less than 5 points; null without such a pair" })),
      points: Type.Array(
        Type.Object(
          { day: Day, health: Nullable(Type.Integer()), level: DiagnosisLevelSchema, rank: Nullable(Type.Integer()), root_cause: Nullable(Type.String({ description: "The root cause's rule code" })) },
          { additionalProperties: false },
        ),
        { description: "One per day, oldest first, today last" },
      ),
      week: Type.Object(
        {
          from: Day,
          to: Day,
          health_from: Nullable(Type.Integer({ description: "At the end of the day before from" })),
          health_to: Nullable(Type.Integer()),
          delta: Nullable(Type.Integer()),
          checks: Type.Integer({ description: "Checks finished in the last 7 days" }),
          incidents: Type.Integer({ description: "Incidents that began in the last 7 days" }),
          down_min: Type.Integer(),
          tasks_new: Type.Integer(),
          tasks_fixed: Type.Integer(),
        },
        { additionalProperties: false, description: "The last 7 days (168 hours) in figures" },
      ),
    },
    { additionalProperties: false },
  ),
});
