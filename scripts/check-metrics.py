#!/usr/bin/env python3
"""Parses Prometheus text exposition from stdin with prometheus_client's own parser and prints one
line per sample: `name{label="v",...} value`, sorted. Exits 1 (with the parser's message) when the
text does not parse. Used by DashboardIT to check a node's /metrics with a real Prometheus parser."""
import sys
from prometheus_client.parser import text_string_to_metric_families

try:
    families = list(text_string_to_metric_families(sys.stdin.read()))
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
