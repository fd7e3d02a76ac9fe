#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# The NUMA checks, run inside the two-node guest that scripts/numa.sh
# boots (node 0: CPU 0, node 1: CPU 1). No timing is taken here.
#
# Usage: numa-guest.sh OUT TEST-BINARY PLUGIN [MUTANT-DIR]
#   OUT         a directory writable from the host: a log per run and
#               "results", one line per check: NAME PASS|FAIL [why]
#   MUTANT-DIR  NAME/librte_mempool_turbomem.so and NAME/run (the run
#               that must fail on it: hugetlbfs or nohuge), per mutant
#
# Runs, each a process of its own (test_turbomem_numa.c says what each
# asserts):
#   hugetlbfs  2 hugepages on node 0, 48 on node 1: a pool for socket 1
#              made on node 0, SOCKET_ID_ANY made on node 1, socket 0
#              too small for a pool
#   secondary  a secondary process checks the socket 1 pool of hugetlbfs
#   nohuge     the same two pools in --no-huge mode (the THP heap)
#   testpmd    dpdk-testpmd, net_null ports on socket 1, mbufs on
#              turbomem; testpmd-place: its socket 1 mbuf pool, per
#              /turbomem/info and its numa_maps (a secondary attached
#              to testpmd's net_null ports panics in 22.11's ethdev)
#   mutant-*   each mutant plugin on its run: must fail
set -uo pipefail

out=$1 bin=$2 plugin=$3 mutdir=${4:-}
echo "guest up: $(uname -r), nodes $(cat /sys/devices/system/node/online)" > "$out/started"
: > "$out/results"
cd /

result() { echo "$*" >> "$out/results"; echo "numa-guest: $*"; }

mnt=/dev/hugepages
mkdir -p "$mnt"
mount -t hugetlbfs -o pagesize=2M nodev "$mnt" || result setup FAIL "cannot mount hugetlbfs"
hp() { # hp NODE COUNT
	echo "$2" > "/sys/devices/system/node/node$1/hugepages/hugepages-2048kB/nr_hugepages"
}
hp 0 2
hp 1 48

eal_common=(--no-pci --log-level=pmd.mempool.turbomem:info -l 0,1)

# run NAME PLUGIN MODE [OPTIONS...]: the place command in MODE; its rc.
run_place() {
	local name=$1 lib=$2 mode=$3
	shift 3
	local mem=(--huge-dir "$mnt")
	[ "$mode" = nohuge ] && mem=(--no-huge -m 64)
	timeout 300 "$bin" "${eal_common[@]}" -d "$lib" "${mem[@]}" \
		--file-prefix "tmnuma-$name" -- turbomem_numa_place_autotest "$@" \
		> "$out/$name.log" 2>&1
}

check() { # check NAME RC: a run that must pass
	if [ "$2" -eq 0 ] && grep -q '^Test OK' "$out/$1.log"; then
		result "$1" PASS
	else
		result "$1" FAIL "rc $2: $(grep -m1 'FAIL\|failed' "$out/$1.log")"
	fi
}

# A secondary process checks the socket 1 pool while the primary holds it.
export TM_NUMA_SECONDARY="timeout 300 $bin --no-pci --lcores 2@0 -d $plugin \
	--huge-dir $mnt --proc-type=secondary --file-prefix tmnuma-hugetlbfs -- \
	turbomem_numa_attach_autotest --pool=numa_s1 --expect=1 > $out/secondary.log 2>&1"
rc=0; run_place hugetlbfs "$plugin" hugetlbfs --nomem=0 || rc=$?
unset TM_NUMA_SECONDARY
check hugetlbfs $rc
check secondary "$(grep -q '^Test OK' "$out/secondary.log" 2>/dev/null; echo $?)"
rc=0; run_place nohuge "$plugin" nohuge --xfail-any-nohuge || rc=$?
check nohuge $rc

# pmd_placement PID PREFIX POOL NODE: POOL of the testpmd PID on NODE,
# per /turbomem/info and /proc/PID/numa_maps. EAL names a hugepage file
# PREFIXmap_<list * 8192 + segment>, its memseg lists made socket by
# socket (fbarray_memseg-2048k-<socket>-<n> in its runtime directory):
# the files of the pool's socket must all be on NODE and hold at least
# the pool's bytes.
pmd_placement() {
	python3 - "$@" <<'PY'
import json, os, re, socket, sys
pid, prefix, pool, node = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
s.connect("/var/run/dpdk/%s/dpdk_telemetry.v2" % prefix)
s.recv(4096)
s.send(("/turbomem/info,%s" % pool).encode())
info = json.loads(s.recv(65536))["/turbomem/info"]
mem = info["memory"]
print("/turbomem/info,%s: socket %s, memory %s" % (pool, info["socket_id"], mem))
rt = "/var/run/dpdk/%s" % prefix
lists = sorted(tuple(map(int, f.split("-")[2:4])) for f in os.listdir(rt)
               if f.startswith("fbarray_memseg-2048k-"))
ours = set(i for i, (sock, _) in enumerate(lists) if sock == node)
files = pages = 0
bad = []
for l in open("/proc/%s/numa_maps" % pid):
    m = re.search(r"file=\S*%smap_(\d+)" % re.escape(prefix), l)
    if not m or int(m.group(1)) // 8192 not in ours:
        continue
    nodes = dict((int(a), int(b)) for a, b in re.findall(r" N(\d+)=(\d+)", l))
    files += 1
    pages += sum(nodes.values())
    if set(nodes) - {node}:
        bad.append(l.strip())
print("socket %d hugepage files: %d, %d pages, off node %d: %d" % (node, files, pages, node, len(bad)))
for b in bad[:5]:
    print("  " + b)
ok = mem.get("numa_node") == node and mem.get("backing") == "hugetlbfs" \
    and not bad and pages * 2 << 20 >= mem.get("bytes", 1 << 62)
print("FAIL" if not ok else "placement as reported")
sys.exit(0 if ok else 1)
PY
}

# testpmd on socket 1 (its lcores span both nodes: a pool per socket).
hp 0 32
pmdlog=$out/testpmd.log
dpdk-testpmd "${eal_common[@]}" -d "$plugin" --huge-dir "$mnt" \
	--file-prefix tmnuma-pmd --mbuf-pool-ops-name=turbomem \
	--vdev net_null0,socket_id=1 --vdev net_null1,socket_id=1 -- \
	--forward-mode=io --auto-start --stats-period 1 \
	--total-num-mbufs=2048 > "$pmdlog" 2>&1 &
pmd=$!
up=0
for _ in $(seq 600); do
	grep -q 'Port statistics' "$pmdlog" && { up=1; break; }
	kill -0 $pmd 2>/dev/null || break
	sleep 0.2
done
if [ $up = 1 ]; then
	grep -q 'mempool ops selected: turbomem' "$pmdlog" ||
		result testpmd FAIL "turbomem not selected"
	# Its mbuf pool for socket 1 from outside: /turbomem/info's node and
	# bytes, and numa_maps of testpmd's hugepage files of socket 1.
	rc=0
	pmd_placement $pmd tmnuma-pmd mb_pool_1 1 > "$out/testpmd-place.log" 2>&1 || rc=$?
	[ $rc = 0 ] && echo "Test OK" >> "$out/testpmd-place.log"
	check testpmd-place $rc
else
	result testpmd FAIL "testpmd did not start: $(tail -3 "$pmdlog" | tr '\n' ' ')"
fi
kill -INT $pmd 2>/dev/null
wait $pmd 2>/dev/null
grep -q 'Bye' "$pmdlog" && result testpmd PASS || result testpmd FAIL "no clean exit"

# Mutants: each must fail its run.
if [ -n "$mutdir" ]; then
	for d in "$mutdir"/*/; do
		m=$(basename "$d")
		mode=$(cat "$d/run")
		opts=()
		[ "$mode" = hugetlbfs ] && opts=(--nomem=0)
		rc=0
		run_place "mutant-$m" "$d/librte_mempool_turbomem.so" "$mode" "${opts[@]}" || rc=$?
		if [ $rc -ne 0 ] && [ $rc -ne 77 ] && grep -q 'FAIL' "$out/mutant-$m.log"; then
			result "mutant-$m" PASS "killed: $(grep -m1 'FAIL' "$out/mutant-$m.log" | sed 's/^ *//')"
		else
			result "mutant-$m" FAIL "survived (rc $rc)"
		fi
	done
fi
rm -f "$mnt"/*
echo done >> "$out/started"
