#!/bin/sh
# `node.jar bench storage` next to fio with the same parameters, as one markdown table (docs/benchmarks.md).
# fio: psync engine, fdatasync after every write, no O_DIRECT, no page-cache invalidation (our reads
# after writes hit the page cache too), one file per job of ops*bs bytes, ops = min(64 MiB / bs, 1024).
# Usage: scripts/bench-storage-vs-fio.sh DIR [node.jar]   (needs fio and python3)
set -e
dir=${1:?usage: $0 DIR [node.jar]}
jar=${2:-application/target/node.jar}
mkdir -p "$dir/fio"
out=$(mktemp -d)
java -jar "$jar" bench storage --data "$dir" --json > "$out/ours.json"
for bs in 4k 64k 1m; do
  case $bs in 4k) size=4m;; *) size=64m;; esac
  for jobs in 1 4; do
    for rw in write read randwrite randread; do
      fio --name=b --directory="$dir/fio" --filename_format='bench.$jobnum' --ioengine=psync --bs=$bs --size=$size \
          --numjobs=$jobs --rw=$rw --fdatasync=1 --direct=0 --invalidate=0 --group_reporting \
          --output-format=json > "$out/fio-$bs-$jobs-$rw.json"
    done
    rm -f "$dir"/fio/bench.*
  done
done
python3 - "$out" <<'PY'
import json, sys, os
out = sys.argv[1]
ours = json.load(open(os.path.join(out, "ours.json")))
runs = {(r["target"], r["block_size"], r["streams"], r["workload"]): r for r in ours["runs"]}
names = {4096: "4k", 65536: "64k", 1048576: "1m"}
fio_rw = {"seq_write": "write", "seq_read": "read", "rand_write": "randwrite", "rand_read": "randread"}
print("headline:", {k: round(ours[k], 3) for k in ["seq_write_mbps", "seq_read_mbps", "rand_write_iops",
      "rand_read_iops", "write_p99_ms", "read_p99_ms"]})
print("| block | streams | workload | blockstore MB/s | IOPS | p99 ms | raw MB/s | IOPS | p99 ms | fio MB/s | IOPS | p99 ms |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
for bs in [4096, 65536, 1048576]:
    for st in [1, 4]:
        for w in ["seq_write", "seq_read", "rand_write", "rand_read"]:
            b = runs[("blockstore", bs, st, w)]
            r = runs[("raw", bs, st, w)]
            j = json.load(open(os.path.join(out, "fio-%s-%d-%s.json" % (names[bs], st, fio_rw[w]))))["jobs"][0]
            op = j["write"] if "write" in fio_rw[w] else j["read"]
            p99 = op["clat_ns"]["percentile"]["99.000000"] / 1e6
            if "write" in fio_rw[w]:  # fio times the fdatasync apart from the write: add its p99
                p99 += j["sync"]["lat_ns"]["percentile"]["99.000000"] / 1e6
            print("| %s | %d | %s | %.1f | %.0f | %.3f | %.1f | %.0f | %.3f | %.1f | %.0f | %.3f |" % (
                names[bs], st, w, b["mbps"], b["iops"], b["p99_ms"], r["mbps"], r["iops"], r["p99_ms"],
                op["bw_bytes"] / 1e6, op["iops"], p99))
PY
rm -rf "$out"
