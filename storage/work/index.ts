// Work and what it emits: jobs and their outbox, leaders, events, webhooks and their deliveries.
export { LeadersRepo } from "./leaders-repo.ts";
export { OutboxRepo } from "./outbox-repo.ts";
export { WebhooksRepo, type WebhookRow, type DeliveryRow, type DeliveryState, type DeliveryUpdate, type AttemptRow, type NewWebhook, type RoutedDelivery, type DueBatch, type PlannedBatch, type BatchOutcome, type SettledAttempt } from "./webhooks-repo.ts";
export { JobsRepo, type OperatorView, type JobRow, type NewJob, type JobState, type JobKindName, type AttemptFailure, type RetryRule, type Settled, type Requeue, type OutboxMessage, type OutboxRow, type LeaseOutcome, type StaleWhy } from "./jobs-repo.ts";
export { EventsRepo, EVENT_TYPES, type NewEvent, type EventRecord, type EventFilter, type EventLevel, type EventType } from "./events-repo.ts";
