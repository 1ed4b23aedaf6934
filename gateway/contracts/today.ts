import { Type } from "@sinclair/typebox";
import { Nullable, StringEnum, UnixSeconds } from "../schemas.ts";
import { defineContract } from "./contract.ts";
import { ActionSchema, CauseBriefSchema, DiagnosisLevelSchema } from "./diagnosis.ts";
import { EventSchema, IncidentSchema } from "./monitoring.ts";

// GET /today: the spec names its fields (kpi, sites[], actions[], actions_total, incidents[],
// diagnosis[], changes[], causes[], results[], verify, events_24h[]); their inner structure is Svc's.

const Level = DiagnosisLevelSchema;
const count = (description: string) => Type.Integer({ minimum: 0, description });

const EffectRow = Type.Object(
  {
    host: Type.String(),
    task_id: Type.Integer(),
    task: Type.String({ description: "The task's title" }),
    done_at: UnixSeconds,
    metric: Type.String(),
    verdict: StringEnum(["improved", "worse", "flat", "wait", "nodata"]),
    before: Nullable(Type.Number()),
    after: Nullable(Type.Number()),
    change_pct: Nullable(Type.Number()),
    note: Type.String(),
  },
  { additionalProperties: false, description: "A fix effect as GET /effects/{host} measures it" },
);

export const getToday = defineContract({
  id: "get_today",
  method: "GET",
  path: "/today",
  scope: "read",
  cli: "today",
  summary: "The morning view of your account: what broke, what to do first, whether your fixes helped",
  description:
    "Across the sites of your account. Sites, diagnosis and causes come most severe first (as GET /diagnosis); \"since yesterday\" means the last 24 hours; results and verify cover tasks done in the last 30 days.",
  tags: ["Summaries"],
  response: Type.Object(
    {
      kpi: Type.Object(
        {
          sites: count("Sites monitored"),
          checked: count("Sites with at least one finished check"),
          avg_health: Nullable(Type.Number({ description: "Mean health score of the sites that have one, one decimal" })),
          critical: count("Sites at level critical"),
          bad: count("Sites at level bad"),
          warn: count("Sites at level warn"),
          ok: count("Sites at level ok"),
          unknown: count("Sites never checked nor probed"),
          down: count("Sites confirmed down now"),
          incidents_open: count("Open incidents"),
          open_tasks: count("Open tasks"),
          crit_tasks: count("Open tasks of level bad"),
          potential_gain: Type.Number({ description: "Sum of the open tasks' impact (rank points), one decimal" }),
          tasks_new_24h: count("Tasks first seen in the last 24 hours"),
          tasks_fixed_24h: count("Tasks done in the last 24 hours"),
          improved_30d: count("Fixes of the last 30 days whose metric improved"),
          worse_30d: count("Fixes of the last 30 days whose metric got worse"),
        },
        { additionalProperties: false, description: "The account's figures" },
      ),
      sites: Type.Array(
        Type.Object(
          {
            host: Type.String(),
            level: Level,
            health: Nullable(Type.Integer()),
            rank: Nullable(Type.Integer()),
            rank_delta: Nullable(Type.Integer({ description: "Against the check before the latest" })),
            online: Nullable(Type.Boolean({ description: "null before the first probe" })),
            open_tasks: count("Open tasks"),
            crit_tasks: count("Open tasks of level bad"),
            root_cause: Nullable(Type.String({ description: "The root cause's rule code" })),
          },
          { additionalProperties: false },
        ),
        { description: "State per site, most severe first" },
      ),
      actions: Type.Array(Type.Object({ host: Type.String(), ...ActionSchema.properties }, { additionalProperties: false }), {
        description: "The first 10 actions across the sites: the actions answering a root cause (sites most severe first), then open tasks by rank points per effort",
      }),
      actions_total: count("All actions of the list actions is the head of"),
      incidents: Type.Array(IncidentSchema, { description: "Open incidents, newest first" }),
      diagnosis: Type.Array(
        Type.Object({ host: Type.String(), level: Level, health: Nullable(Type.Integer()), root_cause: Nullable(CauseBriefSchema) }, { additionalProperties: false }),
        { description: "Sites whose level is worse than ok (critical, bad, warn)" },
      ),
      changes: Type.Array(
        Type.Object(
          {
            host: Type.String(),
            kind: StringEnum(["rank", "task_new", "task_fixed"]),
            title: Type.String(),
            from: Nullable(Type.Integer({ description: "The rank before (kind rank)" })),
            to: Nullable(Type.Integer({ description: "The rank after (kind rank)" })),
            at: UnixSeconds,
          },
          { additionalProperties: false },
        ),
        { description: "Since yesterday (the last 24 hours), newest first: rank changes of checks, new tasks, tasks done" },
      ),
      causes: Type.Array(Type.Object({ host: Type.String(), ...CauseBriefSchema.properties }, { additionalProperties: false }), { description: "Each site's root cause, most severe site first" }),
      results: Type.Array(EffectRow, { description: "Fix effects with a verdict (improved, worse, flat, nodata) of tasks done in the last 30 days, newest first, at most 20" }),
      verify: Type.Object(
        {
          total: count("Tasks done in the last 30 days whose effect is still to be judged"),
          tasks: Type.Array(
            Type.Object(
              { host: Type.String(), task_id: Type.Integer(), task: Type.String(), metric: Type.String(), done_at: UnixSeconds, note: Type.String({ description: "When the verdict can come" }) },
              { additionalProperties: false },
            ),
            { description: "At most 20, newest done first" },
          ),
        },
        { additionalProperties: false, description: "Done tasks waiting for their verdict (verdict wait in GET /effects/{host})" },
      ),
      events_24h: Type.Array(EventSchema, { description: "The event feed of the last 24 hours, newest first, at most 50" }),
    },
    { additionalProperties: false },
  ),
});
