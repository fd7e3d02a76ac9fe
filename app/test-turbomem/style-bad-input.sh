#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# style-bad-input.sh TOP: scripts/check-style.sh fails, naming the finding,
# on a clone of TOP given an .rst line of 101 columns, and on one given a
# commit whose subject DPDK's check-git-log.sh refuses; it passes on the
# clone as it is. Skips (77) where TOP is not a git checkout with the
# commit that added the check.
top=$1
. "$(cd "$(dirname "$0")" && pwd)/expect.sh"
git -C "$top" log --format=%H --diff-filter=A -- scripts/check-style.sh | grep -q . ||
	{ echo "SKIP: $top has no commit adding scripts/check-style.sh"; exit 77; }
# The clone's origin is TOP, so the release tarball is found from TOP.
release_work "$top"
bad=0
git clone -q "$top" "$d/c" || exit 1
cd "$d/c" || exit 1
git config user.name "Seed 16880df6 maintainers"
git config user.email maintainers@users.noreply.a-seed-16880df6.example

run() { # WANT-RC PATTERN WHAT
	out=$(bash scripts/check-style.sh 2>&1)
	expect $? "$@"
}

run 0 "no line over 100 columns" "the tree as it is"
printf '%0101d\n' 0 >> doc/index.rst
run 1 "doc/index.rst:.*101 columns" "a line of 101 columns"
git checkout -q -- doc/index.rst
echo x >> doc/index.rst
git commit -q -s -m "Doc: A subject that DPDK refuses, with an uppercase word." doc/index.rst
run 1 "log: finding: Wrong headline" "a refused subject"
exit $bad
