#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# Compare mempool handlers under dpdk-testpmd: io forwarding between two
# net_null vdevs (no NIC, no hugepages: --no-huge -m 1024), one forwarding
# lcore, for every handler x mbuf cache size. The mempool is the only thing
# that changes between runs, and with --mbcache=0 every mbuf allocation and
# free reaches the handler.
#
# Each run lasts TM_CMP_SECONDS with --stats-period 1 and is then stopped
# with SIGINT. A sample is the sum of the "Rx-pps" (Throughput since last
# show) of both ports; the first TM_CMP_SKIP samples are warm-up and
# dropped, the last TM_CMP_LAST of the rest are kept. Handlers are
# interleaved (ring, turbomem, ring, turbomem, ...) over TM_CMP_ROUNDS
# rounds, because the machine is noisy; a configuration's figure is the
# median of all its kept samples over all rounds.
#
# Output: a table on stdout; every sample in results/testpmd.csv; every
# testpmd log in results/testpmd-logs/.
#
# Environment:
#   TESTPMD            testpmd binary (default dpdk-testpmd)
#   TM_PLUGIN          the turbomem plugin
#                      (default build/librte_mempool_turbomem.so)
#   TM_CMP_HANDLERS    handlers, the baseline first (default "ring_mp_mc turbomem")
#   TM_CMP_PLUGIN_HANDLERS  handlers that need "-d TM_PLUGIN" (default turbomem)
#   TM_CMP_CACHES      --mbcache values; "default" passes none, i.e. 250
#                      (default "0 default")
#   TM_CMP_ROUNDS      rounds (default 2)
#   TM_CMP_SECONDS     seconds per run (default 7)
#   TM_CMP_SKIP        warm-up samples dropped per run (default 2)
#   TM_CMP_LAST        at most this many last samples kept per run (default 5)
#   TM_CMP_LCORES      EAL -l list: main lcore + 1 forwarding lcore (default 0-1)
#   TM_CMP_EAL_OPTS    extra EAL options
#   TM_CMP_MEM_OPTS    EAL memory options (default "--no-huge -m 1024"; e.g.
#                      "-m 1024 --huge-dir DIR --huge-unlink" for hugetlbfs)
#   TM_CMP_PMD_OPTS    extra testpmd options
#   TM_RESULTS_DIR     where results go (default results)

set -euo pipefail
export LC_ALL=C

cd "$(dirname "${BASH_SOURCE[0]}")/.."
repo=$(pwd)

TESTPMD=${TESTPMD:-dpdk-testpmd}
TM_PLUGIN=${TM_PLUGIN:-$repo/build/librte_mempool_turbomem.so}
TM_CMP_HANDLERS=${TM_CMP_HANDLERS:-ring_mp_mc turbomem}
TM_CMP_PLUGIN_HANDLERS=${TM_CMP_PLUGIN_HANDLERS:-turbomem}
TM_CMP_CACHES=${TM_CMP_CACHES:-0 default}
TM_CMP_ROUNDS=${TM_CMP_ROUNDS:-2}
TM_CMP_SECONDS=${TM_CMP_SECONDS:-7}
TM_CMP_SKIP=${TM_CMP_SKIP:-2}
TM_CMP_LAST=${TM_CMP_LAST:-5}
TM_CMP_LCORES=${TM_CMP_LCORES:-0-1}
TM_CMP_MEM_OPTS=${TM_CMP_MEM_OPTS:---no-huge -m 1024}
TM_RESULTS_DIR=${TM_RESULTS_DIR:-$repo/results}

DEFAULT_MBCACHE=250 # testpmd's DEF_MBUF_CACHE

log() { printf '[testpmd-compare] %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

read -r -a handlers <<<"$TM_CMP_HANDLERS"
read -r -a caches <<<"$TM_CMP_CACHES"
baseline=${handlers[0]}

command -v "$TESTPMD" >/dev/null 2>&1 ||
	die "$TESTPMD not found (Debian: apt-get install dpdk; or run scripts/deps.sh)"

needs_plugin() {
	case " $TM_CMP_PLUGIN_HANDLERS " in
	*" $1 "*) return 0 ;;
	*) return 1 ;;
	esac
}

plugin_used=0
for h in "${handlers[@]}"; do
	needs_plugin "$h" && plugin_used=1
done
if [ $plugin_used = 1 ]; then
	[ -f "$TM_PLUGIN" ] ||
		die "plugin $TM_PLUGIN not found: build it first (meson setup build && ninja -C build)"
	TM_PLUGIN=$(realpath "$TM_PLUGIN")
	# EAL refuses -d plugins under world-writable directories; with-plugin.sh
	# gives a private copy's path when the build tree is under one.
	TM_PLUGIN=$("$(dirname "${BASH_SOURCE[0]}")/with-plugin.sh" "$TM_PLUGIN" echo @PLUGIN@) ||
		die "no loadable path for $TM_PLUGIN"
fi

mkdir -p "$TM_RESULTS_DIR/testpmd-logs"
csv=$TM_RESULTS_DIR/testpmd.csv
samples_file=$(mktemp)
prefix=tm-cmp-$$
# EAL's runtime directory for this prefix (see eal_get_runtime_dir()).
if [ "$(id -u)" -eq 0 ]; then
	runtime_dir=/var/run/dpdk/$prefix
else
	runtime_dir=${XDG_RUNTIME_DIR:-/tmp}/dpdk/$prefix
fi
trap 'rm -f "$samples_file"; rm -rf "$runtime_dir"' EXIT
echo "round,handler,mbcache,sample,rx_pps,kept" >"$csv"

# testpmd_cmd HANDLER CACHE LOG: fill the array "cmd": scripts/testpmd.py
# runs testpmd for TM_CMP_SECONDS of forwarding, checks it selected
# HANDLER and forwarded, and writes the Rx-pps samples ("<index> <pps of
# all ports>", one per stats period) to $samples_file.
testpmd_cmd() {
	local h=$1 c=$2 lg=$3
	# An own --file-prefix (--in-memory does not combine with --no-huge),
	# so runs never collide with another DPDK process on the machine.
	cmd=(python3 "$repo/scripts/testpmd.py" --testpmd "$TESTPMD"
		--prefix "$prefix" --ops "$h" --no-telemetry
		"--mem-opts=$TM_CMP_MEM_OPTS"
		--seconds "$TM_CMP_SECONDS" --log "$lg" --samples "$samples_file")
	if needs_plugin "$h"; then
		cmd+=(--plugin "$TM_PLUGIN")
	fi
	cmd+=(--lcores "$TM_CMP_LCORES" --)
	# shellcheck disable=SC2206
	cmd+=(${TM_CMP_EAL_OPTS:-})
	cmd+=(-- --nb-cores=1 --txq=1 --rxq=1)
	if [ "$c" != default ]; then
		cmd+=(--mbcache="$c")
	fi
	# shellcheck disable=SC2206
	cmd+=(${TM_CMP_PMD_OPTS:-})
}

median() { # numbers on stdin -> median (empty if none)
	sort -g | awk '{ v[NR] = $1 } END {
		if (NR == 0) exit
		if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

cache_label() { [ "$1" = default ] && echo "$DEFAULT_MBCACHE" || echo "$1"; }

testpmd_cmd "${handlers[-1]}" "${caches[0]}" "$TM_RESULTS_DIR/testpmd-logs/example.log"
log "example command: ${cmd[*]}"
log "DPDK $(pkg-config --modversion libdpdk 2>/dev/null || echo '(version unknown)'), $(nproc) CPUs"

read -r load1 _ </proc/loadavg
if awk -v l="$load1" 'BEGIN { exit !(l > 0.5) }'; then
	log "warning: load average is $load1 before starting: other work on this machine will make the figures noisy"
fi

nruns=$((TM_CMP_ROUNDS * ${#caches[@]} * ${#handlers[@]}))
run=0
for ((r = 1; r <= TM_CMP_ROUNDS; r++)); do
	for c in "${caches[@]}"; do
		for h in "${handlers[@]}"; do
			run=$((run + 1))
			cl=$(cache_label "$c")
			lg=$TM_RESULTS_DIR/testpmd-logs/r$r-$h-cache$cl.log
			testpmd_cmd "$h" "$c" "$lg"
			"${cmd[@]}" >"$lg.check" 2>&1 || {
				cat "$lg.check" >&2
				die "testpmd run failed for $h cache $cl; log: $lg"
			}
			rm -f "$lg.check"
			total=$(wc -l <"$samples_file")
			kept=$((total - TM_CMP_SKIP))
			[ $kept -gt "$TM_CMP_LAST" ] && kept=$TM_CMP_LAST
			[ "$kept" -ge 1 ] ||
				die "only $total stats samples for $h cache $cl (need more than $TM_CMP_SKIP); log: $lg"
			first_kept=$((total - kept + 1))
			while read -r k pps; do
				keep=0
				[ "$k" -ge $first_kept ] && keep=1
				echo "$r,$h,$cl,$k,$pps,$keep" >>"$csv"
			done <"$samples_file"
			m=$(awk -v f=$first_kept '$1 >= f { print $2 }' "$samples_file" | median)
			log "$(printf 'run %2d/%d round %d %-12s cache %-3s %7.2f Mpps (median of %d samples)' \
				$run $nruns "$r" "$h" "$cl" "$(awk -v m="$m" 'BEGIN { print m / 1e6 }')" "$kept")"
		done
	done
done

# The table: per configuration, the median of its kept samples of all rounds.
config_median() { # handler cache-label -> pps
	awk -F, -v h="$1" -v c="$2" 'NR > 1 && $2 == h && $3 == c && $6 == 1 { print $5 }' "$csv" | median
}
run_medians() { # handler cache-label -> "a / b" Mpps of each round
	local out="" r m
	for ((r = 1; r <= TM_CMP_ROUNDS; r++)); do
		m=$(awk -F, -v h="$1" -v c="$2" -v r=$r \
			'NR > 1 && $1 == r && $2 == h && $3 == c && $6 == 1 { print $5 }' "$csv" | median)
		out+="${out:+ / }$(awk -v m="$m" 'BEGIN { printf "%.2f", m / 1e6 }')"
	done
	echo "$out"
}

echo
echo "testpmd io forwarding, 2 x net_null, $TM_CMP_MEM_OPTS, 1 forwarding lcore" \
	"($TM_CMP_ROUNDS rounds x ${TM_CMP_SECONDS}s, median of kept 1 s samples)"
printf '%-12s %6s %9s %9s   %s\n' handler cache Mpps "vs $baseline" "per-round Mpps"
for c in "${caches[@]}"; do
	cl=$(cache_label "$c")
	base=$(config_median "$baseline" "$cl")
	for h in "${handlers[@]}"; do
		m=$(config_median "$h" "$cl")
		printf '%-12s %6s %9.2f %9s   %s\n' "$h" "$cl" \
			"$(awk -v m="$m" 'BEGIN { print m / 1e6 }')" \
			"$(awk -v m="$m" -v b="$base" 'BEGIN { if (b > 0) printf "%.2fx", m / b; else print "-" }')" \
			"$(run_medians "$h" "$cl")"
	done
done
echo "samples: $csv"
