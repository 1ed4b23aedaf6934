"""Schemathesis hooks for fuzzing Svc (loaded through SCHEMATHESIS_HOOKS by test/harness/schemathesis.ts).

- The `host` string format (Svc's own: a domain, an address, an optional port) draws from real
  host names, so positive cases reach the handlers instead of stopping at bad_host.
- What the spec shares among all users (reports, check history, crawls by domain; the document
  marks those operations `x-shared`) is not an object-level authorization bypass when the other
  account reads it.
- The fuzzing keys are never revoked: DELETE /keys/{id} for one of them is sent for an id nobody
  has instead (a key may revoke itself, which would end the run for that identity).
- Hostile values the trial found 5xx with (issue 32): every 7th call gets U+0000 in its first string
  (query or body) and every 11th body gets one field nested 40 levels deep. The checks hold them to
  the contract: 400 (bad_param naming the field, bad_request too_deep), never a server error.
"""

import os

import schemathesis
from hypothesis import strategies as st
from schemathesis.openapi.checks import ObjectLevelAuthorizationViolation

HOSTS = ["example.com", "www.example.org", "shop.example.net", "xn--bcher-kva.example", "example.com:8443", "203.0.113.7"]
schemathesis.openapi.format("host", st.sampled_from(HOSTS))

PROTECTED_KEY_IDS = {int(x) for x in os.environ.get("SVC_FUZZ_PROTECTED_KEY_IDS", "").split(",") if x}
UNUSED_KEY_ID = 2_000_000_000


NUL_EVERY = 7
DEEP_EVERY = 11
DEEP_LEVELS = 40
_calls = {"n": 0}


def _with_nul(value):
    """The value with U+0000 inside its first string (depth first); None when it holds none."""
    if isinstance(value, str):
        return value[:1] + "\x00" + value[1:]
    if isinstance(value, dict):
        for key, item in value.items():
            changed = _with_nul(item)
            if changed is not None:
                return {**value, key: changed}
    if isinstance(value, list):
        for i, item in enumerate(value):
            changed = _with_nul(item)
            if changed is not None:
                return value[:i] + [changed] + value[i + 1 :]
    return None


def _hostile(case):
    _calls["n"] += 1
    n = _calls["n"]
    if n % NUL_EVERY == 0:
        for part in ("query", "body"):
            changed = _with_nul(getattr(case, part, None))
            if changed is not None:
                setattr(case, part, changed)
                return
    if n % DEEP_EVERY == 0 and isinstance(case.body, dict) and case.body:
        key = next(iter(case.body))
        deep = "x"
        for _ in range(DEEP_LEVELS):
            deep = [deep]
        case.body = {**case.body, key: deep}


@schemathesis.hook
def before_call(ctx, case, **kwargs):
    _hostile(case)
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
