"""pytest plugin for scripts/s3-compat.sh: writes one JSON line per test (its outcome and feature markers)
to $S3COMPAT_RESULTS, from the controlling process only (with pytest-xdist the workers' reports reach it)."""
import json
import os

_markers = set()


def pytest_configure(config):
    for line in config.getini("markers"):
        _markers.add(line.split(":", 1)[0].split("(", 1)[0].strip())


def _write(report, outcome):
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return
    marks = sorted(k for k in report.keywords if k in _markers)
    with open(os.environ["S3COMPAT_RESULTS"], "a") as f:
        f.write(json.dumps({"test": report.nodeid, "outcome": outcome, "markers": marks}) + "\n")


def pytest_runtest_logreport(report):
    if report.when == "call":
        _write(report, "skipped" if report.skipped else report.outcome)
    elif report.when == "setup" and not report.passed:
        _write(report, "skipped" if report.skipped else "failed")
    elif report.when == "teardown" and report.failed:
        _write(report, "teardown-error")
