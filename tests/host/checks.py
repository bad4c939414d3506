"""Shared by the host tier's Python checks: count checks, keep failures, report once at the end.

  from checks import check, finish
  check("what", condition, "detail shown when it fails")
  finish("name_check", "what passing means")   # exits 1 on a failure, else returns
"""
import sys

failures = []
counted = [0]


def check(what, cond, detail=""):
    """Counts one check; keeps `what: detail` as a failure when `cond` is false. Returns cond."""
    counted[0] += 1
    if not cond:
        failures.append(f"{what}" + (f": {detail}" if detail else ""))
    return cond


def finish(name, passed):
    """Prints every failure and the count; exits 1 on a failure, else prints `passed` and returns."""
    for f in failures:
        print("FAILED:", f)
    print(f"{name}: {counted[0]} checks, {len(failures)} failures")
    if failures:
        sys.exit(1)
    print(f"{name}: {passed}")
