"""Schemathesis hooks for scripts/fuzz-rest.sh (loaded through SCHEMATHESIS_HOOKS)."""
import re
import uuid

import schemathesis

VALID_KEY = re.compile(r"^[\x21-\x7e]{1,200}$")


@schemathesis.hook
def before_call(ctx, case, **kwargs):
    # The API answers a key reused with a different request 422 idempotency_key_reused (as the
    # IETF Idempotency-Key draft says), and generated keys repeat ("0", "00"…): a valid key gets a
    # fresh value per call, an invalid one stays for the negative tests.
    headers = case.headers or {}
    for name in list(headers):
        if name.lower() == "idempotency-key" and VALID_KEY.match(str(headers[name])):
            headers[name] = f"fuzz-{uuid.uuid4()}"


def _order_random_ints(value):
    if isinstance(value, dict):
        r = value.get("randomInt")
        if (
            isinstance(r, dict)
            and isinstance(r.get("min"), (int, float))
            and isinstance(r.get("max"), (int, float))
            and r["min"] > r["max"]
        ):
            r["min"], r["max"] = r["max"], r["min"]
        for v in value.values():
            _order_random_ints(v)
    elif isinstance(value, list):
        for v in value:
            _order_random_ints(v)


def _whole(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and v == int(v)


def _order_advisor_range(body):
    # the advisor's range: max above min (1..1000), which JSON Schema cannot compare either
    if not isinstance(body, dict) or "knob" not in body:
        return
    lo, hi = body.get("min"), body.get("max")
    if _whole(lo) and _whole(hi) and hi <= lo:
        lo, hi = int(lo), int(hi)
        lo, hi = hi, lo
        if hi == lo:
            lo, hi = (lo - 1, hi) if lo > 1 else (lo, hi + 1)
        body["min"], body["max"] = lo, hi


@schemathesis.hook
def map_body(ctx, body):
    # randomInt needs min <= max: JSON Schema cannot compare two fields, so the document states
    # it in words (and `x-constraint`) and generated bodies are put in order here.
    _order_random_ints(body)
    _order_advisor_range(body)
    return body


def _order_window(query):
    # compare's window: `to` after `from`, which JSON Schema cannot compare either. Both stay in
    # the document's 0..7200, so a swap never makes a bound the schema itself refuses.
    f, t = query.get("from"), query.get("to")
    if not (_int(f) and _int(t)) or t > f:
        return
    lo, hi = t, f
    if lo == hi:
        lo, hi = (lo - 1, hi) if lo > 0 else (lo, hi + 1)
    query["from"], query["to"] = lo, hi


def _int(v):
    return isinstance(v, int) and not isinstance(v, bool)


@schemathesis.hook
def map_query(ctx, query):
    if isinstance(query, dict):
        _order_window(query)
    return query
