#!/usr/bin/env python3
"""How long threads waited for a core, from `perf sched timehist` output (issue #26).

    perf sched record -a -o /tmp/sched.data -- sleep 12      # while the load runs
    perf sched timehist -i /tmp/sched.data > /tmp/timehist.txt
    scripts/sched-delays.py /tmp/timehist.txt webflux-http-ep sim-node-epoll open-loop-io

For each thread-name prefix given: how often its threads were switched in, their scheduling delay (runnable, waiting
for a core) at p50 / p90 / p99 / p99.9 / max, how many delays passed 0.5 / 1 / 2 ms, and which tasks held that
core during its delays over 0.5 ms. Then the busiest tasks of the whole recording (run time, switches).
"""
import collections
import re
import sys


def rows(path):
    """(end time s, cpu, task, wait ms, scheduling delay ms, run ms) per switch-out line."""
    for line in open(path):
        parts = line.split()
        if len(parts) < 6 or not re.match(r"^\d+\.\d+$", parts[0]):
            continue
        try:
            run, delay, wait = float(parts[-1]), float(parts[-2]), float(parts[-3])
        except ValueError:
            continue
        yield float(parts[0]), parts[1], " ".join(parts[2:-3]), wait, delay, run


def percentile(values, q):
    return values[min(len(values) - 1, int(q * len(values)))]


def main(path, prefixes):
    switches = list(rows(path))
    by_cpu = collections.defaultdict(list)
    for row in switches:
        by_cpu[row[1]].append(row)
    for prefix in prefixes:
        mine = [r for r in switches if r[2].startswith(prefix)]
        if not mine:
            print(f"{prefix}: no switches")
            continue
        delays = sorted(r[4] for r in mine)
        print(f"{prefix}: {len(mine)} switches in; scheduling delay ms p50 {percentile(delays, .5):.3f}"
              f" p90 {percentile(delays, .9):.3f} p99 {percentile(delays, .99):.3f}"
              f" p99.9 {percentile(delays, .999):.3f} max {delays[-1]:.3f}; over 0.5 / 1 / 2 ms:"
              f" {sum(d > .5 for d in delays)} / {sum(d > 1 for d in delays)} / {sum(d > 2 for d in delays)}")
        held = collections.Counter()
        for end, cpu, task, _, delay, run in mine:
            if delay <= .5:
                continue
            waited_to = end - run / 1000
            waited_from = waited_to - delay / 1000
            for other in by_cpu[cpu]:
                other_end = other[0]
                other_start = other_end - other[5] / 1000
                overlap = min(other_end, waited_to) - max(other_start, waited_from)
                if overlap > 0 and other[2] != task:
                    held[re.sub(r"\[[\d/]+\]", "", other[2])] += overlap * 1000
        top = ", ".join(f"{name} {ms:.0f} ms" for name, ms in held.most_common(6))
        print(f"  held its core meanwhile: {top}")
    busy = collections.Counter()
    count = collections.Counter()
    for _, _, task, _, _, run in switches:
        busy[task] += run
        count[task] += 1
    print("busiest tasks (run ms, switches):")
    for task, ms in busy.most_common(12):
        print(f"  {ms:9.1f} {count[task]:7d}  {task}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2:] or ["webflux-http-ep"])
