import { Type } from "@sinclair/typebox";
import { HostParams, Nullable, PageEnvelope, StringEnum, UnixSeconds, pagedQuery } from "../schemas.ts";
import { defineContract } from "./contract.ts";

/** Longest note of a work history (characters). */
export const WORK_NOTE_MAX_CHARS = 2000;
/** At most this many entries of each list of a work history (newest first). */
export const WORK_LIST_MAX = 500;

export const recheckTask = defineContract({
  id: "recheck_task",
  method: "POST",
  path: "/tasks/{id}/recheck",
  scope: "run",
  cli: "tasks recheck",
  summary: "Re-check one task: is its check passing now?",
  description:
    "Re-runs only what the task's check reads (a report of the site younger than two minutes is reused instead: reused_fresh_report): a live DNS lookup for DNS checks, a TLS handshake for certificate checks, " +
    "a fetch of the home page for checks of the home page, fetches of the pages a page check failed on (one page: page; up to 10: pages), a fetch of robots.txt, its sitemaps and the home page for robots.txt and sitemap checks (robots), the whole analysis for the rest (browser metrics, the http/www twins, page checks failing on more than 10 pages); ran says which. " +
    "A narrow look stores no report: rank_to is then the last report's rank with the task's check replaced by the new result (the analyzer's rank model; the check's confirmed cap is lifted when it passes, no new cap is added). " +
    "outcome fixed: the check passes, an open task becomes done (done_at now); still: it fails, the task stays as it is. " +
    "A task whose check needs a whole crawl (recheck false) answers 422 unsupported, before anything is charged, with details.reason saying what only the crawl sees for that check; broken_internal and canonical_target are re-checked by a crawl subset (ran links) when the latest crawl's report lists every case and they are few (at most 10 broken targets linked from at most 10 pages; at most 10 pages with a bad canonical). " +
    "Every accepted re-check counts against the plan's daily re-checks (rechecks_per_day; 429 limit with Retry-After until the next UTC day), not against its daily checks. " +
    "When the run does not finish within the synchronous wait, 409 not_ready names its job; ask again when it is done (the fresh report is then reused). " +
    "before and after are the check's own value and status in the report before the re-check and in the re-check's report; rank_from and rank_to their ranks; " +
    "new_tasks counts the tasks the re-check's report opened (its run's task.new events; a check unmeasured before, na, that fails now is no new task); after a narrow look, the checks of the task's family that fail on its facts and passed in the last report.",
  tags: ["Tasks"],
  errors: ["not_found", "unsupported", "limit", "not_ready"],
  params: Type.Object({ id: Type.Integer({ minimum: 1, description: "The task's id" }) }, { additionalProperties: false }),
  response: Type.Object(
    {
      task: Type.Object({ id: Type.Integer(), status: StringEnum(["open", "done", "ignored"]) }, { additionalProperties: false }),
      outcome: StringEnum(["fixed", "still"], { description: "fixed: the task's check passes now; still: it still fails (unsupported tasks answer 422)" }),
      outcome_label: Type.String({ description: "The outcome in words" }),
      before: Type.String({ description: "The check's value and status before the re-check, e.g. \"fail: 0 of 4 pages\"" }),
      after: Type.String({ description: "The check's value and status in the re-check's report" }),
      reused_fresh_report: Type.Boolean({ description: "A report younger than two minutes answered; nothing ran" }),
      rank_from: Type.Integer({ description: "The site's rank before the re-check" }),
      rank_to: Type.Integer({ description: "The site's rank in the re-check's report" }),
      new_tasks: Type.Integer({ minimum: 0, description: "Tasks the re-check's report opened; after a narrow look, the checks of the task's family that fail on its facts and passed in the last report" }),
      ran: StringEnum(["report", "dns", "tls", "page", "pages", "robots", "links", "analysis"], {
        description:
          "Extension: what answered. report: a report younger than two minutes, nothing ran; dns, tls, page: a narrow live look of that kind (the synchronous lane, no new report); pages: fetches of the 2 to 10 pages the check failed on; robots: a fetch of robots.txt, its sitemaps and the home page; links: a crawl subset (broken_internal: the pages that linked to the latest crawl's broken targets, then the targets still linked; canonical_target: the pages with a bad canonical, then the targets they name now; pages, robots and links run on a crawler node, the recheck work kind); analysis: the whole analysis (docs/followup.md has the table by check)",
      }),
    },
    { additionalProperties: false },
  ),
});

const Verdict = StringEnum(["improved", "worse", "flat", "wait", "nodata"]);

const FixEffectSchema = Type.Object(
  {
    task: Type.String({ description: "The task's title" }),
    task_id: Type.Integer({ description: "Extension: the task's id" }),
    done_at: UnixSeconds,
    metric: Type.String({ description: "What was measured: lcp_ms, fcp_ms, tbt_ms, cls, response_ms, uptime_pct, indexed_pages, clicks, position, or rank_group.<group> (docs/followup.md)" }),
    verdict: Verdict,
    before: Nullable(Type.Number({ description: "Median of the window before done_at; null without a measurement there" })),
    after: Nullable(Type.Number({ description: "Median of the window after the metric's wait; null until it has its measurements" })),
    change_pct: Nullable(Type.Number({ description: "(after − before) / |before| × 100, one decimal; null while either is missing or before is 0" })),
    band: Nullable(Type.Number({ description: "Extension: half-width of the noise band the change was judged against" })),
    wait_until: Nullable(UnixSeconds),
    note: Type.String(),
  },
  { additionalProperties: false },
);

export const getFixEffects = defineContract({
  id: "get_fix_effects",
  method: "GET",
  path: "/effects/{host}",
  scope: "read",
  cli: "effects",
  summary: "Whether your fixes helped: for each done task, the metric it should move, before and after",
  description:
    "Done tasks of the site, newest done_at first. Each is measured on the first metric of its check that has measurements (browser metrics, uptime, indexed pages, search clicks or positions), else on the score of its rank group; " +
    "each metric has its own wait after the fix and windows (docs/followup.md). The verdict compares the medians against a noise band estimated from the metric's own history before the fix (k × 1.4826 × MAD, with a floor). " +
    "wait_until (extension) is when a `wait` ends, null otherwise.",
  tags: ["Tasks"],
  errors: ["bad_host", "not_found"],
  pageMax: 200,
  params: HostParams,
  query: pagedQuery(200, {}),
  response: Type.Object(
    { host: Type.String(), effects: Type.Array(FixEffectSchema), page: PageEnvelope, verdicts: Type.String({ description: "The verdicts legend" }) },
    { additionalProperties: false },
  ),
});

const NoteSchema = Type.Object({ id: Type.Integer({ description: "Extension: the note's id" }), at: UnixSeconds, text: Type.String() }, { additionalProperties: false });

export const getWorkHistory = defineContract({
  id: "get_work_history",
  method: "GET",
  path: "/work/{host}",
  scope: "read",
  cli: "work",
  summary: "What was done on a site: fixed tasks, incidents and your notes of the last days",
  description:
    `fixed: tasks that became done within the days (closed_at: when), newest first. incidents: the site's incidents that began or were open within the days (as GET /incidents). notes: your notes (POST /work/{host}/notes). At most ${WORK_LIST_MAX} of each, newest first.`,
  tags: ["Tasks"],
  errors: ["bad_host", "not_found"],
  params: HostParams,
  query: Type.Object(
    { days: Type.Integer({ minimum: 1, maximum: 90, default: 30, description: "The last days, 1-90" }) },
    { additionalProperties: false },
  ),
  response: Type.Object(
    {
      host: Type.String(),
      days: Type.Integer(),
      fixed: Type.Array(
        Type.Object({ title: Type.String(), closed_at: UnixSeconds, task_id: Type.Integer({ description: "Extension: the task's id" }), code: Type.String({ description: "Extension: the task's check" }) }, { additionalProperties: false }),
      ),
      incidents: Type.Array(
        Type.Object(
          {
            title: Type.String(),
            first_seen: UnixSeconds,
            status: StringEnum(["open", "closed"]),
            kind: Type.String({ description: "Extension: down, degraded, certificate, noindex or robots" }),
            resolved_at: Nullable(UnixSeconds),
          },
          { additionalProperties: false },
        ),
      ),
      notes: Type.Array(NoteSchema),
    },
    { additionalProperties: false },
  ),
});

export const addWorkNote = defineContract({
  id: "add_work_note",
  method: "POST",
  path: "/work/{host}/notes",
  scope: "write",
  cli: "work note",
  additive: true,
  summary: "Write a note into a site's work history",
  description: `Extension of v1. The note (1-${WORK_NOTE_MAX_CHARS} characters) is stamped with the time it was written and shows in GET /work/{host}. A repeat with the same Idempotency-Key stores nothing more.`,
  tags: ["Tasks"],
  status: 201,
  errors: ["bad_host", "not_found", "bad_param"],
  params: HostParams,
  body: Type.Object({ text: Type.String({ minLength: 1, maxLength: WORK_NOTE_MAX_CHARS, description: "The note" }) }, { additionalProperties: false }),
  response: Type.Object({ host: Type.String(), note: NoteSchema }, { additionalProperties: false }),
});
