#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# series-bad-input.sh TOP: scripts/series.sh generate makes the series from
# a copy of TOP's files as they are, and fails, naming the cause, where the
# guide or the public header cannot be cut by patch (README.rst gives the
# cover letter its figures): a reference to a
# section of a later patch outside parentheses, a section of a later patch
# renamed, the public header without its C++ tail; and leaves no
# temporary file either way.
top=$1
. "$(cd "$(dirname "$0")" && pwd)/expect.sh"
release_work "$top"
bad=0
mkdir "$d/c"
(cd "$top" && tar -cf - scripts drivers/mempool/turbomem doc/guides/mempool \
	app/test/test_mempool_turbomem.c README.rst) | tar -xf - -C "$d/c" || exit 1
cd "$d/c" || exit 1
guide=doc/guides/mempool/turbomem.rst
hdr=drivers/mempool/turbomem/rte_pmd_turbomem.h

run() { # WANT-RC PATTERN WHAT; and no temporary file left
	mkdir -p "$d/tmp"
	out=$(TMPDIR=$d/tmp bash scripts/series.sh generate "$d/out" 2>&1)
	expect $? "$@"
	left=$(ls -A "$d/tmp")
	[ -z "$left" ] || { echo "FAIL: $3: left in TMPDIR: $left"; bad=1; rm -rf "$d/tmp"; }
}

run 0 "0007-test-mempool-add-turbomem-driver-test.patch" "the files as they are"
cp $guide "$d/guide"
sed -i '0,/^When to Use It$/s//See `Pool Memory`_.\n\n&/' $guide
run 1 "line [0-9]*: \`Pool Memory\`_ names a section of a later patch" \
	"a reference to Pool Memory outside parentheses"
cp "$d/guide" $guide
sed -i 's/^Held Objects$/Held Objectz/' $guide
run 1 "a section of /.*Held Objects/ is missing" "the Held Objects section renamed"
cp "$d/guide" $guide
sed -i '/^#ifdef __cplusplus$/d' $hdr
run 1 "rte_pmd_turbomem.h: no section .* or C++ tail" "the header without its C++ tail"
exit $bad
