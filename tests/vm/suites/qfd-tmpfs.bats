#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-weight: 90
#
# qfd on tmpfs quotas (Linux 6.6+, CONFIG_TMPFS_QUOTA), as users meet
# them since systemd mounts /tmp with per-user limits: a tmpfs mounted
# the systemd way (size=, usrquota, grpquota and default hard limits in
# the mount options), several users writing, and what each of them and
# the administrator do with qfd: see who is near the limit, read one's
# own, monitor, raise one user's limit, keep limits over a remount.
# Everything against the kernel's own accounting; nothing mocked.
#
# What tmpfs does, as tested here (6.12):
#   - usrquota_block_hardlimit= and the like are the hard limits of every
#     id the first time the kernel sees it (a write, or a query); a limit
#     set for one id replaces them for that id, 0 included (no limit);
#   - quotas live in memory only: unmount forgets limits and grace
#     periods; a remount adds no quota type (refused where the mount had
#     none, ignored where it had one) and changes no default (refused);
#   - soft limits and grace work as on ext4, 7 days unless set;
#   - on and off switch enforcement only (usage is always counted); sync
#     has nothing to write and succeeds; no project quotas.
#
# Kernels without tmpfs quotas (every Debian kernel) reject the mount
# option: then every test skips, saying so.  Run on the kernel built for it:
#   tests/vm/check --kernel 6.12-tmpfs tests/vm/suites/qfd-tmpfs.bats

load ../lib/qfd

MiB=$((1024 * 1024))
T=$QFD_SCRATCH/tmp
# the systemd way: a size, both types, default hard limits for everyone
DEFAULTS=usrquota_block_hardlimit=8M,usrquota_inode_hardlimit=100,grpquota_block_hardlimit=12M,grpquota_inode_hardlimit=200
TMP_OPTS=size=64M,mode=1777,usrquota,grpquota,$DEFAULTS

# tmpfs_mount NAME OPTIONS: a fresh tmpfs at $QFD_SCRATCH/NAME, printed
tmpfs_mount() {
	mkdir -p -- "$QFD_SCRATCH/$1" &&
		mount -t tmpfs -o "$2" tmpfs "$QFD_SCRATCH/$1" &&
		echo "$QFD_SCRATCH/$1"
}

setup_file() {
	qfd_setup_common || return 0
	fs_teardown
	mkdir -p "$QFD_SCRATCH/probe"
	# The test of support: a kernel without it rejects the option
	# ("tmpfs: Unknown parameter 'usrquota'" in its log).
	if ! mount -t tmpfs -o usrquota tmpfs "$QFD_SCRATCH/probe" 2>/dev/null; then
		qfd_skip_file "kernel $(uname -r) rejects tmpfs -o usrquota: tmpfs quotas need Linux 6.6+ built with CONFIG_TMPFS_QUOTA (--kernel 6.12-tmpfs)"
		return 0
	fi
	umount "$QFD_SCRATCH/probe"
	users_create
	tmpfs_mount tmp "$TMP_OPTS" >/dev/null
	# Three users of /tmp: qfdu1 near the 8 MiB default (7 MiB), qfdu2
	# 1 MiB in two files, qfdu3 until the default hard limit stops her.
	write_as 2001 "$T/u1" $((7 * MiB))
	write_as 2002 "$T/u2" $MiB
	touch_as 2002 2002 "$T/u2-empty"
	write_as 2003 "$T/u3" $((9 * MiB)) 2>"$QFD_SCRATCH/u3.err" || true
}

teardown_file() { qfd_teardown_fs; }
setup() { qfd_setup_test; }

# The report tests come first: later tests add ids of their own.  root
# is there from the start, charged with the root directory's inode.

@test "tmpfs: the mount's limits apply to every user who writes; the one past them got EDQUOT" {
	assert_eq "$(<"$QFD_SCRATCH/u3.err")" "dd: error writing '$T/u3': Disk quota exceeded"
	run --separate-stderr qfd report -u -b --csv -n -o NAME,ID,STATUS,SPACE,SPACE-SOFT,SPACE-HARD,FILES,FILES-SOFT,FILES-HARD "$T"
	assert_status 0
	assert_eq "$output" "root,0,ok,0,0,8388608,1,0,100
qfdu1,2001,ok,7340032,0,8388608,1,0,100
qfdu2,2002,ok,1048576,0,8388608,2,0,100
qfdu3,2003,hard,8388608,0,8388608,1,0,100"
	# the groups, with the group defaults
	run --separate-stderr qfd report -g -b --csv -n -o NAME,ID,SPACE,SPACE-HARD,FILES,FILES-HARD "$T"
	assert_status 0
	assert_eq "$output" "root,0,0,12582912,1,200
qfdu1,2001,7340032,12582912,1,200
qfdu2,2002,1048576,12582912,2,200
qfdu3,2003,8388608,12582912,1,200"
}

@test "tmpfs: report table, sorted by id or by any column" {
	run --separate-stderr qfd report -u "$T"
	assert_status 0
	assert_stderr_empty
	assert_eq "${lines[0]}" "user quotas on $T (tmpfs, tmpfs)"
	assert_line_ws "NAME ID STATUS SPACE SPACE-SOFT SPACE-HARD SPACE-GRACE FILES FILES-SOFT FILES-HARD FILES-GRACE"
	assert_line_ws "qfdu1 2001 ok 7M 0 8M 1 0 100"
	assert_line_ws "qfdu3 2003 hard 8M 0 8M 1 0 100"
	# by id, then by space (largest last) and by files
	run --separate-stderr qfd report -u -n -r -o NAME "$T"
	assert_eq "$(paste -sd ' ' <<<"$output")" "root qfdu1 qfdu2 qfdu3"
	run --separate-stderr qfd report -u -n -r -o NAME --sort space "$T"
	assert_eq "$(paste -sd ' ' <<<"$output")" "root qfdu2 qfdu1 qfdu3"
	run --separate-stderr qfd report -u -n -r -o NAME,FILES --sort files "$T"
	assert_eq "${lines[-1]}" "qfdu2 2"
}

@test "tmpfs: report --over lists who is past a limit, exit 3" {
	run --separate-stderr qfd report -u --over hard -n -r -o NAME,STATUS,SPACE "$T"
	assert_status 3
	assert_eq "$output" "qfdu3 hard 8M"
	# no soft limits: past soft means past hard here
	run --separate-stderr qfd report -u --over soft -n -r -o NAME "$T"
	assert_status 3
	assert_eq "$output" "qfdu3"
	run --separate-stderr qfd report -g --over hard -n "$T"
	assert_status 0
	assert_stdout_empty
}

@test "tmpfs: report -J, --csv, -r and --prometheus carry the same numbers" {
	run --separate-stderr qfd report -u -J "$T"
	assert_status 0
	assert_eq "$(jq -r '.quotas[] | select(.id == 2001)
		| [.target, .fstype, .type, .name, .status, .space, ."space-soft", ."space-hard",
		   .files, ."files-soft", ."files-hard"] | map(tostring) | join(" ")' <<<"$output")" \
		"$T tmpfs user qfdu1 ok 7340032 0 8388608 1 0 100"
	assert_eq "$(jq -r '[.quotas[].id] | map(tostring) | join(" ")' <<<"$output")" "0 2001 2002 2003"
	run --separate-stderr qfd report -u --csv -b "$T"
	assert_status 0
	assert_eq "${lines[0]}" "TARGET,FSTYPE,TYPE,NAME,ID,STATUS,SPACE,SPACE-SOFT,SPACE-HARD,SPACE-GRACE,FILES,FILES-SOFT,FILES-HARD,FILES-GRACE"
	assert_output_has_line "$T,tmpfs,user,qfdu2,2002,ok,1048576,0,8388608,,2,0,100,"
	run --separate-stderr qfd report -u -r -b -n "$T"
	assert_status 0
	assert_output_has_line "$T tmpfs user qfdu3 2003 hard 8388608 0 8388608 - 1 0 100 -"
	run --separate-stderr qfd report -u --prometheus "$T"
	assert_status 0
	local l="{mountpoint=\"$T\",fstype=\"tmpfs\",type=\"user\",id=\"2001\",name=\"qfdu1\"}" want
	for want in "qfd_quota_space_used_bytes$l 7340032" \
		"qfd_quota_space_hard_limit_bytes$l 8388608" \
		"qfd_quota_files_used$l 1" \
		"qfd_quota_files_hard_limit$l 100" \
		"qfd_quota_status$l 0" \
		"qfd_quota_status{mountpoint=\"$T\",fstype=\"tmpfs\",type=\"user\",id=\"2003\",name=\"qfdu3\"} 3" \
		"qfd_quota_scrape_error{mountpoint=\"$T\",fstype=\"tmpfs\",type=\"user\"} 0"; do
		grep -qxF "$want" <<<"$output" || _fail "no line '$want' in:" "$output" || return
	done
}

@test "tmpfs: qfd check -w 80% -c 95%: exit codes and performance data" {
	# qfdu3 at the hard limit, qfdu1 at 7 of 8 MiB (87%)
	run --separate-stderr qfd check -u -w 80% -c 95% "$T"
	assert_status 2
	[[ $output == "QUOTA CRITICAL - 1 critical, 1 warning, of 4 ids checked: $T user qfdu3 space 8M at the hard limit 8M; $T user qfdu1 space 7M >= warning 6.4M | "* ]] ||
		_fail "got: $output"
	run --separate-stderr qfd check -u -w 80% -c 95% -i qfdu1 "$T"
	assert_status 1
	[[ $output == "QUOTA WARNING - 0 critical, 1 warning, of 1 id checked: $T user qfdu1 space 7M >= warning 6.4M | "* ]] ||
		_fail "got: $output"
	# thresholds are 80% and 95% of the hard limits, rounded up
	run --separate-stderr qfd check -u -w 80% -c 95% -i qfdu2 "$T"
	assert_status 0
	assert_eq "$output" "QUOTA OK - 1 id within limits on 1 filesystem | '$T user qfdu2 space'=1048576B;6710887;7969178;0;8388608 '$T user qfdu2 files'=2;80;95;0;100"
}

@test "tmpfs: a user reads her own usage and limit, unprivileged, and no one else's" {
	run --separate-stderr as_user qfdu1 "$QFD" get "$T"
	assert_status 0
	assert_stderr_empty
	assert_line_ws "qfdu1 2001 ok 7M 0 8M 1 0 100"
	assert_eq "${#lines[@]}" 2 "heading + her line"
	# her groups: her own and qfdg1, which has the group default
	run --separate-stderr as_user qfdu1 "$QFD" get -g -b -n -r -o NAME,SPACE,SPACE-HARD "$T"
	assert_status 0
	assert_eq "$output" "qfdu1 7340032 12582912
qfdg1 0 12582912"
	run --separate-stderr as_user qfdu1 "$QFD" get "$T" qfdu2
	assert_error assert_stderr_line "qfd: $T: permission denied to read user quotas: run as root (others may only read their own)"
	run --separate-stderr as_user qfdu1 "$QFD" set "$T" qfdu1 --bhard 1G
	assert_status 1
	assert_stderr_line "qfd: $T: permission denied to set limits for user quotas: run as root (others may only read their own)"
	assert_eq "$(qfd_limits "$T" -u qfdu1)" "0 8388608 0 100"
}

# ---- the administrator's side: limits per id

@test "tmpfs: set replaces the mount's defaults for one id; get shows the defaults for any other" {
	# an id the kernel has not seen yet has the defaults
	assert_eq "$(qfd_limits "$T" -u 5401)" "0 8388608 0 100"
	run --separate-stderr qfd set "$T" 5401 --bsoft 1M --bhard 2M --isoft 3 --ihard 5
	assert_status 0
	assert_eq "$output" "changed user 5401 (5401) on $T: space-soft 0 -> 1M, space-hard 8M -> 2M, files-soft 0 -> 3, files-hard 100 -> 5"
	assert_eq "$(qfd_limits "$T" -u 5401)" "1048576 2097152 3 5"
	assert_eq "$(qfd_report_q "$T" -u 5401 space-soft space-hard files-soft files-hard)" "1048576 2097152 3 5"
	# groups the same way
	qfd set -q -g "$T" 6401 --bhard 3M
	assert_eq "$(qfd_limits "$T" -g 6401)" "0 3145728 0 200"
}

@test "tmpfs: an admin raises one user's limit, or lifts it above the default" {
	# her group has no limit: hers is the one that stops her (the
	# group default, 12 MiB, would stop her there)
	qfd set -q -g "$T" 6402 --bhard 0
	write_as 5402 "$T/u5402" $((8 * MiB)) 6402
	run write_as 5402 "$T/u5402-more" 4096 6402
	assert_edquot
	# relative to what she has now
	run --separate-stderr qfd set "$T" 5402 --bhard +4M
	assert_status 0
	assert_eq "$output" "changed user 5402 (5402) on $T: space-hard 8M -> 12M"
	write_as 5402 "$T/u5402-more" $((4 * MiB)) 6402
	run write_as 5402 "$T/u5402-last" 4096 6402
	assert_edquot
	# 0 is no limit at all, not "back to the default"
	qfd set -q "$T" 5402 --bhard 0
	write_as 5402 "$T/u5402-last" $((4 * MiB)) 6402
	assert_eq "$(qfd_q "$T" -u 5402 space space-hard status)" "$((16 * MiB)) 0 ok"
}

@test "tmpfs: set --batch and apply, read back" {
	# '-' keeps a field: the mount's default for an id not seen before
	run --separate-stderr qfd set --batch - "$T" <<-EOF
	5403 1M 2M 3 4
	5404 - 4M - 6
	5405 - - 7 -
	EOF
	assert_status 0
	assert_eq "$(qfd_limits "$T" -u 5403)" "1048576 2097152 3 4"
	assert_eq "$(qfd_limits "$T" -u 5404)" "0 4194304 0 6"
	assert_eq "$(qfd_limits "$T" -u 5405)" "0 8388608 7 100"
	cat >"$BATS_TEST_TMPDIR/doc.json" <<-EOF
	{ "filesystems": [ { "path": "$T",
	  "user": { "limits": [ { "who": "5406", "space-hard": "3M", "files-hard": 9 } ] },
	  "group": { "limits": [ { "who": "6406", "space-soft": "1M", "space-hard": "5M" } ] } } ] }
	EOF
	run --separate-stderr qfd apply --check "$BATS_TEST_TMPDIR/doc.json"
	assert_status 0
	assert_eq "$(qfd_limits "$T" -u 5406)" "0 8388608 0 100"
	run --separate-stderr qfd apply --exit-changed "$BATS_TEST_TMPDIR/doc.json"
	assert_status 4
	assert_eq "$(qfd_limits "$T" -u 5406)" "0 3145728 0 9"
	assert_eq "$(qfd_limits "$T" -g 6406)" "1048576 5242880 0 200"
	run --separate-stderr qfd apply --exit-changed "$BATS_TEST_TMPDIR/doc.json"
	assert_status 0
}

# ---- enforcement

@test "tmpfs: EDQUOT at a user's hard limits of space and of files" {
	qfd set -q "$T" 5407 --bhard 1M --ihard 3
	run write_as 5407 "$T/u5407" $((2 * MiB))
	assert_edquot
	assert_eq "$(qfd_q "$T" -u 5407 space files status)" "1048576 1 hard"
	touch_as 5407 5407 "$T/u5407-2" "$T/u5407-3"
	run touch_as 5407 5407 "$T/u5407-4"
	assert_edquot
	[[ ! -e $T/u5407-4 ]]
	assert_eq "$(qfd_q "$T" -u 5407 files)" 3
	# the mount's file default, 100, for a user with no limit of her own
	# shellcheck disable=SC2016 # expanded by that sh
	as_ids 5408 5408 sh -c 'for i in $(seq 1 100); do : >"$1/u5408-$i" || exit; done' - "$T"
	run touch_as 5408 5408 "$T/u5408-101"
	assert_edquot
	assert_eq "$(qfd_q "$T" -u 5408 files status)" "100 hard"
}

@test "tmpfs: EDQUOT at a group's hard limits: the mount's default and one set" {
	# two users of group 6409: each under her own 8 MiB, together at 12
	write_as 5409 "$T/u5409" $((8 * MiB)) 6409
	write_as 5410 "$T/u5410" $((4 * MiB)) 6409
	run write_as 5410 "$T/u5410-more" 4096 6409
	assert_edquot
	assert_eq "$(qfd_q "$T" -g 6409 space status)" "$((12 * MiB)) hard"
	assert_eq "$(qfd_q "$T" -u 5410 space status)" "$((4 * MiB)) ok"
	# a group limit set, of space and of files
	qfd set -q -g "$T" 6411 --bhard 1M --ihard 2
	run write_as 5411 "$T/u5411" $((2 * MiB)) 6411
	assert_edquot
	assert_eq "$(qfd_q "$T" -g 6411 space status)" "1048576 hard"
	touch_as 5411 6411 "$T/u5411-2"
	run touch_as 5411 6411 "$T/u5411-3"
	assert_edquot
}

@test "tmpfs: grace: 7 days past a soft limit, settable, and a soft limit that expired refuses" {
	qfd set -q "$T" 5412 --bsoft 1M --bhard 4M --isoft 1 --ihard 10
	write_as 5412 "$T/u5412" $((2 * MiB))
	assert_eq "$(qfd_q "$T" -u 5412 status)" grace
	assert_in_range "$(qfd_qj "$T" -u 5412 space-grace)" $((WEEK - 60)) "$WEEK"
	# the grace period is tmpfs's default, as state shows it
	assert_eq "$(qfd_state_q "$T" user space-grace) $(qfd_state_q "$T" user files-grace)" "$WEEK $WEEK"
	# her grace time ends now: the soft limit acts as the hard one
	qfd set -q --grace-time 1s "$T" 5412
	sleep 2
	assert_eq "$(qfd_q "$T" -u 5412 status)" expired
	run write_as 5412 "$T/u5412-more" 4096
	assert_edquot
	assert_eq "$(qfd_q "$T" -u 5412 space)" $((2 * MiB))
}

@test "tmpfs: grace periods are set for a mount, and forgotten at unmount" {
	local m
	m=$(tmpfs_mount grace "size=16M,usrquota")
	qfd set -q --grace-space 2d --grace-files 1h "$m"
	run --separate-stderr qfd state -u -n -r -o TYPE,SPACE-GRACE,FILES-GRACE "$m"
	assert_eq "$output" "user 2d 1h"
	umount "$m"
	mount -t tmpfs -o size=16M,usrquota tmpfs "$m"
	run --separate-stderr qfd state -u -n -r -o TYPE,SPACE-GRACE,FILES-GRACE "$m"
	assert_eq "$output" "user 7d 7d"
	umount "$m"
}

# ---- state, on, off, sync

@test "tmpfs: state: user and group counted and enforced, no project quotas" {
	run --separate-stderr qfd state -n -r -o TYPE,ACCOUNTING,ENFORCING,FORMAT,SPACE-GRACE,FILES-GRACE "$T"
	assert_status 0
	assert_eq "$output" "user yes yes tmpfs 7d 7d
group yes yes tmpfs 7d 7d
project no no - - -"
	run --separate-stderr qfd set -p "$T" 7000 --bhard 1M
	assert_status 1
	assert_stderr_line "qfd: $T: tmpfs has no project quotas, only user and group quotas"
}

@test "tmpfs: off stops enforcing (usage still counted), on enforces again; sync succeeds" {
	local m
	m=$(tmpfs_mount onoff "size=16M,usrquota,grpquota,usrquota_block_hardlimit=1M")
	run --separate-stderr qfd off -v "$m"
	assert_status 0
	assert_eq "$output" "$m: user quotas off
$m: group quotas off"
	assert_eq "$(qfd_enforcing "$m")" "user=no group=no"
	write_as 5413 "$m/a" $((2 * MiB))
	assert_eq "$(qfd_q "$m" -u 5413 space space-hard status)" "$((2 * MiB)) 1048576 hard"
	run --separate-stderr qfd on -v -u "$m"
	assert_status 0
	assert_eq "$output" "$m: user quotas on"
	run write_as 5413 "$m/b" 4096
	assert_edquot
	# idempotent both ways
	run --separate-stderr qfd on -v -u "$m"
	assert_eq "$output" "$m: user quotas already on"
	run --separate-stderr qfd off -v -g "$m"
	assert_eq "$output" "$m: group quotas already off"
	# nothing to write: tmpfs keeps its quotas in memory
	run --separate-stderr qfd sync -v "$m"
	assert_status 0
	assert_stderr_empty
	assert_eq "$output" "$m: user quotas synced
$m: group quotas synced"
	umount "$m"
}

@test "tmpfs: a type it was not mounted with: one line, exit 1, nothing changed" {
	local m want
	m=$(tmpfs_mount uonly "size=16M,usrquota")
	want="qfd: $m: group quotas are off: tmpfs counts only the types it was mounted with; unmount it and mount it with -o grpquota (a remount cannot add them)"
	run --separate-stderr qfd get -g "$m" 0
	assert_status 1
	assert_stderr_line "$want"
	run --separate-stderr qfd on -g "$m"
	assert_error assert_stderr_line "$want"
	run --separate-stderr qfd off -g "$m"
	assert_status 1
	assert_stderr_line "$want"
	run --separate-stderr qfd set -g "$m" 6414 --bhard 1M
	assert_status 1
	assert_stderr_line "$want"
	assert_eq "$(qfd_enforcing "$m")" "user=yes"
	# a remount with grpquota succeeds and adds nothing
	mount -o remount,grpquota "$m"
	assert_eq "$(qfd_enforcing "$m")" "user=yes"
	run --separate-stderr qfd get -g "$m" 0
	assert_status 1
	assert_stderr_line "$want"
	umount "$m"
}

@test "tmpfs: mounted without quota options: one line that says how to mount it" {
	local m want
	m=$(tmpfs_mount noq "size=16M")
	# the kernel has tmpfs quotas (qfd asks it): the mount lacks them,
	# which qfd-tmpfs-stock.bats tells apart from a kernel without
	want="qfd: $m: quotas are off: tmpfs was mounted without usrquota or grpquota; unmount it and mount it with -o usrquota (a remount cannot add them)"
	run --separate-stderr qfd get "$m"
	assert_error assert_stderr_line "$want"
	run --separate-stderr qfd on "$m"
	assert_status 1
	assert_stderr_line "$want"
	run --separate-stderr qfd check "$m"
	assert_status 3
	assert_eq "$output" "QUOTA UNKNOWN - ${want#qfd: }"
	# the kernel refuses quotas on a remount of a tmpfs that had none
	run mount -o remount,usrquota "$m"
	assert_status 32
	umount "$m"
}

# ---- limits over a remount

@test "tmpfs: limits vanish at unmount; qfd dump before and qfd apply after bring them back" {
	local m opts=size=16M,usrquota,grpquota,usrquota_block_hardlimit=2M
	m=$(tmpfs_mount keep "$opts")
	qfd set -q "$m" 5415 --bsoft 3M --bhard 4M --ihard 9
	qfd set -q -g "$m" 6415 --bhard 5M
	qfd set -q --grace-space 1d "$m"
	qfd dump "$m" >"$BATS_TEST_TMPDIR/keep.json"
	umount "$m"
	mount -t tmpfs -o "$opts" tmpfs "$m"
	# the mount's defaults again, and the grace period
	assert_eq "$(qfd_limits "$m" -u 5415)" "0 2097152 0 0"
	assert_eq "$(qfd_state_q "$m" user space-grace)" "$WEEK"
	run --separate-stderr qfd apply "$BATS_TEST_TMPDIR/keep.json"
	assert_status 0
	assert_eq "$(qfd_limits "$m" -u 5415)" "3145728 4194304 0 9"
	assert_eq "$(qfd_limits "$m" -g 6415)" "0 5242880 0 0"
	assert_eq "$(qfd_state_q "$m" user space-grace)" 86400
	umount "$m"
}

@test "tmpfs: qfd-apply@.service's own command, after a new mount, brings back the state dumped to its file" {
	local m etc unit line inst f opts=size=16M,usrquota,grpquota
	m=$(tmpfs_mount unit "$opts")
	etc=$BATS_TEST_TMPDIR/etc
	mkdir -p "$etc/qfd"
	inst=$(systemd-escape --path "$m")
	qfd set -q "$m" 5417 --bhard 6M --ihard 7
	qfd set -q -g "$m" 6417 --isoft 3 --ihard 5
	qfd dump "$m" >"$etc/qfd/$inst.json"
	umount "$m"
	mount -t tmpfs -o "$opts" tmpfs "$m"
	assert_eq "$(qfd_limits "$m" -u 5417)" "0 0 0 0"
	# The unit as make fills it in, then its ExecStart= as systemd would
	# run it once the mount unit %i.mount is up: %f the path, %i the
	# instance; its words need no quoting.
	unit=$(sed -e "s|@sbindir@|${QFD%/*}|g" -e "s|@sysconfdir@|$etc|g" \
		"$QFD_TESTS/../systemd/qfd-apply@.service.in")
	grep -qx "After=%i.mount" <<<"$unit"
	grep -qx "ConditionPathExists=$etc/qfd/%i.json" <<<"$unit"
	line=$(sed -n 's/^ExecStart=//p' <<<"$unit")
	line=${line//%f/$m}
	read -ra f <<<"${line//%i/$inst}"
	assert_eq "${f[1]}" apply
	run --separate-stderr "${f[@]}"
	assert_status 0
	assert_eq "$output" ""
	assert_eq "$(qfd_limits "$m" -u 5417)" "0 6291456 0 7"
	assert_eq "$(qfd_limits "$m" -g 6417)" "0 0 3 5"
	# a second start (a restart of the unit) changes nothing
	run --separate-stderr "${f[@]}"
	assert_status 0
	umount "$m"
}

# ---- no device node; the classic tools

@test "tmpfs: in a mount namespace with an empty /dev, as in a container, qfd still works" {
	# shellcheck disable=SC2016 # expanded by that sh
	run --separate-stderr unshare -m -- sh -c '
		mount -t tmpfs none /dev || exit 99
		"$QFD" report -u -n -r -o NAME,SPACE "$1" && "$QFD" set -q "$1" 5416 --ihard 4' - "$T"
	assert_status 0
	assert_output_has_line "qfdu1 7M"
	assert_eq "$(qfd_limits "$T" -u 5416)" "0 8388608 0 4"
}

@test "tmpfs: quota-tools 4.06 and xfs_quota cannot reach it; qfd on the same path can" {
	# Debian 12's quota-tools look for a device node or a quota file,
	# and tmpfs has neither (4.10 learnt quotactl_fd)
	run repquota -u "$T"
	assert_status 1
	[[ $output == *"repquota: Mountpoint (or device) $T not found or has no quota enabled."* ]] ||
		_fail "repquota said: $output"
	run setquota -u 5417 1000 2000 0 0 "$T"
	assert_status 1
	[[ $output == *"setquota: Mountpoint (or device) $T not found or has no quota enabled."* ]] ||
		_fail "setquota said: $output"
	# xfs_quota says so and exits 0 all the same
	run xfs_quota -x -c "report -u -N -n" "$T"
	[[ $output == *"xfs_quota: cannot setup path for mount $T: No such device or address"* ]] ||
		_fail "xfs_quota said: $output"
	[[ $output != *"#2001"* ]] || _fail "xfs_quota reported tmpfs: $output"
	# qfd reads and sets on the same path
	assert_eq "$(qfd_q "$T" -u qfdu1 space)" $((7 * MiB))
	qfd set -q "$T" 5417 --bsoft 1000K --bhard 2000K
	assert_eq "$(qfd_limits "$T" -u 5417)" "1024000 2048000 0 100"
}
