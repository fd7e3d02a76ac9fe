#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# plugin-stage.sh WITH_PLUGIN PLUGIN
#  scripts/with-plugin.sh's staging of a plugin that sits under a
#  world-writable directory (EAL refuses -d there), in a private
#  TM_PLUGIN_STAGE:
#  1. the first run copies it (same bytes, mode 0755, no temporary file
#     left);
#  2. a second run, while a process still has the copy open and mapped,
#     leaves that file alone (same inode): rewriting a mapped library in
#     place kills the process that mapped it (SIGBUS), which is what two
#     tests run in parallel did;
#  3. a damaged copy (truncated) is replaced by a complete one, by rename:
#     the process holding the old file keeps its bytes.
set -euo pipefail

wp=$1
plugin=$2
fail() { echo "FAIL: $*"; exit 1; }

src=$(mktemp -d /tmp/tm-stage-src.XXXXXX)
chmod 0777 "$src"
stage=${HOME:-/root}/.cache/tm-stage-test-$$
holder=
cleanup() {
	[ -z "$holder" ] || { kill "$holder" 2>/dev/null; wait "$holder" 2>/dev/null; } || true
	rm -rf "$src" "$stage"
}
trap cleanup EXIT
cp "$plugin" "$src/"
p=$src/$(basename "$plugin")
export TM_PLUGIN_STAGE=$stage

s1=$("$wp" "$p" echo @PLUGIN@)
case $s1 in "$stage"/*) ;; *) fail "not staged under $stage: $s1" ;; esac
cmp "$p" "$s1" || fail "the staged copy differs from the plugin"
[ "$(stat -c %a "$s1")" = 755 ] || fail "mode $(stat -c %a "$s1"), want 755"
left=$(find "$stage" -name '.stage.*')
[ -z "$left" ] || fail "temporary files left: $left"
echo "ok: staged $s1"

# A process holding the staged copy, mapped (as EAL's dlopen does).
python3 -c 'import mmap, sys, time
f = open(sys.argv[1], "rb"); m = mmap.mmap(f.fileno(), 0, prot=mmap.PROT_READ)
print("mapped", flush=True); time.sleep(60)' "$s1" > "$src/holder.out" 2>&1 < /dev/null &
holder=$!
for _ in $(seq 50); do grep -qs mapped "$src/holder.out" && break; sleep 0.1; done
grep -qs mapped "$src/holder.out" || fail "the holder did not map $s1"
ino=$(stat -c %i "$s1")
mt=$(stat -c %y "$s1")
sleep 0.05
s2=$("$wp" "$p" echo @PLUGIN@)
[ "$s2" = "$s1" ] || fail "second run staged $s2, first $s1"
[ "$(stat -c %i "$s2")" = "$ino" ] || fail "the mapped copy was replaced"
[ "$(stat -c %y "$s2")" = "$mt" ] || fail "the mapped copy was rewritten in place ($mt -> $(stat -c %y "$s2"))"
echo "ok: a second run leaves the mapped copy (inode $ino) alone"

: > "$s1"
s3=$("$wp" "$p" echo @PLUGIN@)
cmp "$p" "$s3" || fail "a truncated copy was not replaced"
[ "$(stat -c %i "$s3")" != "$ino" ] || fail "the truncated copy was rewritten in place"
echo "ok: a damaged copy is replaced by rename"

# 4. A directory it cannot write (immutable): one error line naming the
#    plugin and the directory, exit 1, nothing left, nothing run.
d=$(dirname "$s3")
rm -f "$s3"
if chattr +i "$d" 2>/dev/null; then
	rc=0
	out=$("$wp" "$p" echo ran @PLUGIN@ 2>&1) || rc=$?
	chattr -i "$d"
	echo "$out"
	[ $rc -eq 1 ] || fail "exit $rc, want 1"
	case $out in *ran*) fail "the command ran" ;; esac
	[ "$(grep -c . <<<"$out")" = 1 ] || fail "want one line"
	case $out in *"cannot copy $p into $d"*) ;; *) fail "the line names neither plugin nor directory" ;; esac
	[ -z "$(ls -A "$d")" ] || fail "left in $d: $(ls -A "$d")"
	echo "ok: an unwritable stage fails with one line, nothing left"
else
	# chattr +i needs root and a file system with the flag (ext4, xfs,
	# btrfs); tmpfs and overlayfs have none.
	echo "not checked here: an unwritable stage (chattr +i unsupported on $d)"
fi
echo "plugin-stage: OK"
