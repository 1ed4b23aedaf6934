import { Type } from "@sinclair/typebox";
import type { RunRow, StoredReport } from "../../storage/index.ts";
import { Nullable, StringEnum, UnixSeconds } from "../schemas.ts";

/** A run's report, as the scheduler stored it (its one type is storage's StoredReport). */
export function storedReport(run: RunRow): StoredReport {
  return run.report;
}

export const ReportItemSchema = Type.Object(
  {
    code: Type.String(),
    title: Type.String(),
    group: Type.String({ description: "Display group (task group)" }),
    rank_group: Type.String(),
    level: StringEnum(["bad", "warn", "info"], { description: "Task level when failing" }),
    status: StringEnum(["pass", "warn", "fail", "na"]),
    score: Nullable(Type.Number({ minimum: 0, maximum: 1 })),
    value: Type.Union([Type.String(), Type.Number(), Type.Null()]),
    detail: Type.String(),
    pages: Type.Array(Type.String(), { description: "Failing pages (at most 20)" }),
    weight: Type.Number(),
    gain: Type.Number({ description: "Rank points gained if this check alone passed" }),
  },
  { additionalProperties: false },
);

const RankSchema = Type.Object(
  {
    value: Type.Integer({ minimum: 1, maximum: 100 }),
    label: StringEnum(["bad", "poor", "fair", "good", "excellent"]),
    color: Type.String(),
    groups: Type.Array(
      Type.Object({ id: Type.String(), weight: Type.Number(), score: Nullable(Type.Number()), checks: Type.Integer() }, { additionalProperties: false }),
    ),
    caps: Type.Array(Type.Object({ code: Type.String(), cap: Type.Integer(), title: Type.String() }, { additionalProperties: false })),
    unconfirmed: Type.Optional(
      Type.Array(Type.Object({ code: Type.String(), cap: Type.Integer(), title: Type.String() }, { additionalProperties: false }), {
        description: "Severe failures seen once but not on the second look: their checks fail, the rank is not capped by them",
      }),
    ),
  },
  { additionalProperties: false },
);

export const ReportSchema = Type.Object(
  {
    host: Type.String(),
    checked_at: UnixSeconds,
    phase: StringEnum(["done", "running"], {
      description: "done: this is the host's latest word; running: a newer analysis or crawl of the host is queued or running, this report will be replaced when it ends",
    }),
    run: Type.Integer({ description: "The run's number (as in /history and /changes)" }),
    items: Type.Array(ReportItemSchema),
    rank: RankSchema,
    tech: Type.Array(Type.String()),
    version: Type.Integer(),
  },
  { additionalProperties: false },
);

/** A run as GET /report/{host} (and GET /analyze) shows it; `running` when a newer check of the host is under way. */
export function renderReport(run: RunRow, running: boolean) {
  const r = storedReport(run);
  return {
    host: run.host,
    checked_at: run.checked_at,
    phase: running ? ("running" as const) : ("done" as const),
    run: run.id,
    items: r.items,
    rank: { value: run.rank, label: run.label, color: run.color, groups: r.groups, caps: r.caps, ...unconfirmedOf(r) },
    tech: r.tech,
    version: r.version,
  };
}

/** The report's unconfirmed caps with their checks' titles; nothing for reports stored before confirmation. */
function unconfirmedOf(r: StoredReport): { unconfirmed?: { code: string; cap: number; title: string }[] } {
  if (r.unconfirmed === undefined) return {};
  const titles = new Map(r.items.map((i) => [i.code, i.title]));
  return { unconfirmed: r.unconfirmed.map((u) => ({ code: u.code, cap: u.cap, title: titles.get(u.code) ?? u.code })) };
}
