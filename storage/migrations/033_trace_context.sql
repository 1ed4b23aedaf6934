-- W3C trace context of the work a request caused (docs/operations.md, "Tracing"): a job keeps the
-- traceparent (and tracestate) of the call that created it, and every outbox message of the job
-- carries it to the bus, so that an attempt published again later (a retry, a lapsed lease) still
-- belongs to the request's trace. NULL for work no request caused (planned re-checks).
ALTER TABLE jobs ADD COLUMN traceparent text;
ALTER TABLE jobs ADD COLUMN tracestate text;
ALTER TABLE outbox ADD COLUMN traceparent text;
ALTER TABLE outbox ADD COLUMN tracestate text;
