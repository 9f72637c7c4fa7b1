#!/usr/bin/env python3
"""Parses Prometheus text exposition from stdin with prometheus_client's own parser and prints one
line per sample: `name{label="v",...} value`, sorted. Exits 1 (with the parser's message) when the
text does not parse, 2 when prometheus_client cannot be imported. With --version, prints the
parser's version instead. Used by DashboardIT to check a node's /metrics with a real Prometheus
parser. prometheus_client is imported as installed, or else from the virtual environment that
scripts/install-test-tools.sh may have made at ${XDG_CACHE_HOME:-~/.cache}/geoblocks/metrics-venv."""
import glob
import os
import sys


def import_parser():
    try:
        from prometheus_client.parser import text_string_to_metric_families
        return text_string_to_metric_families
    except ImportError:
        cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        venv = os.path.join(cache, "geoblocks", "metrics-venv")
        sys.path.extend(glob.glob(os.path.join(venv, "lib", "python%d.%d" % sys.version_info[:2], "site-packages")))
        from prometheus_client.parser import text_string_to_metric_families
        return text_string_to_metric_families


try:
    parse = import_parser()
except ImportError as e:
    print("prometheus_client not importable (run scripts/install-test-tools.sh): %s" % e)
    sys.exit(2)
if sys.argv[1:] == ["--version"]:
    import prometheus_client
    import importlib.metadata
    try:
        version = importlib.metadata.version("prometheus_client")
    except importlib.metadata.PackageNotFoundError:  # the venv's metadata is not on the default path
        version = "(version unknown)"
    print("prometheus_client %s from %s" % (version, os.path.dirname(prometheus_client.__file__)))
    sys.exit(0)
try:
    families = list(parse(sys.stdin.read()))
except Exception as e:  # the parser raises ValueError and friends on bad input
    print("parse error: %s" % e)
    sys.exit(1)
lines = []
for f in families:
    lines.append("# family %s %s" % (f.name, f.type))
    for s in f.samples:
        labels = ",".join('%s="%s"' % (k, v) for k, v in sorted(s.labels.items()))
        lines.append("%s{%s} %r" % (s.name, labels, s.value))
print("\n".join(sorted(lines)))
