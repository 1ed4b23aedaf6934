"""Schemathesis hooks for fuzzing Svc (loaded through SCHEMATHESIS_HOOKS by test/harness/schemathesis.ts).

- The `host` string format (Svc's own: a domain, an address, an optional port) draws from real
  host names, so positive cases reach the handlers instead of stopping at bad_host.
- What the spec shares among all users (reports, check history, crawls by domain; the document
  marks those operations `x-shared`) is not an object-level authorization bypass when the other
  account reads it.
- The fuzzing keys are never revoked: DELETE /keys/{id} for one of them is sent for an id nobody
  has instead (a key may revoke itself, which would end the run for that identity).
"""

import os

import schemathesis
from hypothesis import strategies as st
from schemathesis.openapi.checks import ObjectLevelAuthorizationViolation

HOSTS = ["example.com", "www.example.org", "shop.example.net", "xn--bcher-kva.example", "example.com:8443", "203.0.113.7"]
schemathesis.openapi.format("host", st.sampled_from(HOSTS))

PROTECTED_KEY_IDS = {int(x) for x in os.environ.get("SVC_FUZZ_PROTECTED_KEY_IDS", "").split(",") if x}
UNUSED_KEY_ID = 2_000_000_000


@schemathesis.hook
def before_call(ctx, case, **kwargs):
    if case.method.upper() == "DELETE" and case.operation.path == "/keys/{id}":
        value = (case.path_parameters or {}).get("id")
        try:
            protected = int(value) in PROTECTED_KEY_IDS
        except (TypeError, ValueError):
            protected = False
        if protected:
            case.path_parameters["id"] = UNUSED_KEY_ID


@schemathesis.hook
def filter_failure(ctx, failure, case, response):
    if isinstance(failure, ObjectLevelAuthorizationViolation) and case.operation.definition.raw.get("x-shared") is True:
        return False
    return True
