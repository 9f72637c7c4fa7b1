#!/usr/bin/env python3
"""Summarises the results file of scripts/s3-compat.sh: passed / failed / skipped, then the failures grouped
by feature marker (tests without one: by the first words of their name). Usage: s3compat_summary.py RESULTS"""
import collections
import json
import sys

final = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    name = r["test"].split("::")[-1]
    prev = final.get(name)
    # a test that passed its call but failed its teardown counts as failed
    if prev is None or r["outcome"] in ("failed", "teardown-error"):
        final[name] = r
counts = collections.Counter("failed" if r["outcome"] == "teardown-error" else r["outcome"] for r in final.values())
print("with a result: passed %d, failed %d, skipped %d (of %d tests; a test whose worker was killed by the"
      " timeout may have none: pytest's own summary above counts it as failed)"
      % (counts["passed"], counts["failed"], counts["skipped"], len(final)))


def group(name, r):
    features = [m for m in r["markers"] if not m.startswith("fails_")]
    if features:
        return "marker " + ",".join(features)
    words = name[len("test_"):].split("_")
    return "name " + "_".join(words[:2])


failed = collections.defaultdict(list)
passed = collections.Counter()
for name, r in final.items():
    if r["outcome"] in ("failed", "teardown-error"):
        failed[group(name, r)].append(name)
    elif r["outcome"] == "passed":
        passed[group(name, r)] += 1
print("\nfailures by group (failed / passed in the group):")
for g, names in sorted(failed.items(), key=lambda kv: (-len(kv[1]), kv[0])):
    print("  %-40s %4d / %d" % (g, len(names), passed[g]))
if "-v" in sys.argv:
    for g, names in sorted(failed.items()):
        print("\n[%s]" % g)
        for n in sorted(names):
            print("  " + n)
