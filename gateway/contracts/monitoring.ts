import { Type } from "@sinclair/typebox";
import { HostParams, HostString, Nullable, PageEnvelope, StringEnum, UnixSeconds, pagedQuery } from "../schemas.ts";
import { EVENT_KINDS, WEBHOOK_EVENT_TYPES } from "../../analyzer/index.ts";
import { defineContract } from "./contract.ts";

/** The spec's webhook event types: every event has one. */
const EVENT_TYPE_NAMES = WEBHOOK_EVENT_TYPES;
const EventLevel = StringEnum(["good", "warn", "bad", "info"]);

export const EventSchema = Type.Object(
  {
    id: Type.Integer({ description: "Increasing: poll with after_id set to the largest id seen" }),
    type: StringEnum([...EVENT_TYPE_NAMES], { description: "The webhook event type it belongs to" }),
    kind: Type.String({ description: `What happened within the type (the event catalogue, docs/monitoring.md): ${EVENT_KINDS.join(", ")}` }),
    level: EventLevel,
    host: Nullable(Type.String()),
    text: Type.String({ description: "The event said to a person" }),
    created: UnixSeconds,
    data: Type.Object({}, { additionalProperties: true, description: "The event's facts (ids, ranks, causes), by kind" }),
  },
  { additionalProperties: false },
);

export const listEvents = defineContract({
  id: "list_events",
  method: "GET",
  path: "/events",
  scope: "read",
  cli: "events",
  summary: "The event feed of your sites (newest first; with after_id, oldest first after it)",
  description:
    "Events of the sites of your account. Without after_id the newest come first; with after_id only events with a larger id, oldest first, so a poller keeps the last id it saw and never skips or repeats an event (ids commit in order, even with several processes writing). ETag and If-None-Match make an unchanged poll a 304.",
  tags: ["Events"],
  pageMax: 200,
  query: pagedQuery(200, {
    type: Type.Optional(StringEnum([...EVENT_TYPE_NAMES])),
    level: Type.Optional(EventLevel),
    host: Type.Optional(HostString),
    days: Type.Optional(Type.Integer({ minimum: 1, maximum: 365, description: "Only events of the last days" })),
    after_id: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: "Only events with a larger id (the polling cursor)" })),
  }),
  response: Type.Object({ total: Type.Integer({ minimum: 0 }), events: Type.Array(EventSchema), page: PageEnvelope }, { additionalProperties: false }),
});

export const IncidentSchema = Type.Object(
  {
    id: Type.Integer(),
    host: Type.String(),
    kind: StringEnum(["down", "degraded", "certificate", "noindex", "robots"]),
    title: Type.String(),
    cause: Type.String({ description: "What the confirming probes saw (e.g. connect: ECONNREFUSED, http 503, timeout)" }),
    status: StringEnum(["open", "closed"]),
    first_seen: UnixSeconds,
    resolved_at: Nullable(UnixSeconds),
    duration: Type.Integer({ minimum: 0, description: "Seconds from first_seen to resolved_at (or to now while open)" }),
  },
  { additionalProperties: false },
);

const ProbeWindowSchema = Type.Object(
  { probes: Type.Integer({ minimum: 0 }), failed: Type.Integer({ minimum: 0 }), avg_total_ms: Nullable(Type.Number({ minimum: 0 })) },
  { additionalProperties: false },
);

export const getUptime = defineContract({
  id: "get_uptime",
  method: "GET",
  path: "/uptime/{host}",
  scope: "read",
  cli: "uptime",
  summary: "Availability of one of your sites: state, percentages over 24 h, 7 and 30 days, incidents",
  description:
    "up is true while the last confirmed state is up or degraded, false while a confirmed down lasts, and null before the first probe. A single failed probe is only a suspicion: up stays true until a second probe confirms it (from another crawler node when several run). Percentages are of time: 100 × (1 − seconds down ÷ seconds observed) within the window, null before the first probe.",
  tags: ["Monitoring"],
  errors: ["bad_host", "not_found"],
  params: HostParams,
  response: Type.Object(
    {
      host: Type.String(),
      up: Nullable(Type.Boolean()),
      state: StringEnum(["unknown", "up", "suspect", "down", "degraded"], { description: "suspect: a failed probe awaits its confirmation" }),
      since: Nullable(UnixSeconds),
      interval_min: Type.Integer({ minimum: 1 }),
      last_check: Nullable(UnixSeconds),
      last_status: Nullable(Type.Integer()),
      last_timings: Nullable(
        Type.Object(
          { dns_ms: Type.Number(), connect_ms: Type.Number(), tls_ms: Type.Number(), ttfb_ms: Type.Number(), total_ms: Type.Number() },
          {
            additionalProperties: false,
            description:
              "An extension: the latest probe's timings in ms, each phase apart (DNS; TCP connect; TLS handshake, 0 for http://; time to the first byte of the final answer, its connection included; total from DNS to the end of the body read) of its first connection; a probe opens a connection of its own, as a new visitor would. Null before the first probe.",
          },
        ),
      ),
      uptime_24h: Nullable(Type.Number({ minimum: 0, maximum: 100 })),
      uptime_7d: Nullable(Type.Number({ minimum: 0, maximum: 100 })),
      uptime_30d: Nullable(Type.Number({ minimum: 0, maximum: 100 })),
      probes: Type.Object(
        { last_24h: ProbeWindowSchema, last_7d: ProbeWindowSchema },
        {
          additionalProperties: false,
          description:
            "An extension: the probes behind the figures, in the last 24 hours or 7 days to the second, the current hour included (hourly and daily rollups and the raw probes at the edges in the distributed mode): how many ran, how many failed (a failure of a node that suspected itself is left out), and the mean total time of those that succeeded.",
        },
      ),
      incidents: Type.Array(IncidentSchema),
    },
    { additionalProperties: false },
  ),
});

export const listIncidents = defineContract({
  id: "list_incidents",
  method: "GET",
  path: "/incidents",
  scope: "read",
  cli: "incidents",
  summary: "Incidents of your sites (newest first)",
  tags: ["Monitoring"],
  pageMax: 200,
  query: pagedQuery(200, {
    host: Type.Optional(HostString),
    days: Type.Integer({ minimum: 1, maximum: 90, default: 14, description: "Incidents that began or were open within the last days" }),
    status: StringEnum(["all", "open", "closed"], { default: "all" }),
  }),
  response: Type.Object(
    { days: Type.Integer(), host: Nullable(Type.String()), incidents: Type.Array(IncidentSchema), page: PageEnvelope },
    { additionalProperties: false },
  ),
});
