#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/nodev.sh: which quota tools still work when the filesystem's block
# device node is not there: qfd, repquota and setquota (quota-tools 4.06
# from the host, Debian 12, and 4.11 from Debian sid) and xfs_quota (6.1
# and 7.2), each once with the node and once in a mount namespace whose
# /dev is a fresh tmpfs holding only null, zero, full, random, urandom and
# tty (and empty directories where /dev's own mounts were).  That is the situation of a container that sees a bind-mounted or
# inherited filesystem but not its disk.
#
# A check, not a test: it prints a table and fails only when it could not
# run the tools.  Run it from the top of the tree:
#
#     bench/nodev.sh
#
# On the host it fetches the sid peers (bench/peers.sh) and starts itself
# in the test VM (tests/vm/run); in the VM it makes a small ext4 (quota
# feature) and a small XFS (uquota) on loop devices, gives ids 5001..5003
# limits with qfd, and runs, on each filesystem:
#   read   qfd report -u -N -r MNT; repquota -u -v -n MNT;
#          xfs_quota -x -c 'report -u -n' MNT (XFS only);
#   write  qfd set -u MNT #ID ...; setquota -u ID 1000 2000 10 20 MNT;
#          xfs_quota -x -c 'limit -u ... ID' MNT (XFS only).
# A read works if it exits 0 and lists id 5001; a write works if it exits
# 0 and qfd get (outside the namespace) reads the new limits back: each
# write case has an id of its own.  xfs_quota exits 0 from a failed
# command, which is why the output and the limits are what count.
# strace -c counts the quota calls of each run: quotactl(2) names the
# device node, quotactl_fd(2) an open file of the filesystem.
#
# Needs in the guest (from the host): e2fsprogs, xfsprogs, quota, strace,
# util-linux (unshare, losetup), jq.
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ME=bench/nodev.sh
# shellcheck source=lib.bash
. "$TOP/bench/lib.bash"
# shellcheck source=peers.sh
. "$TOP/bench/peers.sh"
if [[ ${QFD_VM:-} != 1 ]]; then
	# shellcheck source=../kernel/lib.bash
	. "$TOP/kernel/lib.bash"
	QFD_BENCH_PEERS=$(peers_fetch) || die "cannot fetch the sid peers (bench/peers.sh)"
	export QFD_BENCH_PEERS
	QFD_BENCH_TIMEOUT=${QFD_BENCH_TIMEOUT:-900}
fi
bench_enter "$@"

bench_setup /scratch/qfd-nodev strace unshare jq repquota setquota xfs_quota
: >"$W/why"
peers_load "${QFD_BENCH_PEERS:?}" || die "cannot run the sid peers"

# NODEV: a command prefix that runs the rest in a new mount namespace
# whose /dev has only the character devices every program may open, and
# the directories of the mounts below /dev (shm, pts, mqueue, ...) that
# the tmpfs hides: they stay in /proc/mounts, and quota-tools 4.11 gives
# up on every filesystem when it cannot open one mount point in that list
# (a first version of this script, without them, saw that: "Unable to get
# a filedescriptor from mountpoint: /dev/shm").  unshare makes the new
# namespace's mounts private, so the guest's own /dev stays as it was.
# shellcheck disable=SC2016 # expanded by the inner bash
NODEV=(unshare -m -- bash -c '
	set -e
	subs=()
	while read -r _ d _; do [[ $d != /dev/* ]] || subs+=("$d"); done </proc/self/mounts
	mount -t tmpfs -o mode=755 nodev /dev
	for d in "${subs[@]}"; do mkdir -p "$d"; done
	mknod -m 666 /dev/null c 1 3
	mknod -m 666 /dev/zero c 1 5
	mknod -m 666 /dev/full c 1 7
	mknod -m 666 /dev/random c 1 8
	mknod -m 666 /dev/urandom c 1 9
	mknod -m 666 /dev/tty c 5 0
	ln -s /proc/self/fd /dev/fd
	exec "$@"' nodev)

# limits MNT ID: ID's four limits as qfd reads them (KiB, files)
limits() {
	"$QFD" get -u -J "$1" "#$2" 2>/dev/null |
		jq -r '.quotas[0] | "\(.["space-soft"] / 1024) \(.["space-hard"] / 1024) \(.["files-soft"]) \(.["files-hard"])"'
}

NEXT_ID=6000
# try FS MNT DEV TOOL VERSION OP -- CMD...: run CMD with the node and
# without; "@ID@" in CMD is replaced by a fresh id for each write.  Adds a
# table line to RES and, for a run that fails, the reason to WHY: the
# tool's first line of complaint and the first system call naming DEV
# that failed.
try() {
	local fs=$1 mnt=$2 dev=$3 tool=$4 ver=$5 op=$6 where res out rc calls call a id
	local -a cmd
	local -A got=()
	shift 7
	for where in dev nodev; do
		id=$((NEXT_ID++))
		cmd=()
		for a in "$@"; do cmd+=("${a//@ID@/$id}"); done
		[[ $where == dev ]] || cmd=("${NODEV[@]}" "${cmd[@]}")
		rc=0
		out=$(strace -f -qq -o "$W/trace" -e trace=%file,quotactl,quotactl_fd \
			"${cmd[@]}" 2>"$W/err") || rc=$?
		# "quotactl N" / "quotactl_fd N", with how many of them failed
		calls=$(awk '
			/ quotactl\(|^quotactl\(/ { n["quotactl"]++; if (/ = -1 /) e["quotactl"]++ }
			/quotactl_fd\(/ { n["quotactl_fd"]++; if (/ = -1 /) e["quotactl_fd"]++ }
			END { for (k in n) { printf "%s%s %d", sep, k, n[k]; if (e[k]) printf " (%d failed)", e[k]; sep = ", " } }' "$W/trace")
		if [[ $op == read ]]; then
			if ((rc == 0)) && grep -qw 5001 <<<"$out"; then res=works; else res=FAILS; fi
		else
			if ((rc == 0)) && [[ $(limits "$mnt" "$id") == "1000 2000 10 20" ]]; then res=works; else res=FAILS; fi
		fi
		if [[ $res == FAILS ]]; then
			res+=" (exit $rc)"
			# e.g. 'statx(AT_FDCWD, "/dev/loop0", ...) = -1 ENOENT (No such file...)'
			call=$(grep -F "\"$dev\"" "$W/trace" | grep -m 1 ' = -1 ' |
				sed 's/^[0-9]* *//; s/^\([a-z0-9_]*\)(.*\("\/dev\/[^"]*"\).* = -1 \([A-Z]*\).*/\1(\2) \3/') || true
			printf '%-4s %s %s %s: "%s"; first failed call on %s: %s\n' "$fs" "$tool" "$ver" "$op" \
				"$(head -n 1 "$W/err")" "$dev" "${call:-none}" >>"$W/why"
		fi
		got[$where]=$res
		note "$fs $tool $ver $op, $where: $res; ${calls:-no quota calls}"
		[[ $where == dev ]] && got[calls]=${calls:--} got[nodev_calls]=-
		[[ $where == nodev ]] && got[nodev_calls]=${calls:--}
	done
	printf '%-4s %-9s %-6s %-5s %-6s %-14s %-28s %s\n' "$fs" "$tool" "$ver" "$op" "${got[dev]}" \
		"${got[nodev]}" "${got[calls]}" "${got[nodev_calls]}" >>"$RES"
}

QV=$("$QFD" --version 2>&1 | sed -n '1s/^qfd //p')
for type in ext4 xfs; do
	read -r dev mnt < <(fs_make "$type")
	note "$type on $dev at $mnt"
	"$QFD" set -u -q "$mnt" '#5001' '#5002' '#5003' --bsoft 1M --bhard 2M --isoft 1 --ihard 2 ||
		die "qfd set on $type failed"
	try "$type" "$mnt" "$dev" qfd "$QV" read -- "$QFD" report -u -N -r "$mnt"
	try "$type" "$mnt" "$dev" repquota "$REPQUOTA_OLD_V" read -- repquota -u -v -n "$mnt"
	try "$type" "$mnt" "$dev" repquota "$REPQUOTA_NEW_V" read -- "${REPQUOTA_NEW[@]}" -u -v -n "$mnt"
	if [[ $type == xfs ]]; then
		try "$type" "$mnt" "$dev" xfs_quota "$XFS_QUOTA_OLD_V" read -- xfs_quota -x -c 'report -u -n' "$mnt"
		try "$type" "$mnt" "$dev" xfs_quota "$XFS_QUOTA_NEW_V" read -- "${XFS_QUOTA_NEW[@]}" -x -c 'report -u -n' "$mnt"
	fi
	try "$type" "$mnt" "$dev" qfd "$QV" write -- "$QFD" set -u -q "$mnt" '#@ID@' \
		--bsoft 1000K --bhard 2000K --isoft 10 --ihard 20
	try "$type" "$mnt" "$dev" setquota "$REPQUOTA_OLD_V" write -- setquota -u @ID@ 1000 2000 10 20 "$mnt"
	try "$type" "$mnt" "$dev" setquota "$REPQUOTA_NEW_V" write -- "${SETQUOTA_NEW[@]}" -u @ID@ 1000 2000 10 20 "$mnt"
	if [[ $type == xfs ]]; then
		try "$type" "$mnt" "$dev" xfs_quota "$XFS_QUOTA_OLD_V" write -- xfs_quota -x \
			-c 'limit -u bsoft=1000k bhard=2000k isoft=10 ihard=20 @ID@' "$mnt"
		try "$type" "$mnt" "$dev" xfs_quota "$XFS_QUOTA_NEW_V" write -- "${XFS_QUOTA_NEW[@]}" -x \
			-c 'limit -u bsoft=1000k bhard=2000k isoft=10 ihard=20 @ID@' "$mnt"
	fi
	umount "$mnt"
	losetup -d "$dev"
	rm -f "$W/$type.img"
done

echo
echo "Without the device node: each tool once with /dev as it is and once in a"
echo "mount namespace whose /dev is a tmpfs with only null, zero, full, random,"
echo "urandom, tty and empty directories for the mounts below /dev; $(uname -r), sid peers: $PEERS_VERSIONS" | fold -s -w 76
echo
printf '%-4s %-9s %-6s %-5s %-6s %-14s %-28s %s\n' FS TOOL VERSION OP NODE "NO NODE" \
	"QUOTA CALLS, NODE" "QUOTA CALLS, NO NODE"
cat "$RES"
echo
echo "Why each failure failed:"
cat "$W/why" 2>/dev/null || echo "(none failed)"
