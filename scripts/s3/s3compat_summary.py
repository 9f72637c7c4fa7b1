#!/usr/bin/env python3
"""Summarises the results file of scripts/s3-compat.sh: passed / failed / skipped, then the failures grouped
by feature marker (tests without one: by the first words of their name).

Usage: s3compat_summary.py RESULTS [-v]
       s3compat_summary.py RESULTS --reasons REASONS.tsv --markdown [--log PYTEST_LOG]

With --reasons and --markdown it prints every failing test under its reason, as Markdown for docs/s3.md:
the reasons file (scripts/s3/s3compat_reasons.tsv) maps fnmatch patterns on test names to reason ids and
each id to its kind and text; a failing test no pattern matches is listed under "Unclassified". --log
adds the tests whose xdist worker was killed while running them (they have no line in RESULTS), matched
by the pattern @crashed."""
import argparse
import collections
import fnmatch
import json
import re

KINDS = {
    "not-implemented": "not implemented",
    "defect": "gateway defect (to fix)",
    "different": "intentionally different",
    "artifact": "test artifact",
    "flaky": "flaky under load",
}
CRASHED = "@crashed"


def load_results(path):
    """The final outcome of each test by name (a test that passed its call but failed its teardown failed)."""
    final = {}
    for line in open(path):
        r = json.loads(line)
        name = r["test"].split("::")[-1]
        prev = final.get(name)
        if prev is None or r["outcome"] in ("failed", "teardown-error"):
            final[name] = r
    return final


def crashed_tests(log_path):
    """Tests whose worker crashed (was killed by the timeout), from pytest's log."""
    out = []
    for line in open(log_path, errors="replace"):
        m = re.match(r"^worker '\S+' crashed while running '(?:.*::)?(test_\S+?)'\s*$", line)
        if m and m.group(1) not in out:
            out.append(m.group(1))
    return out


def load_reasons(path):
    """(patterns: [(glob, id)] in file order, reasons: {id: (kind, text)}) from the reasons file."""
    patterns, reasons, section = [], {}, None
    for n, raw in enumerate(open(path, encoding="utf-8"), 1):
        line = raw.rstrip("\n")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if line.strip() in ("[patterns]", "[reasons]"):
            section = line.strip()
            continue
        cols = line.split("\t")
        if section == "[patterns]" and len(cols) == 2:
            patterns.append((cols[0].strip(), cols[1].strip()))
        elif section == "[reasons]" and len(cols) == 3 and cols[1] in KINDS:
            if cols[0] in reasons:
                raise SystemExit("%s:%d: reason %s given twice" % (path, n, cols[0]))
            reasons[cols[0]] = (cols[1], cols[2].strip())
        else:
            raise SystemExit("%s:%d: not a line of %s: %r" % (path, n, section or "a section", line))
    unknown = sorted({r for _, r in patterns} - set(reasons))
    if unknown:
        raise SystemExit("%s: patterns name reasons that are not defined: %s" % (path, ", ".join(unknown)))
    return patterns, reasons


def glob_matches(name, glob):
    """fnmatch with only * and ? as wildcards: [ and ] are literal (test_copy_enc[sse-kms-...])."""
    escaped = "".join("[[]" if c == "[" else "[]]" if c == "]" else c for c in glob)
    return fnmatch.fnmatchcase(name, escaped)


def classify(name, crashed, patterns):
    """The reason id of a failing test, or None."""
    for glob, reason in patterns:
        if glob == CRASHED:
            if crashed:
                return reason
        elif not crashed and glob_matches(name, glob):
            return reason
    return None


def markdown(final, crashed, patterns, reasons):
    failed = sorted(n for n, r in final.items() if r["outcome"] in ("failed", "teardown-error"))
    # a worker killed in a test's teardown leaves a passed call behind: pytest counts the test failed, so do we
    failed = [n for n in failed if n not in crashed]
    by_reason = collections.defaultdict(list)
    for n in failed:
        by_reason[classify(n, False, patterns)].append(n)
    for n in sorted(crashed):
        by_reason[classify(n, True, patterns)].append(n)
    counts = collections.Counter("failed" if r["outcome"] == "teardown-error" else r["outcome"]
                                 for n, r in final.items() if n not in crashed)
    print("%d failing tests (%d with a failed result, %d whose worker the timeout killed); %d passed, %d skipped."
          % (len(failed) + len(crashed), len(failed), len(crashed), counts["passed"], counts["skipped"]))
    print()
    order = sorted((r for r in by_reason if r is not None),
                   key=lambda r: (list(KINDS).index(reasons[r][0]), -len(by_reason[r]), r))
    for r in order:
        kind, text = reasons[r]
        names = by_reason[r]
        print("#### %s: %s (%d)" % (KINDS[kind].capitalize(), r, len(names)))
        print()
        print(text)
        print()
        print(", ".join("`%s`" % n for n in names))
        print()
    if None in by_reason:
        names = by_reason[None]
        print("#### Unclassified (%d)" % len(names))
        print()
        print("No pattern of the reasons file matches these tests: find out why they fail and add them.")
        print()
        print(", ".join("`%s`" % n for n in names))
        print()
    else:
        print("Every failing test is classified.")


def summary(final, verbose):
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
    if verbose:
        for g, names in sorted(failed.items()):
            print("\n[%s]" % g)
            for n in sorted(names):
                print("  " + n)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results", help="results.jsonl written by scripts/s3/s3compat_plugin.py")
    ap.add_argument("-v", action="store_true", help="list the failing tests of each group")
    ap.add_argument("--reasons", help="the reasons file (scripts/s3/s3compat_reasons.tsv)")
    ap.add_argument("--markdown", action="store_true", help="print the failing tests under their reasons (needs --reasons)")
    ap.add_argument("--log", help="pytest's log, for the tests whose worker crashed")
    args = ap.parse_args()
    final = load_results(args.results)
    if args.markdown:
        if not args.reasons:
            ap.error("--markdown needs --reasons")
        patterns, reasons = load_reasons(args.reasons)
        markdown(final, crashed_tests(args.log) if args.log else [], patterns, reasons)
    else:
        summary(final, args.v)


if __name__ == "__main__":
    main()
