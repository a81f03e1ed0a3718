#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-weight: 20
#
# 'qfd watch' on ext4, XFS and (patched) UBIFS: started in the background,
# it prints the kernel's netlink quota events (VFS_DQUOT) when a user
# writes past the soft limit, the hard limit, and frees the space again,
# with the mount point (UBIFS: an anonymous device) and the name; --exec
# gets the event in its environment; SIGINT and SIGTERM end it with 0.
#
# Run: tests/vm/check --ubifs-ko "$(kernel/ubifs/build.sh -q | tail -n1)" \
#          tests/vm/suites/watch.bats

load ../lib/fs

bats_require_minimum_version 1.5.0

KiB=1024

setup_file() {
	in_vm || skip "not inside the test VM (use tests/vm/check)"
	fs_teardown
	users_create
	fs_ext4_xfs_ubifs wa
}

teardown_file() {
	fs_teardown
}

# start_watch ARGS...: qfd watch in the background, once it has subscribed
start_watch() {
	W=$QFD_SCRATCH/watch-$BATS_TEST_NUMBER
	mkdir -p "$W"
	"$QFD" -d watch "$@" >"$W/out" 2>"$W/err" 3>&- &
	WPID=$!
	for _ in $(seq 300); do
		grep -q "^qfd: debug: listening to VFS_DQUOT events" "$W/err" && return 0
		sleep 0.1
	done
	echo "qfd watch did not subscribe: $(cat "$W/err")"
	return 1
}

# stop_watch SIG: send SIG and wait; qfd's exit status in $wstatus
stop_watch() {
	kill "-$1" "$WPID"
	wstatus=0
	wait "$WPID" || wstatus=$?
}

# soft, hard, then below: as the user, who is who the kernel tells about
cross_limits() {
	local m=$1
	"$QFD" set -q "$m" "$QFD_WEIRD_USER" --bsoft 1M --bhard 2M
	write_bytes "$m/w1" $((1536 * KiB)) "$QFD_WEIRD_USER"
	! write_bytes "$m/w2" $((1024 * KiB)) "$QFD_WEIRD_USER" 2>/dev/null
	as_user "$QFD_WEIRD_USER" rm -f "$m/w1" "$m/w2"
	sync
	sleep 1
}

events() {
	jq -c '[.mountpoint, .fstype, .type, .id, .name, .resource, .event, ."caused-by"]' "$W/out"
}

@test "ext4 and UBIFS: soft, hard and back below, with mount point and name; SIGTERM: exit 0" {
	fss=(wa-e:ext4)
	ubifs_quota wa-u && fss+=(wa-u:ubifs)
	for fs in "${fss[@]}"; do
		m=$QFD_SCRATCH/${fs%%:*} t=${fs##*:}
		start_watch -J
		cross_limits "$m"
		stop_watch TERM
		[ "$wstatus" -eq 0 ] || { echo "$t: $wstatus $(cat "$W/err")"; false; }
		p="[\"$m\",\"$t\",\"user\",2004,\"$QFD_WEIRD_USER\",\"space\""
		# the generic quota code also says "files below-soft" when the
		# last file goes, though there is no files soft limit (0)
		f="[\"$m\",\"$t\",\"user\",2004,\"$QFD_WEIRD_USER\",\"files\""
		[ "$(events)" = "$p,\"soft\",2004]
$p,\"hard\",2004]
$p,\"below-soft\",2004]
$f,\"below-soft\",2004]" ] || { echo "$t:"; cat "$W/out"; false; }
		# the device is the one the mount point has (UBIFS: anonymous, 0:N)
		[ "$(jq -r .device "$W/out" | sort -u)" = "$(mountpoint -d "$m")" ]
	done
}

@test "XFS: soft and hard limit events (XFS sends no below events); SIGINT: exit 0" {
	m=$QFD_SCRATCH/wa-x
	start_watch -J
	cross_limits "$m"
	stop_watch INT
	[ "$wstatus" -eq 0 ]
	p="[\"$m\",\"xfs\",\"user\",2004,\"$QFD_WEIRD_USER\",\"space\""
	# XFS warns at every reservation past the soft limit: one or more
	events | grep -qxF "$p,\"soft\",2004]" || { cat "$W/out"; false; }
	events | grep -qxF "$p,\"hard\",2004]" || { cat "$W/out"; false; }
	[ "$(events | grep -cvF "$p,")" -eq 0 ] || { cat "$W/out"; false; }
}

@test "the line for people; --exec gets the event in its environment; a filesystem going away" {
	m=$QFD_SCRATCH/wa-e
	hook=$QFD_SCRATCH/hook
	printf '#!/bin/sh\necho "$QFD_EVENT_MOUNTPOINT|$QFD_EVENT_FSTYPE|$QFD_EVENT_TYPE|$QFD_EVENT_ID|$QFD_EVENT_NAME|$QFD_EVENT_RESOURCE|$QFD_EVENT|$QFD_EVENT_CAUSED_BY" >>%s\n' \
		"$QFD_SCRATCH/hook.log" >"$hook"
	chmod +x "$hook"
	start_watch --exec "$hook"
	# another filesystem unmounted while watching changes nothing
	fs_umount wa-x
	cross_limits "$m"
	stop_watch TERM
	fs_mount wa-x
	[ "$wstatus" -eq 0 ]
	[ "$(cat "$QFD_SCRATCH/hook.log")" = "$m|ext4|user|2004|$QFD_WEIRD_USER|space|soft|2004
$m|ext4|user|2004|$QFD_WEIRD_USER|space|hard|2004
$m|ext4|user|2004|$QFD_WEIRD_USER|space|below-soft|2004
$m|ext4|user|2004|$QFD_WEIRD_USER|files|below-soft|2004" ] || { cat "$QFD_SCRATCH/hook.log"; false; }
	[ "$(wc -l <"$W/out")" -eq 4 ]
	grep -qE "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z $m ext4 user 2004 $QFD_WEIRD_USER space hard caused-by 2004\$" "$W/out" ||
		{ cat "$W/out"; false; }
}
