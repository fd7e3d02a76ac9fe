# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# The evidence set: sourced by scripts/bench.sh for its modes
#
#   scripts/bench.sh evidence         (about 10 minutes on 2 vCPUs)
#   scripts/bench.sh evidence-short   (about a minute: CI, meson test
#                                      evidence_short of the perf suite)
#
# It uses bench.sh's run() (one EAL invocation of turbomem_bench per part),
# its variables (out, mode, common, plugin, ...) and exits at its end.
# It runs every measurement a claim of the evidence page needs, with the
# memory each claim names, then generates the page from the results with
# scripts/evidence_report.py; nothing on the page is typed by hand.
#
#   grid, pipeline  the design page's layouts (turbomem_perf parameters)
#   locality, hw    after a shuffled refill; hw probes the PMU
#   deep, pages     per memory: --no-huge (ring_mp_mc on 4 KB pages,
#                   turbomem on its own THP memory), --no-huge with
#                   TURBOMEM_CONFIG=thp=off (turbomem on 4 KB pages),
#                   hugetlbfs 2 MB pages, hugetlbfs 1 GB pages
#   frag            one process per handler and memory (the heap a handler
#                   leaves is the next one's start)
#   cache           issue 11b's scenario, when this tree has it
#   testpmd         scripts/testpmd.py compare per memory (1 GB, 2 MB,
#                   --no-huge), rounds interleaved across memories
#
# Huge pages: 2 MB pages with reserve_hugepages (scripts/common.sh), 1 GB
# pages by raising nr_hugepages and mounting hugetlbfs with pagesize=1G in
# a private directory. On exit it unmounts that directory and lowers each
# nr_hugepages by what it raised, nothing more (other processes share
# them). What the kernel refuses is written to not-testable.txt and the
# page says "not testable here" with the reason.
#
# Output in $out (default results/evidence): bench.csv/json (merged),
# testpmd/<memory>-r<round>/testpmd.csv, commands.tsv (the command of
# each part), machine.txt (CPU, kernel, DPDK, load before and after),
# not-testable.txt, logs/. The page: doc/guides/mempool/turbomem_evidence.rst
# and the README's block between its evidence markers (evidence), or a
# copy of doc/ under $out/doc built with sphinx-build -W (evidence-short).
#
# Environment (besides bench.sh's):
#   TM_EVIDENCE_PAGE    page to write (default: see above)
#   TM_EVIDENCE_README  README to update (evidence: README.rst; "" none)
#   TM_EVIDENCE_1G=0    skip the 1 GB page runs (said so on the page)

ev_short=0
[ "$mode" = evidence-short ] && ev_short=1
ev_hp1g=/sys/kernel/mm/hugepages/hugepages-1048576kB
ev_hp2m=/sys/kernel/mm/hugepages/hugepages-2048kB
ev_added_1g=0
ev_added_2m=0
ev_mnt1g=
ev_nt=$out/not-testable.txt
ev_cmds=$out/commands.tsv
: >"$ev_nt"
: >"$out/failed.txt"
: >"$ev_cmds"
rm -rf "$out/testpmd"

ev_release() {
	local cur
	if [ -n "$ev_mnt1g" ]; then
		umount "$ev_mnt1g" && rmdir "$ev_mnt1g"
	fi
	if [ "$ev_added_1g" -gt 0 ]; then
		cur=$(cat "$ev_hp1g/nr_hugepages")
		echo $((cur > ev_added_1g ? cur - ev_added_1g : 0)) >"$ev_hp1g/nr_hugepages" || true
		log "released $ev_added_1g 1 GB hugepages (nr_hugepages now $(cat "$ev_hp1g/nr_hugepages"))"
	fi
	if [ "$ev_added_2m" -gt 0 ]; then
		cur=$(cat "$ev_hp2m/nr_hugepages")
		echo $((cur > ev_added_2m ? cur - ev_added_2m : 0)) >"$ev_hp2m/nr_hugepages" || true
		log "released $ev_added_2m 2 MB hugepages (nr_hugepages now $(cat "$ev_hp2m/nr_hugepages"))"
	fi
	rm -rf "${rundir:?}/$prefix"-*
}
trap ev_release EXIT

# ev_not_testable KEY REASON: a claim input the kernel or machine refused.
ev_not_testable() {
	printf '%s\t%s\n' "$1" "$2" >>"$ev_nt"
	log "not testable here: $1: $2"
}

# ev_failed KEY REASON: a part that failed; its rows show as missing with
# the reason, and the rest of the set still runs.
ev_failed() {
	printf '%s\t%s\n' "$1" "$2" >>"$out/failed.txt"
	log "failed: $1: $2"
}

# erun NAME "EAL args" bench-args...: run() with the command recorded; a
# failing part is recorded (ev_failed) and the set goes on.
# Arguments separated by \x1f: evidence_report.py quotes them for the page.
ev_argv() {
	printf '%s\x1f' "$@"
}
erun() {
	local -a eal
	read -r -a eal <<<"$2"
	printf '%s\t%s\n' "$1" "$(ev_argv "$TM_BENCH_APP" "${eal[@]}" --no-pci \
		-d "$TM_PLUGIN" -- turbomem_bench "${common[@]}" "${@:3}")" >>"$ev_cmds"
	local n=$nrun
	(run "$@") || ev_failed "$1" "turbomem_bench failed (log: $out/logs/$(printf '%02d' $((n + 1)))-$1.log)"
	nrun=$((n + 1))
}

ev_machine() { # KEY: machine.txt lines "key: value"
	{
		echo "when_$1: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
		echo "load_$1: $(cut -d' ' -f1-3 /proc/loadavg)"
		echo "uptime_$1: $(uptime)"
	} >>"$out/machine.txt"
}
{
	echo "cpu: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
	echo "cpu_id: $(awk -F': ' '/^cpu family/ { f = $2 } /^model\t/ { m = $2 }
		/^stepping/ { s = $2; exit } END { printf "family %s model %s stepping %s", f, m, s }' /proc/cpuinfo)"
	echo "cpus: $(nproc)"
	echo "hypervisor: $(lscpu 2>/dev/null | sed -n 's/^Hypervisor vendor:[[:space:]]*//p')"
	echo "kernel: $(uname -sr)"
	echo "dpdk: $(pkg-config --modversion libdpdk 2>/dev/null || echo unknown)"
	echo "thp: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)"
	echo "mode: $mode"
	echo "commit: $(git -C "$repo" describe --always --dirty 2>/dev/null || echo unknown)"
} >"$out/machine.txt"
ev_machine start
top -b -n 1 2>/dev/null | head -20 >"$out/logs/top-start.txt" || true

# --- huge pages -------------------------------------------------------------

# deep and pages on 2 MB pages: 2432 bytes per mbuf, 5/4 for rings and maps;
# testpmd: -m of its pool of 147456 mbufs (full) or 8192 (short).
ev_pages2m=$(( deep_n * 2432 / 2097152 * 5 / 4 + 64 ))
if [ $ev_short = 1 ]; then ev_tpmd_mb=256; else ev_tpmd_mb=1024; fi
[ $((ev_tpmd_mb / 2 + 16)) -gt "$ev_pages2m" ] && ev_pages2m=$((ev_tpmd_mb / 2 + 16))
ev_mnt2m=
# ev_top_up_2m: make ev_pages2m 2 MB pages free again, counting what this
# run adds. Called before every 2 MB part: other processes share the pool
# and take free pages between parts.
ev_top_up_2m() {
	local before added
	before=$(cat "$ev_hp2m/nr_hugepages")
	reserve_hugepages "$ev_pages2m" >/dev/null 2>>"$out/logs/hugepages-2m.txt" || true
	added=$(( $(cat "$ev_hp2m/nr_hugepages") - before ))
	[ $added -gt 0 ] && ev_added_2m=$((ev_added_2m + added))
	return 0
}
if [ -d "$ev_hp2m" ]; then
	ev_before=$(cat "$ev_hp2m/nr_hugepages")
	if ev_mnt2m=$(reserve_hugepages "$ev_pages2m" 2>"$out/logs/hugepages-2m.txt"); then
		:
	else
		ev_mnt2m=
		ev_not_testable 2m "$(tail -1 "$out/logs/hugepages-2m.txt")"
	fi
	ev_added_2m=$(( $(cat "$ev_hp2m/nr_hugepages") - ev_before ))
	[ $ev_added_2m -lt 0 ] && ev_added_2m=0
else
	ev_not_testable 2m "no 2 MB hugepage support in this kernel ($ev_hp2m missing)"
fi

# 1 GB pages: deep/pages need 2 (the pool is 600+ MB), testpmd 1.
ev_want1g=2
if [ "${TM_EVIDENCE_1G:-1}" = 0 ]; then
	ev_not_testable 1g "skipped (TM_EVIDENCE_1G=0)"
elif [ ! -d "$ev_hp1g" ]; then
	ev_not_testable 1g "no 1 GB hugepage support (CPU flag pdpe1gb or kernel: $ev_hp1g missing)"
elif [ "$(id -u)" -ne 0 ]; then
	ev_not_testable 1g "not root: cannot raise nr_hugepages"
else
	ev_total=$(cat "$ev_hp1g/nr_hugepages")
	ev_free=$(cat "$ev_hp1g/free_hugepages")
	if [ "$ev_free" -lt $ev_want1g ]; then
		echo $((ev_total + ev_want1g - ev_free)) >"$ev_hp1g/nr_hugepages" 2>/dev/null || true
		ev_added_1g=$(( $(cat "$ev_hp1g/nr_hugepages") - ev_total ))
		[ $ev_added_1g -lt 0 ] && ev_added_1g=0
		ev_free=$(cat "$ev_hp1g/free_hugepages")
	fi
	if [ "$ev_free" -lt $ev_want1g ]; then
		ev_not_testable 1g "the kernel gave $ev_free free 1 GB pages of $ev_want1g asked (echo N > $ev_hp1g/nr_hugepages: memory fragmented or too small)"
	else
		ev_mnt1g=$(mktemp -d /tmp/tm-evidence-1g.XXXXXX)
		if ! mount -t hugetlbfs -o pagesize=1G nodev "$ev_mnt1g"; then
			rmdir "$ev_mnt1g"
			ev_mnt1g=
			ev_not_testable 1g "cannot mount hugetlbfs with pagesize=1G"
		fi
	fi
fi
echo "hugepages: 2MB reserved by this run $ev_added_2m (mount ${ev_mnt2m:-none}); 1GB reserved by this run $ev_added_1g (mount ${ev_mnt1g:-none})" >>"$out/machine.txt"

# --- turbomem_bench parts ----------------------------------------------------

ev_all=ring_mp_mc,ring_mt_rts,ring_mt_hts,stack,lf_stack,turbomem
ev_two=ring_mp_mc,turbomem
# The design page's grid: bulk 16, keep 32, no cache (turbomem_perf).
ev_grid=(--scenario grid --handlers "$ev_all" --bulks 16 --keeps 32)
erun grid-1lcore "${nohuge[*]} --lcores 0@0,1@1" "${ev_grid[@]}" --caches 0 --layout "1 lcore"
erun grid-2pinned "${nohuge[*]} --lcores 0@0,1@0,2@1" "${ev_grid[@]}" --caches 0 --layout "2 pinned"
erun grid-6on2 "${nohuge[*]} --lcores 0@0,(1-6)@(0,1)" "${ev_grid[@]}" --caches 0,256 --layout "6 on 2 CPUs"
erun pipeline "${nohuge[*]} --lcores 0@0,1@0,2@1" --scenario pipeline --handlers "$ev_all" --bulks 16 --caches 0 --layout "2 pinned"
erun locality "${nohuge[*]} -l 0" --scenario locality --handlers "$ev_two" --caches 0,default --inflight 32,512 --layout "main lcore"
erun hw "${nohuge[*]} -l 0" --scenario hw --handlers "$ev_two" --inflight 32,512 --layout "main lcore"

ev_mb_nohuge=$(( (deep_n * 4096 >> 20) + 256 ))
ev_deep=(--scenario deep --layout "main lcore" --deep-n "$deep_n" --seconds "$deep_secs" --rounds $((ev_short ? 1 : 3)))
ev_pages=(--scenario pages --layout "main lcore" --deep-n "$deep_n")
# ev_mem NAME "EAL memory args" HANDLERS: deep and pages on one memory.
ev_mem() {
	[ "$1" = 2m ] && ev_top_up_2m
	erun "deep-$1" "$2 -l 0" "${ev_deep[@]}" --handlers "$3"
	[ "$1" = 2m ] && ev_top_up_2m
	erun "pages-$1" "$2 -l 0" "${ev_pages[@]}" --handlers "$3"
}
ev_mem nohuge "--no-huge -m $ev_mb_nohuge" "$ev_two"
TURBOMEM_CONFIG=thp=off ev_mem nohuge-thpoff "--no-huge -m $ev_mb_nohuge" turbomem
if [ -n "$ev_mnt2m" ]; then
	ev_mem 2m "-m $((ev_pages2m * 2)) --huge-dir $ev_mnt2m --huge-unlink" "$ev_two"
fi
if [ -n "$ev_mnt1g" ]; then
	ev_mem 1g "-m 2048 --huge-dir $ev_mnt1g --huge-unlink" "$ev_two"
fi

for h in ring_mp_mc turbomem; do
	erun "frag-nohuge-$h" "${nohuge[*]} -l 0" --scenario frag --handlers "$h" --layout "main lcore"
	if [ -n "$ev_mnt2m" ]; then
		ev_top_up_2m
		erun "frag-2m-$h" "-m 256 --huge-dir $ev_mnt2m --huge-unlink -l 0" --scenario frag --handlers "$h" --layout "main lcore"
	fi
done

# Issue 11b's cache scenario, when this tree registers it; a failure
# leaves its rows missing, said so on the page, and does not stop the set.
if grep -q '{ "cache",' app/test-turbomem/bench_common.c; then
	erun cache "${nohuge[*]} --lcores 0@0,1@1" --scenario cache --handlers "$ev_two" --layout "1 lcore"
else
	ev_not_testable cache "this tree has no bench scenario 'cache' (issue 11b)"
fi

# --- testpmd -------------------------------------------------------------------

if command -v "${TESTPMD:-dpdk-testpmd}" >/dev/null 2>&1; then
	ev_tp_mems=(nohuge)
	[ -n "$ev_mnt2m" ] && ev_tp_mems+=(2m)
	[ -n "$ev_mnt1g" ] && ev_tp_mems+=(1g)
	if [ $ev_short = 1 ]; then
		ev_tp=(TM_CMP_ROUNDS=1 TM_CMP_SECONDS=5 TM_CMP_SKIP=1 TM_CMP_LAST=2
			TM_CMP_CACHES=default "TM_CMP_PMD_OPTS=--total-num-mbufs=8192")
		ev_tp_rounds=1
	else
		# 12 s: under load, testpmd takes seconds to populate its pool.
		ev_tp=(TM_CMP_ROUNDS=1 TM_CMP_SECONDS=12)
		ev_tp_rounds=2
	fi
	for ((r = 1; r <= ev_tp_rounds; r++)); do
		for m in "${ev_tp_mems[@]}"; do
			case $m in
			nohuge) mem="--no-huge -m $ev_tpmd_mb" ;;
			2m) mem="-m $ev_tpmd_mb --huge-dir $ev_mnt2m --huge-unlink" ;;
			1g) mem="-m 1024 --huge-dir $ev_mnt1g --huge-unlink" ;;
			esac
			d=$out/testpmd/$m-r$r
			mkdir -p "$d"
			[ "$m" = 2m ] && ev_top_up_2m
			printf '%s\t%s\n' "testpmd-$m-r$r" "$(ev_argv env "${ev_tp[@]}" \
				"TM_CMP_MEM_OPTS=$mem" "TM_PLUGIN=$TM_PLUGIN" scripts/testpmd.py compare)" >>"$ev_cmds"
			log "testpmd round $r, memory $m"
			env "${ev_tp[@]}" "TM_CMP_MEM_OPTS=$mem" "TM_PLUGIN=$TM_PLUGIN" \
				"TM_RESULTS_DIR=$d" scripts/testpmd.py compare >"$d/table.txt" 2>"$d/stderr.txt" ||
				ev_failed "testpmd-$m-r$r" "$(grep -m1 'error:' "$d/stderr.txt" || echo "testpmd.py compare failed (log: $d)") $(grep -h -m1 'Not enough memory\|Cause:' "$d"/testpmd-logs/*.log 2>/dev/null | head -1)"
		done
	done
else
	ev_not_testable testpmd "dpdk-testpmd not found"
fi

ev_machine end
top -b -n 1 2>/dev/null | head -20 >"$out/logs/top-end.txt" || true
log "evidence set: $nrun EAL runs and testpmd in $((SECONDS - t0))s"

"$PYTHON" scripts/bench_report.py merge "$out" "$out/parts"/[0-9]*.csv
"$PYTHON" scripts/bench_report.py table "$out/bench.csv" >"$out/bench-table.txt"
[ $ev_short = 1 ] && "$PYTHON" scripts/bench_report.py check "$manifest"

if [ $ev_short = 1 ]; then
	rm -rf "$out/doc" "$out/html"
	cp -r doc "$out/doc"
	ev_page=${TM_EVIDENCE_PAGE:-$out/doc/guides/mempool/turbomem_evidence.rst}
	ev_readme=${TM_EVIDENCE_README-}
else
	ev_page=${TM_EVIDENCE_PAGE:-doc/guides/mempool/turbomem_evidence.rst}
	ev_readme=${TM_EVIDENCE_README-README.rst}
fi
"$PYTHON" scripts/evidence_report.py "$out" "$ev_page" ${ev_readme:+--readme "$ev_readme"}
if [ $ev_short = 1 ]; then
	if ev_sphinx=$(pick_tool sphinx-build /usr/bin/sphinx-build); then
		"$ev_sphinx" -W -q -E -b html -c doc "$out/doc" "$out/html" ||
			die "sphinx-build -W failed on the generated page"
		log "page built: $out/html/guides/mempool/turbomem_evidence.html"
	else
		log "sphinx-build not found (python3-sphinx): page not built"
	fi
fi
log "evidence page: $ev_page"
exit 0
