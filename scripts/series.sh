#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# The driver as a DPDK maintainer receives it: a git format-patch series
# against the DPDK 26.07 release, made from the repository's files on every
# run (no patch is kept in the repository), and the checks DPDK's
# contributing guide (doc/guides/contributing/new_driver.rst) asks of it.
#
# series.sh generate [OUTDIR]   (scripts/dpdk.sh series; default build-series)
#   Writes OUTDIR/patches/000N-*.patch and prints, per patch, its files and
#   added lines. The series, split by feature as new_driver.rst orders it:
#   1 skeleton: meson entry, MAINTAINERS, .mailmap, the guide and its index
#     entry, the release notes; the driver's meson.build and its log type
#   2 the lock-free LIFO of object indexes (tm_*), the core, alone: built,
#     used from patch 3 on
#   3 the pool: ops, object map, the fast-path counters, in the memory the
#     mempool library reserves; the hooks of pool memory
#     (scripts/series/turbomem_mem.h) are inert until patch 4, those of
#     held-object tracking (scripts/series/turbomem_track.h) until patch 6
#   4 pool memory: configuration, THP heap, NUMA binding, memory report
#   5 statistics and telemetry
#   6 held-object tracking (with the guide's example report it includes)
#   7 the autotest in app/test (REGISTER_FAST_TEST)
#   A driver file goes to the patch whose glob (series_files) names it first;
#   every other file of drivers/mempool/turbomem goes to patch 3 (the
#   pool), so a new driver file lands there without a change here. The
#   public header and the guide grow by section (series_sections; a
#   reference in parentheses to a section not there yet is left out); the
#   driver's meson.build lists the sources present (series_meson).
#   The last patch leaves every file equal to the repository's, except
#   compat/ (22.11 and out-of-tree builds), which the series leaves out.
#
# series.sh check [WORKDIR]     (scripts/dpdk.sh series-check; the matrix's
#   "series" cell). On the release tree, git-initialised as the forbidden
#   check does it: git am of the whole series; every patch built (ninja) with
#   gcc, the last also with clang, both -Dwerror=true; after patches 3 and
#   4, DPDK's mempool_autotest on turbomem; after the last, meson test --suite
#   fast-tests turbomem_autotest, mempool_autotest and mbuf_autotest on
#   turbomem; -Dcheck_includes=true (rte_pmd_turbomem.h alone in C and
#   C++); devtools/checkpatches.sh (the kernel's checkpatch.pl, codespell),
#   check-git-log.sh, check-meson.py, check-spdx-tag.sh,
#   check-doc-vs-code.sh, cocci.sh and process-iwyu.py (include-what-you-use)
#   on the driver; the documentation build
#   (-Denable_docs=true) without a warning naming the new guide.
#   Prints a table of check and findings; fails on any finding.
#
# A series checked before with the same scripts and tools is not checked
# again: its results are kept in the cache (the five newest).
#
# Environment: TM_SERIES_FORCE=1 (check even a series checked before),
# TM_SERIES_AUTHOR ("Name <email>", the series' author and
# Signed-off-by, short enough for check-git-log.sh's 75 columns),
# TM_SERIES_DOCS=0 (skip the documentation build), TM_CHECKPATCH (a
# checkpatch.pl; default: extracted from Debian's linux-source by deps.sh
# into the cache), and those of dpdk.sh (TM_DPDK_TARBALL, TM_CACHE_DIR).

# shellcheck source=scripts/dpdk.sh
. "$(dirname "${BASH_SOURCE[0]}")/dpdk.sh"

TM_SERIES_VERSION=26.07
TM_SERIES_AUTHOR=${TM_SERIES_AUTHOR:-Turbomem Authors <authors@turbomem.example>}
TM_SERIES_DRV=drivers/mempool/turbomem
TM_SERIES_PATCHES=7
TM_SERIES_POOL=3

# series_files N: the repository files patch N introduces or changes (globs
# of driver files, relative to the repository root, first match wins).
series_files() {
	case $1 in
	1) echo "$TM_SERIES_DRV/meson.build $TM_SERIES_DRV/turbomem_logs.c doc/guides/mempool/turbomem.rst" ;;
	2) echo "$TM_SERIES_DRV/tm_*" ;;
	4) echo "$TM_SERIES_DRV/turbomem_mem*.c $TM_SERIES_DRV/turbomem_mem.h $TM_SERIES_DRV/turbomem_osmem.*" ;;
	5) echo "$TM_SERIES_DRV/turbomem_stats_report.c $TM_SERIES_DRV/turbomem_telemetry.c" ;;
	6) echo "$TM_SERIES_DRV/turbomem_track*.c $TM_SERIES_DRV/turbomem_track.h doc/guides/mempool/turbomem_held_example.txt" ;;
	7) echo "app/test/test_mempool_turbomem.c" ;;
	esac
}

# series_sections N: what patch N adds to the guide (its section titles,
# "|" between them) and, on a second line, where its part of the public
# header starts (a pattern of the line under its first doc comment).
series_sections() {
	case $1 in
	4) printf '%s\n' 'Pool Configuration|Pool Memory' '^#define RTE_PMD_TURBOMEM_ENV ' ;;
	5) printf '%s\n' 'Statistics and Telemetry' '^struct rte_pmd_turbomem_stats [{]' ;;
	6) printf '%s\n' 'Held Objects' '^enum rte_pmd_turbomem_holder_kind [{]' ;;
	esac
}

# series_later N LINE: line LINE (1: guide, 2: header) of series_sections
# of every patch after N, one each.
series_later() {
	local m
	for m in $(seq $(($1 + 1)) "$TM_SERIES_PATCHES"); do
		series_sections "$m" | sed -n "$2p"
	done
}

series_subject() {
	case $1 in
	1) echo "mempool/turbomem: introduce lock-free mempool driver" ;;
	2) echo "mempool/turbomem: add lock-free LIFO of object indexes" ;;
	3) echo "mempool/turbomem: add pool operations" ;;
	4) echo "mempool/turbomem: add pool memory on huge pages" ;;
	5) echo "mempool/turbomem: add statistics and telemetry" ;;
	6) echo "mempool/turbomem: add held-object tracking" ;;
	7) echo "test/mempool: add turbomem driver test" ;;
	esac
}

series_body() {
	case $1 in
	1) cat <<-'EOF'
	Ring and stack mempools serve every get and put that a mempool
	cache misses from one shared structure: with small caches, pipelines
	or unregistered threads that structure is the bottleneck, and pools
	made without hugepages sit on 4 KB pages, so every object costs TLB
	misses.

	The turbomem driver keeps free objects in a lock-free LIFO of object
	indexes and backs pools with transparent huge pages on the pool's
	NUMA node. This first patch adds the driver's build entry, its guide,
	the maintainers entry and the release note; the code follows.
	EOF
	;;
	2) cat <<-'EOF'
	The free objects of a pool are kept in a lock-free LIFO whose head
	is one 8-byte word (the top group and a tag), changed with one
	compare-and-swap per bulk get or put, so that a thread preempted or
	killed in a get or put holds up no other. Objects are 32-bit
	indexes, in groups of up to 32 whose members live in blocks of 16
	taken from a free list; an lcore that only frees pushes onto a list
	of its own, which a get takes whole when the head runs short.

	This is the algorithm a reviewer needs to read on its own, with the
	memory ordering of every atomic beside it. It is built here and used
	by the pool in the next patch.
	EOF
	;;
	3) cat <<-'EOF'
	The pool itself: the mempool ops mapping DPDK's all-or-nothing
	dequeue and never-failing enqueue onto the LIFO, and the object map
	from index to object and back. Objects are in the memory the
	mempool library reserves, as with any driver.

	The per-lcore counters of the fast path come with it, since the
	get path writes them; they are reported in a later patch. The hooks
	of pool memory and of held-object tracking are present and inert
	until those are added.
	EOF
	;;
	4) cat <<-'EOF'
	Without hugepages, EAL's memory is 4 KB pages and every object access
	risks a TLB miss. Give each pool made in --no-huge mode its own
	malloc heap of private anonymous memory, advised for transparent
	huge pages and bound to the NUMA node of the pool's socket before
	first touch; hugetlbfs memory is left as EAL gives it.

	Add the pool configuration (struct rte_pmd_turbomem_config, and the
	process defaults of TURBOMEM_CONFIG) and rte_pmd_turbomem_mem_info,
	which reports what backs a pool: bytes in huge pages, page size,
	backing kind, node and why THP or binding is off.
	EOF
	;;
	5) cat <<-'EOF'
	An operator sizing a pool needs to see how it is used: gets, puts,
	failed gets and contention per pool, and what backs its memory.
	Add rte_pmd_turbomem_stats_get/reset, summing the per-lcore counters,
	and the telemetry commands /turbomem/list and /turbomem/info.
	EOF
	;;
	6) cat <<-'EOF'
	When a pool runs dry the question is who holds its objects.
	Tracking records, per object, the lcore or thread that got it and
	when; reports group the objects out of the pool by holder, with ages,
	and list the oldest. It is off by default and can be switched on a
	running application through telemetry (/turbomem/held,
	/turbomem/track) or the API; records live in shared memory so that
	secondary processes show too.
	EOF
	;;
	7) cat <<-'EOF'
	Run the driver's contract in the fast-tests suite: all-or-nothing
	gets, counts, statistics and held-object reports of a turbomem pool,
	and the errors of the API on a pool of another driver.
	EOF
	;;
	esac
}

# series_claimed FILE: the patch whose globs name FILE, else the pool's
# for a driver file.
series_claimed() {
	local f=$1 n g
	for n in $(seq "$TM_SERIES_PATCHES"); do
		for g in $(series_files $n); do
			# shellcheck disable=SC2053
			[[ $f == $g ]] && { echo $n; return; }
		done
	done
	echo "$TM_SERIES_POOL"
}

# series_cut_header N FILE: the public header as patch N has it: without
# the parts of later patches (from the doc comment above the first one's
# start to the C++ tail).
series_cut_header() {
	local n=$1 f=$2 pat
	pat=$(series_later "$n" 2 | head -1)
	[ -n "$pat" ] || { cat "$f"; return; }
	awk -v pat="$pat" '
		{ l[NR] = $0 }
		$0 ~ pat && !cut { cut = NR }
		/^#ifdef __cplusplus/ { tail = NR }
		END {
			if (!cut || !tail) exit 1
			while (cut > 1 && l[cut] !~ /^\/\*\*/) cut--
			while (cut > 1 && l[cut - 1] == "") cut--
			for (i = 1; i < cut; i++) print l[i]
			print ""
			for (i = tail; i <= NR; i++) print l[i]
		}' "$f" || { echo "series: $f: no section /$pat/ or C++ tail" >&2; return 1; }
}

# series_cut_guide N FILE: the guide as patch N has it: without the
# sections (title and body, up to the next title of that level, and the
# label above the title) of later patches, and without the references in
# parentheses, " (`Title`_)", to them; any other reference to them fails.
series_cut_guide() {
	local n=$1 f=$2 drop
	drop=$(series_later "$n" 1 | paste -sd '|')
	[ -n "$drop" ] || { cat "$f"; return; }
	awk -v drop="$drop" '
		{ l[NR] = $0 }
		END {
			nd = split(drop, dt, "|")
			for (k = 1; k <= nd; k++)
				gone[dt[k]] = 1
			for (i = 1; i <= NR; i++) {
				if (i < NR && l[i + 1] ~ /^-+$/ && length(l[i + 1]) == length(l[i])) {
					skip = (l[i] in gone)
					found += skip
					for (j = i - 1; skip && j > 0 && (l[j] == "" || l[j] ~ /^\.\. _[^ ]+:$/); j--)
						if (l[j] != "")
							out[j] = 0
				}
				out[i] = !skip
			}
			for (i = 1; i <= NR; i++) {
				if (!out[i])
					continue
				s = l[i]
				for (k = 1; k <= nd; k++) {
					r = "`" dt[k] "`_"
					while ((p = index(s, " (" r ")")) > 0)
						s = substr(s, 1, p - 1) substr(s, p + length(r) + 3)
					if (index(s, r) > 0) {
						print "series: line " i ": " r " names a section of a later patch" > "/dev/stderr"
						bad = 1
					}
				}
				print s
			}
			if (found != nd || bad) exit 1
		}' "$f" || { echo "series: $f: a section of /$drop/ is missing or still named" >&2; return 1; }
}

# series_meson FILE PRESENT...: the driver's meson.build listing only the
# sources present.
series_meson() {
	local f=$1
	shift
	awk -v present=" $* " '
		/^headers = files\(\047[^\047]*\047\)$/ {
			name = $0
			gsub(/^headers = files\(\047|\047\)$/, "", name)
			if (index(present, " " name " ") == 0) next
		}
		/^sources = files\(/ { in_src = 1; print; next }
		in_src && /^\)/ { in_src = 0 }
		in_src {
			name = $0
			gsub(/[ \t,\047]/, "", name)
			if (index(present, " " name " ") == 0) next
		}
		{ print }' "$f"
}

# --- edits of DPDK's own files ---------------------------------------------

series_name() { echo "${TM_SERIES_AUTHOR%% <*}"; }

# series_edit N PATH IN OUT: DPDK's file PATH as patch N changes it.
series_edit() {
	local n=$1 path=$2 in=$3 out=$4
	case $n:$path in
	1:drivers/mempool/meson.build)
		awk '/^drivers = \[/ { d = 1 }
			d && /^\]/ { print "        \047turbomem\047,"; d = 0 }
			{ print }' "$in" > "$out" ;;
	1:MAINTAINERS)
		awk -v who="$TM_SERIES_AUTHOR" '
			{ print }
			/^F: doc\/guides\/mempool\/cnxk.rst$/ {
				print ""
				print "Turbomem lock-free mempool - EXPERIMENTAL"
				print "M: " who
				print "F: drivers/mempool/turbomem/"
				print "F: doc/guides/mempool/turbomem.rst"
			}' "$in" > "$out" ;;
	7:MAINTAINERS)
		awk '{ print }
			/^F: doc\/guides\/mempool\/turbomem.rst$/ {
				print "F: app/test/test_mempool_turbomem.c"
			}' "$in" > "$out" ;;
	1:.mailmap)
		LC_ALL=C awk -v who="$TM_SERIES_AUTHOR" '
			!done && tolower($0) > tolower(who) { print who; done = 1 }
			{ print }
			END { if (!done) print who }' "$in" > "$out" ;;
	1:doc/guides/mempool/index.rst)
		awk '{ print } /^    stack$/ { print "    turbomem" }' "$in" > "$out" ;;
	1:doc/guides/rel_notes/release_26_07.rst)
		awk '/^New Features/ { nf = 1 }
			nf && /^\* \*\*/ && ++items == 2 {
				print "* **Added turbomem mempool driver.**"
				print ""
				print "  Added a lock-free mempool driver backing pools with transparent huge pages"
				print "  on the pool'"'"'s NUMA node when EAL has no hugepages."
				print "  See the :doc:`../mempool/turbomem` guide for more details."
				print ""
			}
			{ print }' "$in" > "$out" ;;
	7:app/test/meson.build)
		awk '{ print } /^    \047test_mempool_perf.c\047:/ {
			print "    \047test_mempool_turbomem.c\047: [\047mempool_turbomem\047],"
		}' "$in" > "$out" ;;
	*) echo "series: no edit of $path in patch $n" >&2; return 1 ;;
	esac
	cmp -s "$in" "$out" && { echo "series: patch $n: $path unchanged (its anchor moved?)" >&2; return 1; }
	return 0
}

series_dpdk_edits() {
	case $1 in
	1) echo "drivers/mempool/meson.build MAINTAINERS .mailmap doc/guides/mempool/index.rst doc/guides/rel_notes/release_26_07.rst" ;;
	7) echo "MAINTAINERS app/test/meson.build" ;;
	esac
}

# --- the release tree ------------------------------------------------------

# series_tree TARBALL: a git tree of the release (commit tagged "base"),
# unpacked once into the cache; prints its directory. Callers hold
# series_lock.
series_root() {
	echo "$(dpdk_cache_dir)/series-$(sha256sum "$1" | cut -c1-16)"
}

series_tree() {
	local tarball=$1 root src
	root=$(series_root "$tarball")
	src=$root/src
	if ! git -C "$src" rev-parse -q --verify base >/dev/null 2>&1; then
		rm -rf "$src"
		mkdir -p "$src"
		echo "series: unpacking ${tarball##*/} into $src (git)" >&2
		tar -xf "$tarball" -C "$src" --strip-components=1 || return 1
		(cd "$src" && git init -q && git add -A &&
			git -c user.name=tm -c user.email=tm@localhost commit -qm base &&
			git tag base) >&2 || return 1
	fi
	echo "$src"
}

# series_commit SRC PARENT N: commit patch N on PARENT without touching
# the work tree (a private index); prints the commit.
series_commit() {
	local tmp rc=0
	tmp=$(mktemp -d) || return 1
	series_commit_in "$tmp" "$@" || rc=$?
	rm -rf "$tmp"
	return $rc
}

# series_commit_in TMP SRC PARENT N: series_commit's work, in TMP.
series_commit_in() {
	local tmp=$1 src=$2 parent=$3 n=$4 f g rel present=() idx
	idx=$tmp/index
	export GIT_INDEX_FILE=$idx
	git -C "$src" read-tree "$parent" || return 1
	put() { # PATH FILE
		git -C "$src" update-index --add --cacheinfo \
			"100644,$(git -C "$src" hash-object -w --path="$1" "$2"),$1"
	}
	# Driver files: those claimed by patches <= n; the header, the track
	# hooks, the guide and meson.build as patch n has them.
	for f in "$tm_top/$TM_SERIES_DRV"/*; do
		rel=${f#"$tm_top"/}
		[ "$(series_claimed "$rel")" -le "$n" ] || continue
		present+=("${rel##*/}")
	done
	# The pool's hooks into features of later patches, inert until those
	# (scripts/series/).
	for f in "$tm_top"/scripts/series/*.h; do
		[ "$n" -ge "$TM_SERIES_POOL" ] &&
			[ "$(series_claimed "$TM_SERIES_DRV/${f##*/}")" -gt "$n" ] && present+=("${f##*/}")
	done
	for f in "${present[@]}"; do
		rel=$TM_SERIES_DRV/$f
		case $f in
		meson.build)
			series_meson "$tm_top/$rel" "${present[@]}" > "$tmp/f" ;;
		rte_pmd_turbomem.h)
			series_cut_header "$n" "$tm_top/$rel" > "$tmp/f" ;;
		*)	if [ "$(series_claimed "$rel")" -gt "$n" ]; then cp "$tm_top/scripts/series/$f" "$tmp/f"
			else cp "$tm_top/$rel" "$tmp/f"; fi ;;
		esac || return 1
		put "$rel" "$tmp/f" || return 1
	done
	for g in $(series_files "$n"); do
		case $g in
		$TM_SERIES_DRV/*) ;;
		doc/guides/mempool/turbomem.rst) ;;
		*) [ -e "$tm_top/$g" ] || { echo "series: $g: not in the repository" >&2; return 1; }
			put "$g" "$tm_top/$g" || return 1 ;;
		esac
	done
	rel=doc/guides/mempool/turbomem.rst
	series_cut_guide "$n" "$tm_top/$rel" > "$tmp/f" && put "$rel" "$tmp/f" || return 1
	for rel in $(series_dpdk_edits "$n"); do
		git -C "$src" show "$parent:$rel" > "$tmp/in" || return 1
		series_edit "$n" "$rel" "$tmp/in" "$tmp/f" && put "$rel" "$tmp/f" || return 1
	done
	local tree msg
	tree=$(git -C "$src" write-tree) || return 1
	unset GIT_INDEX_FILE
	msg=$(printf '%s\n\n%s\n\nSigned-off-by: %s\n' "$(series_subject "$n")" \
		"$(series_body "$n" | sed 's/^\t//')" "$TM_SERIES_AUTHOR")
	# Fixed dates: the same files make the same commits.
	GIT_AUTHOR_NAME=$(series_name) GIT_AUTHOR_EMAIL=$(sed 's/.*<\(.*\)>.*/\1/' <<<"$TM_SERIES_AUTHOR") \
	GIT_COMMITTER_NAME=$(series_name) GIT_COMMITTER_EMAIL=$(sed 's/.*<\(.*\)>.*/\1/' <<<"$TM_SERIES_AUTHOR") \
	GIT_AUTHOR_DATE="2026-07-31T00:00:00Z" GIT_COMMITTER_DATE="2026-07-31T00:00:00Z" \
		git -C "$src" commit-tree "$tree" -p "$parent" -m "$msg"
}

# series_build_commits SRC: the series' commits on base; prints the last.
series_build_commits() {
	local src=$1 c n
	c=$(git -C "$src" rev-parse base) || return 1
	for n in $(seq "$TM_SERIES_PATCHES"); do
		c=$(series_commit "$src" "$c" "$n") || { echo "series: patch $n failed" >&2; return 1; }
	done
	echo "$c"
}

# series_sizes DIR: files and added lines per patch.
series_sizes() {
	local p
	printf '%-58s %5s %6s\n' patch files added
	for p in $(series_patches "$1"); do
		printf '%-58s %5d %6d\n' "${p##*/}" "$(grep -c '^+++ b/' "$p")" \
			"$(awk '/^---$/ { d = 1 } d && /^\+/ && !/^\+\+\+ (b\/|\/dev\/null)/ { n++ }
				END { print n + 0 }' "$p")"
	done
}

# series_generate OUTDIR: the patch files; prints their directory.
series_generate() {
	local out tarball root src last
	out=$(realpath -m "${1:-$tm_top/build-series}")
	tarball=$(dpdk_tarball "$TM_SERIES_VERSION") || return 1
	root=$(series_root "$tarball")
	mkdir -p "$root" "$out"
	(
	flock 9
	src=$(series_tree "$tarball") || exit 1
	last=$(series_build_commits "$src") || exit 1
	rm -rf "$out/patches"
	git -C "$src" format-patch -q --no-signature --cover-letter -o "$out/patches" \
		"base..$last" || exit 1
	) 9> "$root/lock" || return 1
	series_cover "$out/patches/0000-cover-letter.patch" || return 1
	echo "$out/patches"
}

# series_patches DIR: the patch files of the series, the cover letter left
# out (git am and checkpatches take patches).
series_patches() {
	ls "$1"/*.patch | grep -v '/0000-cover-letter\.patch$'
}

# series_cover_findings FILE: 0 where the cover letter is there, filled in
# (no git placeholder) and names ring_mp_mc, lf_stack and pile; else 1.
series_cover_findings() {
	[ -f "$1" ] && ! grep -q '^\*\*\* .* HERE \*\*\*$' "$1" &&
		grep -q ring_mp_mc "$1" && grep -q lf_stack "$1" && grep -q 'pile' "$1" &&
		echo 0 || echo 1
}

# series_cover FILE: patch 0, git's cover letter filled in: what the driver
# adds beside DPDK's ring, stack and pile, and the figures of README.rst's
# block, which scripts/bench.sh results generates (with the machine and
# commit they come from), as text.
series_cover() {
	/usr/bin/python3 - "$1" "$tm_top/README.rst" <<'PY'
import re
import sys

cover, readme = sys.argv[1], sys.argv[2]
text = open(readme).read()
m = re.search(r"^\.\. results-begin .*?\n(.*?)^\.\. results-end$", text, re.S | re.M)
if not m:
    sys.exit("series: README.rst has no results block")
rows, row, tail = [], None, []
for line in m.group(1).splitlines():
    if line.startswith("   * - "):
        row = [line[7:]]
        rows.append(row)
    elif line.startswith("     - ") and row is not None:
        row.append(line[7:])
    elif rows and line.strip() and not line.startswith(" "):
        tail.append(line)
if len(rows) < 2:
    sys.exit("series: README.rst's results block has no table")
clean = lambda c: re.sub(r"``([^`]*)``", r"\1", c)
rows = [[clean(c) for c in r] for r in rows]
w = [max(len(r[i]) for r in rows if i < len(r)) for i in range(len(rows[0]))]
table = ["  " + "  ".join(c.ljust(w[i]) if i == 0 else c.rjust(w[i])
                          for i, c in enumerate(r)).rstrip() for r in rows]
where = " ".join(clean(re.sub(r"`([^<`]*) <([^>]*)>`__", r"\2", l)) for l in tail)
blurb = """turbomem is a mempool driver (ops "turbomem") built on a lock-free LIFO of
object groups: a get or put of any bulk commits with one 8-byte
compare-and-swap, a get is all-or-nothing, a put never fails, and no
thread ever waits for another. What it adds beside DPDK's handlers:

- ring_mp_mc: a thread preempted, stopped or killed inside a get or put
  stops nobody (the ring's tail waits for it), so pools shared by more
  threads than cores, unregistered threads and secondary processes keep
  going;
- stack, lf_stack: one CAS per bulk of any size, not a lock, nor a CAS
  per object;
- pile (26.11): no 16-byte CAS; an exact count at rest that never passes
  the pool's size, and puts that never fail (pile's count is a lower
  bound, and its put fails with -ENOBUFS once its elements run out,
  which rte_mempool_put() ignores); faster where the driver is reached
  often (no mempool cache, pipelines, oversubscribed lcores). pile takes
  less memory per object, and matches turbomem where a mempool cache on
  every lcore absorbs the traffic;
- --no-huge pools in NUMA-bound transparent huge pages, a memory
  report, and telemetry of who holds a pool's objects.

Figures, each a ratio to ring_mp_mc measured in the same run (the
results page of the guide gives every cell):

%s

%s
Command: TM_BENCH_DPDK=26.07-pile scripts/bench.sh results (on a DPDK
with pile; on one without, pile is skipped with the reason).""" % (
    "\n".join(table), where)
c = open(cover).read()
if "*** SUBJECT HERE ***" not in c or "*** BLURB HERE ***" not in c:
    sys.exit("series: git's cover letter has no placeholders")
c = c.replace("*** SUBJECT HERE ***", "mempool/turbomem: lock-free mempool driver")
c = c.replace("*** BLURB HERE ***", blurb)
open(cover, "w").write(c)
PY
}

# --- the checks ------------------------------------------------------------

# Findings per check, for the table: series_result NAME FINDINGS NOTE.
series_result() {
	printf '%-16s %8s  %s\n' "$1" "$2" "$3" >> "$work/results.txt"
	log "series: $1: $2 ${3:+($3)}"
	[ "$2" = 0 ] || [ "$2" = n/a ] || failed=$((failed + 1))
}

# The checkpatch.pl that deps.sh extracted from Debian's linux-source.
series_checkpatch() {
	local cp=${TM_CHECKPATCH:-$(dpdk_cache_dir)/checkpatch/scripts/checkpatch.pl}
	[ -x "$cp" ] || { echo "series: no checkpatch.pl at $cp (scripts/deps.sh series)" >&2; return 1; }
	echo "$cp"
}

# series_configure DIR SRC CC [OPTION...]: configure (once) a build of the
# tree: the matrix's minimal driver and library set, dpdk-test, -Werror.
series_configure() {
	local b=$1 src=$2 cc=$3 opts
	shift 3
	[ -e "$b/build.ninja" ] && return 0
	rm -rf "$b"
	read -r -a opts <<<"$(_dpdk_options "$src" | tr '\n' ' ')"
	CC=$cc PATH=/usr/bin:$PATH /usr/bin/python3 "$(command -v meson)" setup "$b" "$src" \
		-Ddefault_library=shared "${opts[@]}" -Dwerror=true "$@" > "$b.setup.log" 2>&1 ||
		{ tail -30 "$b.setup.log" >&2; rm -rf "$b"; return 1; }
}

series_ninja() { # DIR [TARGET...]
	local b=$1
	shift
	PATH=/usr/bin:$PATH nice ninja -C "$b" "$@"
}

# series_targets DIR: what the gcc build makes at each patch: every
# library and program (with what they need) and symbol check, and of the
# check_includes objects only those of rte_pmd_turbomem.h, in C and C++.
# DPDK's other headers do not change in the series, and compiling every
# one of them alone, twice, was two thirds of the cold cell (2449 of 3367
# CPU seconds). build.ninja is regenerated first: a patch may add targets.
series_targets() {
	series_ninja "$1" build.ninja >/dev/null || return 1
	ninja -C "$1" -t targets all | awk -F': ' '
		$1 ~ /^buildtools\/chkincs\// { if ($1 ~ /rte_pmd_turbomem\.(c|cpp)\.o$/) print $1; next }
		$2 ~ /LINKER/ || $1 ~ /\.sym_chk$/ { print $1 }'
}

# series_autotest DIR NAME: a DPDK autotest of the tree's dpdk-test on
# turbomem; the build's drivers loaded with -d, as DPDK's meson test does
# for a shared build.
series_autotest() {
	local out rc=0
	out=$(DPDK_TEST=$2 "$1/app/dpdk-test" --no-huge -m 512 --no-pci -l 0-1 -d "$1/drivers" \
		--no-shconf --file-prefix="tm-series-$2-$$" --log-level='*turbomem:info' \
		--mbuf-pool-ops-name=turbomem 2>&1) || rc=$?
	eal_remove "tm-series-$2-$$"
	printf '%s\n' "$out" | tail -5
	# A pool used turbomem: its memory report (from the pool memory
	# patch on) or a dump naming its ops.
	echo "turbomem pools: $(grep -c 'turbomem: pool ' <<<"$out") reported, $(grep -c 'ops_name: <turbomem>' <<<"$out") dumped"
	[ $rc -eq 0 ] && grep -q 'Test OK' <<<"$out" && grep -qE 'turbomem: pool |ops_name: <turbomem>' <<<"$out"
}

series_check() {
	local tarball root src out n c commits=() t0=$SECONDS t
	work=$(realpath -m "${1:-$tm_top/build-series}")
	failed=0
	mkdir -p "$work/logs"
	: > "$work/results.txt"
	: > "$work/logs/tools-per-patch.log"
	tarball=$(dpdk_tarball "$TM_SERIES_VERSION") || return 1
	root=$(series_root "$tarball")
	series_generate "$work" >/dev/null || { series_result generate 1 "no series"; return 1; }
	series_sizes "$work/patches" | tee "$work/sizes.txt"
	exec 9> "$root/lock"
	flock 9
	# The same series checked by the same tools gives the same results:
	# a run whose key was checked before prints those.
	local key=$root/results/$(series_key "$tarball" "$work/patches")
	if [ -e "$key/status" ] && [ "${TM_SERIES_FORCE:-0}" != 1 ]; then
		rm -rf "$work/logs" && cp -r "$key/logs" "$work/logs"
		cp "$key/results.txt" "$work/results.txt"
		failed=$(cat "$key/status")
		series_table "$t0" "cached: this series was checked on $(date -r "$key/status" '+%F %T'); TM_SERIES_FORCE=1 checks it again"
		return
	fi
	src=$root/src
	# git am of the whole series on the release.
	(cd "$src" && git am --abort >/dev/null 2>&1; git checkout -q -f --detach base &&
		git clean -qfd -e /build && git -c user.name=tm -c user.email=tm@localhost \
		am -q $(series_patches "$work/patches")) > "$work/logs/am.log" 2>&1
	series_result "git am" $? "$(series_patches "$work/patches" | wc -l) patches on v$TM_SERIES_VERSION"
	series_result "cover letter" "$(series_cover_findings "$work/patches/0000-cover-letter.patch")" \
		"patch 0: beside ring, stack and pile, with the README's figures"
	mapfile -t commits < <(git -C "$src" rev-list --reverse base..HEAD)
	[ ${#commits[@]} -eq "$TM_SERIES_PATCHES" ] || { series_result "git am" 1 "${#commits[@]} commits applied"; return 1; }
	series_same "$src" > "$work/logs/same.log" 2>&1
	series_result "same files" "$(grep -c . "$work/logs/same.log")" \
		"driver, guide and test files that differ between the series and the repository"

	# Each patch built with gcc; mempool_autotest after the pool patches.
	series_configure "$root/build-gcc" "$src" gcc -Dcheck_includes=true ||
		{ series_result build-gcc 1 "configure failed"; return 1; }
	local bad=0 targets
	for n in $(seq "$TM_SERIES_PATCHES"); do
		c=${commits[$((n - 1))]}
		git -C "$src" checkout -q "$c"
		t=$SECONDS
		if mapfile -t targets < <(series_targets "$root/build-gcc") &&
			series_ninja "$root/build-gcc" "${targets[@]}" > "$work/logs/gcc-$n.log" 2>&1; then
			log "series: patch $n built with gcc in $((SECONDS - t)) s"
		else
			bad=$((bad + 1))
			grep -E -A5 'error|FAILED' "$work/logs/gcc-$n.log" | head -30 >&2
		fi
		# The guide's tools of no build, per patch.
		series_tools_patch "$src" "$n" >> "$work/logs/tools-per-patch.log" 2>&1
		if [ "$n" -ge "$TM_SERIES_POOL" ] && [ "$n" -le $((TM_SERIES_POOL + 1)) ]; then
			series_autotest "$root/build-gcc" mempool_autotest > "$work/logs/pool-$n-mempool.log" 2>&1
			series_result "patch $n test" $? "mempool_autotest on turbomem"
		fi
	done
	series_result "build gcc" $bad "patches that fail ninja, -Dwerror=true"
	series_result "tools per patch" "$(grep -c '^finding' "$work/logs/tools-per-patch.log")" \
		"check-meson.py, check-spdx-tag.sh, check-doc-vs-code.sh, the guide's references, each patch"
	grep -h 'turbomem' "$work"/logs/gcc-*.log | grep -c 'warning' > "$work/logs/gcc-warnings" || true
	# check_includes: the public header alone in C and C++.
	local objc objcpp
	objc=$(find "$root/build-gcc/buildtools/chkincs" -name '*rte_pmd_turbomem.c.o' | wc -l)
	objcpp=$(find "$root/build-gcc/buildtools/chkincs" -name '*rte_pmd_turbomem.cpp.o' | wc -l)
	if [ "$bad" = 0 ] && [ "$objc" -ge 1 ] && [ "$objcpp" -ge 1 ]; then
		series_result check_includes 0 "rte_pmd_turbomem.h alone: $objc C and $objcpp C++ objects"
	else
		series_result check_includes 1 "rte_pmd_turbomem.h alone: $objc C and $objcpp C++ objects"
	fi

	series_configure "$root/build-clang" "$src" clang ||
		{ series_result build-clang 1 "configure failed"; return 1; }
	series_ninja "$root/build-clang" > "$work/logs/clang.log" 2>&1
	series_result "build clang" $? "last patch, -Dwerror=true"

	# Tests of the whole series.
	(cd "$root/build-gcc" && PATH=/usr/bin:$PATH meson test -q --no-rebuild --suite fast-tests \
		turbomem_autotest --print-errorlogs) > "$work/logs/fast-tests.log" 2>&1
	rc=$?
	# DPDK's test suite names the runtime directory after the test.
	eal_remove turbomem_autotest
	grep -q 'Ok: *1' "$work/logs/fast-tests.log" || rc=1
	series_result fast-tests $rc "meson test --suite fast-tests turbomem_autotest"
	for t in mempool_autotest mbuf_autotest; do
		series_autotest "$root/build-gcc" $t > "$work/logs/$t.log" 2>&1
		series_result "$t" $? "--mbuf-pool-ops-name=turbomem"
	done

	# DPDK's tools.
	series_tools "$src" "$work" "$root"
	series_docs "$src" "$root" "$work"
	git -C "$src" checkout -q base
	rm -rf "$key"
	mkdir -p "$key"
	cp -r "$work/logs" "$work/results.txt" "$key/"
	echo "$failed" > "$key/status"
	ls -dt "$root"/results/* | tail -n +6 | xargs -r rm -rf
	series_table "$t0" ""
}

# series_table T0 NOTE: the sizes and the findings; fails if any.
series_table() {
	echo
	echo "turbomem series on DPDK $TM_SERIES_VERSION ($(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $((SECONDS - $1)) s; logs in $work/logs)"
	[ -z "$2" ] || echo "$2"
	cat "$work/sizes.txt"
	printf '%-16s %8s  %s\n' check findings note
	cat "$work/results.txt"
	echo "failed: $failed"
	[ "$failed" -eq 0 ]
}

# series_key TARBALL PATCHDIR: what the results depend on: the release,
# the patches, these scripts, the compilers and the tools.
series_key() {
	{
		sha256sum "$1" | cut -c1-16
		cat "$2"/*.patch "$tm_top/scripts/series.sh" "$tm_top/scripts/dpdk.sh"
		gcc --version | head -1
		clang --version 2>/dev/null | head -1
		spatch --version 2>/dev/null | head -1
		cat "$(series_checkpatch 2>/dev/null)" 2>/dev/null
		echo "${TM_SERIES_DOCS:-1}"
	} | sha256sum | cut -c1-16
}

# series_same SRC [REV]: the repository's files of the series that the applied
# series (HEAD) does not hold as they are, one line each; compat/ is the
# one part left out.
series_same() {
	local src=$1 rev=${2:-HEAD} f rel
	for f in "$tm_top/$TM_SERIES_DRV"/* "$tm_top"/doc/guides/mempool/turbomem.rst \
			"$tm_top"/doc/guides/mempool/turbomem_held_example.txt \
			"$tm_top"/app/test/test_mempool_turbomem.c; do
		rel=${f#"$tm_top"/}
		git -C "$src" show "$rev:$rel" 2>/dev/null | cmp -s - "$f" || echo "differs: $rel"
	done
	git -C "$src" ls-tree --name-only "$rev" "$TM_SERIES_DRV/" | while read -r rel; do
		[ -e "$tm_top/$rel" ] || echo "only in the series: $rel"
	done
}

# series_tools_patch SRC N: check-meson.py, check-spdx-tag.sh and
# check-doc-vs-code.sh on the tree at patch N; "finding" lines.
series_tools_patch() {
	local src=$1 n=$2
	(
	cd "$src" || exit 1
	python3 devtools/check-meson.py 2>&1 |
		grep -E 'turbomem|app/test/meson.build|drivers/mempool/meson.build' | sed "s/^/finding patch $n check-meson: /"
	devtools/check-spdx-tag.sh 2>&1 | grep -i turbomem | sed "s/^/finding patch $n spdx: /"
	devtools/check-doc-vs-code.sh 2>&1 | sed "s/^/finding patch $n doc-vs-code: /"
	# The guide as this patch has it: every `Section`_ names a section
	# of it (the docs build runs on the last patch only).
	[ -e doc/guides/mempool/turbomem.rst ] && awk '
		{ l[NR] = $0 }
		END {
			for (i = 1; i < NR; i++)
				if (l[i + 1] ~ /^[-=~^]+$/ && length(l[i + 1]) == length(l[i]))
					title[l[i]] = 1
			for (i = 1; i <= NR; i++) {
				s = l[i]
				while (match(s, /`[^`<]+`_/)) {
					t = substr(s, RSTART + 1, RLENGTH - 3)
					if (!(t in title))
						print "finding patch '"$n"' guide: line " i ": `" t "`_ names no section"
					s = substr(s, RSTART + RLENGTH)
				}
			}
		}' doc/guides/mempool/turbomem.rst
	)
}

# series_tools SRC WORK ROOT: devtools on the applied series (HEAD).
series_tools() {
	local src=$1 work=$2 root=$3 cp out n valid
	cd "$src" || return 1
	if cp=$(series_checkpatch); then
		out=$(DPDK_CHECKPATCH_PATH=$cp DPDK_CHECKPATCH_CODESPELL=/usr/share/codespell/dictionary.txt \
			devtools/checkpatches.sh $(series_patches "$work/patches") 2>&1)
		printf '%s\n' "$out" > "$work/logs/checkpatches.log"
		n=$(grep -cE '^(WARNING|ERROR|CHECK):' <<<"$out" || true)
		grep -q 'valid patch' <<<"$out" && ! grep -q 'Invalid patch' <<<"$out" || n=$((n > 0 ? n : 1))
		# DPDK's own rules (forbidden tokens) print no WARNING: line;
		# a patch they refuse is one that is not "valid".
		valid=$(grep -oE '[0-9]+/[0-9]+ valid patch' <<<"$out" | head -1 | cut -d' ' -f1)
		[ -z "$valid" ] || [ $((${valid#*/} - ${valid%/*})) -le "$n" ] ||
			n=$((${valid#*/} - ${valid%/*}))
		series_result checkpatches "$n" "$(grep -E '[0-9]+/[0-9]+ valid patch' <<<"$out" | head -1)"
	else
		series_result checkpatches 1 "no checkpatch.pl"
	fi
	out=$(devtools/check-git-log.sh -r base..HEAD 2>&1)
	printf '%s\n' "$out" > "$work/logs/check-git-log.log"
	n=$(grep -c $'^\t' <<<"$out" || true)
	grep -q 'valid patch' <<<"$out" && ! grep -q 'Invalid' <<<"$out" || n=$((n > 0 ? n : 1))
	series_result check-git-log "$n" "$(tail -1 <<<"$out")"
	out=$(python3 devtools/check-meson.py 2>&1 | grep -E 'turbomem|app/test/meson.build|drivers/mempool/meson.build')
	printf '%s\n' "$out" > "$work/logs/check-meson.log"
	series_result check-meson "$(grep -c . <<<"$out" || true)" "findings in the files of the series"
	out=$(devtools/check-spdx-tag.sh 2>&1)
	printf '%s\n' "$out" > "$work/logs/check-spdx-tag.log"
	n=$(grep -cE 'turbomem' <<<"$out" || true)
	series_result check-spdx-tag "$n" "files of the series named (tree total: $(grep -c . <<<"$out"))"
	out=$(devtools/check-doc-vs-code.sh 2>&1)
	printf '%s\n' "$out" > "$work/logs/check-doc-vs-code.log"
	series_result check-doc-vs-code "$(grep -c . <<<"$out" || true)" "compares the flow tables of net drivers' guides with code"
	series_cocci "$src" "$work"
	series_iwyu "$src" "$root" "$work"
	cd "$tm_top" || return 1
}

# series_iwyu SRC ROOT WORK: new_driver.rst's "unused headers", as DPDK
# finds them: include-what-you-use on the driver's and the test's sources
# (the clang build's compile_commands.json: no check_includes objects to
# rebuild), then devtools/process-iwyu.py, which removes each include IWYU
# calls unused and keeps the removal where the build still passes. A kept
# removal is a finding; the tree is restored after.
series_iwyu() {
	local src=$1 b=$2/build-clang work=$3 f files=() n
	command -v iwyu_tool >/dev/null ||
		{ series_result iwyu 1 "iwyu_tool not found (scripts/deps.sh series)"; return; }
	# Paths relative to the build: process-iwyu.py skips absolute ones.
	for f in "$src"/drivers/mempool/turbomem/*.c "$src"/app/test/test_mempool_turbomem.c; do
		files+=("$(realpath --relative-to="$b" "$f")")
	done
	(cd "$b" && nice iwyu_tool -p . -j "$(nproc)" "${files[@]}") > "$work/logs/iwyu.log" 2>&1
	(cd "$work/logs" && PATH=/usr/bin:$PATH /usr/bin/python3 "$src/devtools/process-iwyu.py" \
		-b "$b" -d turbomem "$work/logs/iwyu.log") > "$work/logs/process-iwyu.out" 2>&1
	n=$(grep -c 'SUCCESS$' "$work/logs/process-iwyu.out" || true)
	git -C "$src" diff > "$work/logs/iwyu-removals.diff"
	git -C "$src" checkout -q -f HEAD
	grep -q 'should remove' "$work/logs/iwyu.log" ||
		{ series_result iwyu 1 "no IWYU report (logs/iwyu.log)"; return; }
	series_result iwyu "$n" "includes process-iwyu.py removes with the build passing ($(grep -c 'skipped$\|FAILED$' "$work/logs/process-iwyu.out") kept: needed, or rte_string_fns.h with libbsd)"
}

# cocci.sh over the files of the series: each semantic patch of
# devtools/cocci/ (as cocci.sh runs them) on drivers/mempool/turbomem and
# the test; a finding is a diff.
series_cocci() {
	local src=$1 work=$2 c n=0 out
	command -v spatch >/dev/null || { series_result cocci.sh 1 "spatch not found (scripts/deps.sh series)"; return; }
	: > "$work/logs/cocci.log"
	for c in "$src"/devtools/cocci/*.cocci; do
		for t in drivers/mempool/turbomem app/test/test_mempool_turbomem.c; do
			out=$(cd "$src" && nice spatch --sp-file "$c" -c --linux-spacing --very-quiet \
				--include-headers --preprocess --dir "$t" 2>&1) ||
				out="spatch failed: $out"$'\n@@'
			[ -z "$out" ] && continue
			printf '=== %s on %s\n%s\n' "${c#"$src"/}" "$t" "$out" >> "$work/logs/cocci.log"
			n=$((n + $(grep -c '^@@' <<<"$out")))
		done
	done
	series_result cocci.sh "$n" "hunks that devtools/cocci/*.cocci would change (cocci.sh's spatch options)"
}

# series_docs SRC ROOT WORK: the guides built by DPDK's doc build
# (-Denable_docs=true, sphinx); warnings naming the new guide or its index
# and release-note entries. Cached by the hash of doc/.
series_docs() {
	local src=$1 root=$2 work=$3 b=$2/build-doc key n
	[ "${TM_SERIES_DOCS:-1}" = 0 ] && { series_result docs n/a "TM_SERIES_DOCS=0"; return; }
	key=$(git -C "$src" rev-parse HEAD:doc)
	if [ ! -e "$b/doc-ok-$key" ]; then
		if [ ! -e "$b/build.ninja" ]; then
			rm -rf "$b"
			PATH=/usr/bin:$PATH /usr/bin/python3 "$(command -v meson)" setup "$b" "$src" \
				-Denable_docs=true -Denable_drivers=mempool/ring \
				-Ddisable_libs='*' -Ddisable_apps='*' -Dtests=false > "$b.setup.log" 2>&1 ||
				{ tail -20 "$b.setup.log" >&2; series_result docs 1 "configure failed"; return; }
		fi
		rm -f "$b"/doc-ok-*
		series_ninja "$b" doc/guides/html > "$work/logs/docs.log" 2>&1
		[ $? -eq 0 ] && touch "$b/doc-ok-$key"
		cp "$work/logs/docs.log" "$b/doc-log-$key"
	else
		cp "$b/doc-log-$key" "$work/logs/docs.log"
	fi
	n=$(grep -ciE '(turbomem|mempool/index|release_26_07).*(warning|error)' "$work/logs/docs.log" || true)
	[ -e "$b/doc-ok-$key" ] || n=$((n > 0 ? n : 1))
	# The guide shows up in the mempool index page.
	grep -q 'href="turbomem.html"' "$b/doc/guides/html/mempool/index.html" 2>/dev/null ||
		{ echo "turbomem.html not linked from mempool/index.html" >> "$work/logs/docs.log"; n=$((n + 1)); }
	series_result docs "$n" "sphinx warnings naming the guide, its index or the release notes; guide in the index"
}

# Sourced: the functions only.
[ "${BASH_SOURCE[0]}" = "$0" ] || return 0

set -uo pipefail
find_meson
case ${1:-} in
generate)
	d=$(series_generate "${2:-}") || die "no series"
	log "series in $d"
	series_sizes "$d" ;;
check)
	series_check "${2:-}" ;;
*)
	die "usage: series.sh generate|check [DIR]" ;;
esac
