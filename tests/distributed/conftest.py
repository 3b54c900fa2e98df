"""Each test's outcome written down as it ends, for ``test_cluster.py``'s child pytest.

The child's JUnit report is written only when its session ends, and Ray can end the child's
process before that (see ``test_cluster.py``). With ``BITFLIP_TEST_OUTCOMES`` naming a file,
every collected count and test report of that session is appended there at once, one JSON
object a line; without it (every other run) these hooks do nothing.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from tests.distributed import OUTCOMES_ENV


def _write(record: dict[str, Any]) -> None:
    path = os.environ.get(OUTCOMES_ENV)
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(json.dumps(record) + "\n")


def pytest_collection_finish(session: pytest.Session) -> None:
    _write({"collected": len(session.items)})


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    # The call's outcome, and any setup or teardown that did not pass.
    if report.when == "call" or not report.passed:
        detail = ""
        if report.skipped and isinstance(report.longrepr, tuple):
            detail = str(report.longrepr[2])
        elif report.failed:
            detail = str(report.longrepr)[-3000:]
        _write({"test": report.nodeid, "when": report.when, "outcome": report.outcome,
                "detail": detail})  # fmt: skip
