"""The pass/fail helpers of the tools/check_*.py scripts (dev-only)."""
import sys


def fail(message):
    """Prints the failed check and exits non-zero."""
    print(f"FAILED: {message}")
    sys.exit(1)


def check(condition, message):
    """Prints `ok: message`, or fails with it."""
    if not condition:
        fail(message)
    print(f"ok: {message}")
