#!/usr/bin/env python3
"""Idle CPU of 4-node local clusters (docs/operations.md, "Idle cost"); not part of mvn verify.

  scripts/idle-cpu.py LABEL:JAR:CONF [LABEL:JAR:CONF ...]

Starts one 4-node cluster per argument at once (server --config CONF, -Xmx256m; give each its own
ports in CONF), waits WARM s (default 60), reads process and per-thread CPU (utime + stime) from
/proc twice WIN s (default 60) apart, prints % of a core per node and seoul's threads (every
node's with ALLT=1), then stops the nodes. Data in /tmp/idle-cpu-LABEL."""
import os, sys, subprocess, time, shutil, re, collections
WARM = int(os.environ.get("WARM", "60")); WIN = int(os.environ.get("WIN", "60"))
HZ = os.sysconf("SC_CLK_TCK")
REGIONS = ["seoul", "dublin", "saopaulo", "mumbai"]
def stat(path):
    s = open(path).read(); comm = s[s.index("(")+1:s.rindex(")")]; f = s[s.rindex(")")+2:].split()
    return comm, int(f[11]) + int(f[12])
def threads(pid):
    out = {}
    for t in os.listdir(f"/proc/{pid}/task"):
        try: out[t] = stat(f"/proc/{pid}/task/{t}/stat")
        except Exception: pass
    return out
def cat(name):
    n = re.sub(r"[-_ ]?\d+$", "", name)
    return n
specs = [a.split(":") for a in sys.argv[1:]]
procs = {}
for label, jar, conf in specs:
    d = f"/tmp/idle-cpu-{label}"; shutil.rmtree(d, ignore_errors=True); os.makedirs(d)
    for r in REGIONS:
        log = open(f"{d}/{r}.log", "w")
        p = subprocess.Popen(["java", "-Xmx256m", "-jar", jar, "server", "--id", r, "--config", conf, "--data", f"{d}/{r}"],
                             stdout=log, stderr=subprocess.STDOUT)
        procs[(label, r)] = p
try:
    time.sleep(WARM)
    t0 = {k: (stat(f"/proc/{p.pid}/stat")[1], threads(p.pid)) for k, p in procs.items()}
    time.sleep(WIN)
    t1 = {k: (stat(f"/proc/{p.pid}/stat")[1], threads(p.pid)) for k, p in procs.items()}
    print(f"loadavg at end: {open('/proc/loadavg').read().strip()}; warm {WARM}s window {WIN}s")
    for label, _, _ in specs:
        row = []
        for r in REGIONS:
            a, b = t0[(label, r)][0], t1[(label, r)][0]
            row.append(f"{r} {100.0*(b-a)/HZ/WIN:.2f}%")
        print(label, " ".join(row))
        for r in REGIONS[:1] + REGIONS[1:] if os.environ.get("ALLT") else REGIONS[:1]:
            c = collections.Counter()
            th0, th1 = t0[(label, r)][1], t1[(label, r)][1]
            for t, (comm, v) in th1.items():
                c[cat(comm)] += v - th0.get(t, (comm, 0))[1]
            print(f"  {label} {r} per thread (1/{HZ} s over {WIN}s):", ", ".join(f"{k}={v}" for k, v in c.most_common() if v > 0))
finally:
    for p in procs.values(): p.terminate()
    for p in procs.values():
        try: p.wait(20)
        except Exception: p.kill()
