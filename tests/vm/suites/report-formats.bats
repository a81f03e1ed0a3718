#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-weight: 95
#
# 'qfd report' for programs, on ext4 and XFS: names that need quoting or
# escaping (a group named with a comma, spaces and double quotes) in CSV,
# JSON (checked by two JSON parsers) and raw output; --over and its exit
# status; --sort; -o and +LIST; several filesystems in one stream; the
# table for people past libsmartcols' 1024-row chunks, with multibyte and
# hex-escaped names, on a wide and a narrow pseudo-terminal.
#
# Run: tests/vm/check tests/vm/suites/report-formats.bats

load ../lib/fs

bats_require_minimum_version 1.5.0

# groupadd refuses such a name; the guest's /etc is a throw-away overlay
ODD='odd, "quoted" group'
ODD_GID=3777

setup_file() {
	in_vm || skip "not inside the test VM (use tests/vm/check)"
	fs_teardown
	users_create
	grep -q "^$ODD:" /etc/group || echo "$ODD:x:$ODD_GID:" >>/etc/group
	fs_ext4 rf-e >/dev/null
	fs_xfs rf-x -o uquota,gquota >/dev/null
	for m in "$QFD_SCRATCH/rf-e" "$QFD_SCRATCH/rf-x"; do
		"$QFD" on "$m"
		"$QFD" set -q -g "$m" "#$ODD_GID" --bsoft 1M --bhard 8M
		"$QFD" set -q "$m" qfdu1 --bsoft 1M --bhard 2M
		"$QFD" set -q "$m" qfdu2 --bsoft 4M --bhard 8M
		"$QFD" set -q "$m" qfdu3 --bhard 3M
		# qfdu1 over its soft limit, in the odd group; qfdu3 at its hard limit
		write_as 2001 "$m/u1" $((384 * 4096)) "$ODD_GID"
		write_bytes "$m/u2" 4096 qfdu2
		write_bytes "$m/u3" $((3 * 1024 * 1024)) qfdu3 || true
	done
}

teardown_file() {
	fs_teardown
	nss_qfdtest_off
}

# An NSS source that answers getpwuid/getpwnam/getgrgid/getgrnam but cannot
# be enumerated, as sssd and LDAP usually are (lib/nss-qfdtest.c): built
# here, listed after files in the guest's (throw-away) nsswitch.conf.
NSS_LIB=/usr/lib/x86_64-linux-gnu/libnss_qfdtest.so.2
nss_qfdtest_on() {
	[ -e "$NSS_LIB" ] && return 0
	cc -shared -fPIC -o "$NSS_LIB" "$BATS_TEST_DIRNAME/../lib/nss-qfdtest.c"
	cp /etc/nsswitch.conf /run/nsswitch.conf.qfd
	sed -i -e 's/^\(passwd\|group\):.*/& qfdtest/' /etc/nsswitch.conf
}
nss_qfdtest_off() {
	[ -e /run/nsswitch.conf.qfd ] || return 0
	cp /run/nsswitch.conf.qfd /etc/nsswitch.conf
	rm -f "$NSS_LIB" /run/nsswitch.conf.qfd
}

MNTS=("$QFD_SCRATCH/rf-e" "$QFD_SCRATCH/rf-x")

@test "CSV: a name with a comma, spaces and quotes is quoted per RFC 4180" {
	for m in "${MNTS[@]}"; do
		run "$QFD" report -g --csv -b -o NAME,ID,SPACE,SPACE-SOFT,SPACE-HARD "$m"
		[ "$status" -eq 0 ] || { echo "$m: $output"; false; }
		[ "${lines[0]}" = "NAME,ID,SPACE,SPACE-SOFT,SPACE-HARD" ]
		printf '%s\n' "${lines[@]}" | grep -qxF "\"odd, \"\"quoted\"\" group\",$ODD_GID,1572864,1048576,8388608" ||
			{ echo "$m: $output"; false; }
		# and python's csv module reads the name back whole
		name=$("$QFD" report -g --csv -n -o NAME,ID "$m" |
			python3 -c 'import csv,sys; print([r[0] for r in csv.reader(sys.stdin) if r[1] == "3777"][0])')
		[ "$name" = "$ODD" ]
	done
}

@test "JSON: valid for two parsers, the odd name intact, numbers as numbers" {
	for m in "${MNTS[@]}"; do
		"$QFD" report -g -J "$m" | python3 -m json.tool >/dev/null
		run sh -c "'$QFD' report -g -J '$m' | jq -c '.quotas[] | select(.id == $ODD_GID) | [.name, .space, .\"space-hard\", .status, .\"space-grace\" != null]'"
		[ "$status" -eq 0 ]
		[ "$output" = "[\"odd, \\\"quoted\\\" group\",1572864,8388608,\"grace\",true]" ] ||
			{ echo "$m: $output"; false; }
	done
}

@test "raw: blanks in a name are escaped, one line per row" {
	for m in "${MNTS[@]}"; do
		run "$QFD" report -g -r -n -o NAME,ID "$m"
		[ "$status" -eq 0 ]
		printf '%s\n' "${lines[@]}" | grep -qxF 'odd,\x20"quoted"\x20group 3777' ||
			{ echo "$m: $output"; false; }
	done
}

@test "--over soft and hard: only ids past a limit, exit 3; none over: exit 0" {
	for m in "${MNTS[@]}"; do
		run "$QFD" report -u --over soft --csv -n -o NAME,STATUS "$m"
		[ "$status" -eq 3 ] || { echo "$m: $status $output"; false; }
		[ "$output" = "$(printf 'qfdu1,grace\nqfdu3,hard')" ] || { echo "$m: $output"; false; }
		run "$QFD" report -u --over hard --csv -n -o NAME,STATUS "$m"
		[ "$status" -eq 3 ]
		[ "$output" = "qfdu3,hard" ]
		run "$QFD" report -g --over hard -J "$m"
		[ "$status" -eq 0 ]
		[ "$(jq '.quotas | length' <<<"$output")" -eq 0 ]
	done
}

@test "--sort: by space, by name; -o and +LIST choose columns" {
	for m in "${MNTS[@]}"; do
		run "$QFD" report -u --sort SPACE --csv -n -o NAME "$m"
		[ "$status" -eq 0 ]
		# qfdu2 4K < qfdu1 1.5M < qfdu3 3M; root's few blocks sort first
		[ "$(grep -x 'qfdu[123]' <<<"$output" | paste -sd ' ')" = "qfdu2 qfdu1 qfdu3" ]
		run "$QFD" report -u --sort NAME --csv -n -o NAME "$m"
		[ "$(grep -x 'qfdu[123]' <<<"$output" | paste -sd ' ')" = "qfdu1 qfdu2 qfdu3" ]
		run "$QFD" report -u -o +SPACE-USE% --csv "$m"
		[ "${lines[0]}" = "TARGET,FSTYPE,TYPE,NAME,ID,STATUS,SPACE,SPACE-SOFT,SPACE-HARD,SPACE-GRACE,FILES,FILES-SOFT,FILES-HARD,FILES-GRACE,SPACE-USE%" ]
		# qfdu3: 3M of a 3M hard limit
		printf '%s\n' "${lines[@]}" | grep -q "^$m,[a-z0-9]*,user,qfdu3,2003,hard,3M,0,3M,,1,0,0,,100%\$" ||
			{ echo "$output"; false; }
	done
}

@test "several filesystems in one JSON stream, each row says where it is" {
	run sh -c "'$QFD' report -u -J ${MNTS[*]} | jq -r '.quotas[] | select(.name == \"qfdu3\") | \"\\(.target) \\(.fstype) \\(.space)\"'"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '%s ext4 3145728\n%s xfs 3145728' "${MNTS[0]}" "${MNTS[1]}")" ] ||
		{ echo "$output"; false; }
}

@test "names from an NSS source that does not enumerate: by id and by name, for a few ids and for many" {
	nss_qfdtest_on
	# the source answers by id and by name, and enumerates nothing
	[ "$(getent passwd 2601 | cut -d: -f1)" = qfdnss ]
	[ "$(getent group qfdnssg | cut -d: -f3)" = 2602 ]
	[ -z "$(getent passwd | grep qfdnss)" ]
	m=$(fs_ext4 rf-n)
	"$QFD" set -q "$m" qfdnss --bhard 5M
	"$QFD" set -q -g "$m" qfdnssg --bhard 6M
	run "$QFD" get -u "$m" qfdnss -o TYPE,NAME,ID,SPACE-HARD --csv -n
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[ "$output" = "user,qfdnss,2601,5M" ] || { echo "$output"; false; }
	run "$QFD" get -g "$m" qfdnssg -o TYPE,NAME,ID,SPACE-HARD --csv -n
	[ "$output" = "group,qfdnssg,2602,6M" ] || { echo "$output"; false; }
	run "$QFD" get -g "$m" '#2602' -o NAME,ID --csv -n
	[ "$output" = "qfdnssg,2602" ] || { echo "$output"; false; }
	run "$QFD" report -u "$m" -o NAME,ID --csv -n
	[ "$status" -eq 0 ]
	printf '%s\n' "${lines[@]}" | grep -qx "qfdnss,2601" || { echo "$output"; false; }
	# a report of many ids (read through getpwent once) still asks for the rest
	for i in $(seq 5000 5199); do echo "#$i 1M 2M - -"; done |
		"$QFD" set -q "$m" --batch -
	run "$QFD" report -u "$m" -o NAME,ID --csv -n
	[ "${#lines[@]}" -ge 202 ]
	printf '%s\n' "${lines[@]}" | grep -qx "qfdnss,2601" || { echo "$output"; false; }
	printf '%s\n' "${lines[@]}" | grep -qx ",5100" || { echo "$output"; false; }
	fs_umount rf-n
}

@test "exit status: ids over a limit exit 3 even when another filesystem fails; that failure alone exits 1" {
	for m in "${MNTS[@]}"; do
		for order in "$m /proc" "/proc $m"; do
			# shellcheck disable=SC2086
			run "$QFD" report -u --over soft --csv -n -o NAME $order
			[ "$status" -eq 3 ] || { echo "$order: $status $output"; false; }
			[[ $output == *"qfd: /proc: "* ]] || { echo "$order: $output"; false; }
			grep -qx qfdu1 <<<"$output"
		done
		# one pipe for both streams (cron mails it so): rows, then the
		# error, in the order they happened; a large stdout buffer put
		# the error first
		run "$QFD" report -u --over soft --csv -n -o NAME "$m" /proc
		[ "${lines[0]}" = qfdu1 ] && [[ ${lines[-1]} == "qfd: /proc: "* ]] ||
			{ echo "$output"; false; }
		# nobody in a group is at a hard limit: only the failure counts
		run "$QFD" report -g --over hard -n "$m" /proc
		[ "$status" -eq 1 ] || { echo "$m: $status $output"; false; }
	done
}

# A user may read the state (Q_GETINFO) but not walk the entries
# (Q_GETNEXTQUOTA): the document has begun when the kernel refuses.  A
# program reading it must get nothing rather than a document cut short.
@test "a failed dump or report -J leaves nothing on stdout: the walk refused after the document began" {
	for m in "${MNTS[@]}"; do
		for c in "dump -u" "dump" "report -J -u" "report --csv -g"; do
			# shellcheck disable=SC2086 # $c is words
			run --separate-stderr setpriv --reuid 2001 --regid 2001 --clear-groups \
				"$QFD" $c "$m"
			[ "$status" -eq 1 ] || { echo "$c $m: exit $status"; false; }
			[ -z "$output" ] || { echo "$c $m left: $output"; false; }
			[[ ${stderr_lines[0]} == "qfd: $m: permission denied to read "* ]] ||
				{ echo "$c $m: $stderr"; false; }
		done
		# root's dump of the same is whole JSON
		"$QFD" dump "$m" | jq -e '.filesystems[0].user.limits | length > 0'
	done
}

# The table for people on a terminal.  output.c hands libsmartcols 1024
# rows at a time; these 1600 users (appended to the guest's throw-away
# passwd) have names that take fewer cells than bytes: "ü" is 2 bytes and
# 1 cell, "名" 3 bytes and 2 cells.  The widest name comes only after row
# 1024, and a narrow terminal cuts it.
MB_USERS=1600
MB_LONG='ü名-a-rather-long-name-that-must-be-cut'
mb_fs() {
	MB_M=$QFD_SCRATCH/rf-w
	[ -e "$QFD_SCRATCH/.fs/rf-w" ] && return 0
	fs_ext4 rf-w >/dev/null
	"$QFD" on "$MB_M"
	grep -q '^ü名0000:' /etc/passwd || awk -v n="$MB_USERS" 'BEGIN {
		for (i = 0; i < n; i++)
			printf "ü名%04d:x:%d:%d::/:/bin/false\n", i, 20000 + i, 20000 + i
	}' >>/etc/passwd
	grep -qF "$MB_LONG:" /etc/passwd ||
		echo "$MB_LONG:x:21999:21999::/:/bin/false" >>/etc/passwd
	{ seq 20000 $((20000 + MB_USERS - 1)); echo 21999; } |
		awk '{ print "#" $1 " 1M 2M - -" }' | "$QFD" set -q "$MB_M" --batch -
}

# run_pty LOCALE COLS CMD...: CMD in LOCALE with its stdout on a pseudo-
# terminal COLS wide.  The VM's LANG is C.UTF-8 (tests/vm/run), but say so:
# C.UTF-8 is built into glibc, no locales package needed.
run_pty() {
	local loc=$1 cols=$2
	shift 2
	# -e: CMD's exit status; the terminal's CRs go before bats reads lines
	run bash -o pipefail -c 'script -qec "$1" /dev/null | tr -d "\r"' _ \
		"stty cols $cols rows 50; LC_ALL=$loc COLUMNS=$cols $*"
}

# Reads a table (title line first) and checks, in display cells, that
# every line has the same width (at most $1, when given) and that the
# second column ends at the same cell everywhere (-1: a line of one field,
# a wrapped row); prints what differs.
mb_aligned() {
	python3 -c '
import sys, unicodedata
def w(s):
	return sum(0 if unicodedata.combining(c) else
		   2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)
rows = sys.stdin.read().split("\n")[1:]
rows = [r for r in rows if r]
limit = int(sys.argv[1]) if len(sys.argv) > 1 else 0
widths, ends = {}, {}
for n, r in enumerate(rows):
	widths.setdefault(w(r), n)
	f = r.split()
	end = w(r[:r.index(f[1], len(f[0])) + len(f[1])]) if len(f) > 1 else -1
	ends.setdefault(end, n)
bad = len(widths) > 1 or len(ends) > 1 or (limit and max(widths) > limit)
if bad or len(rows) < 1500:
	print("%d rows; widths %s; ID ends at %s" % (len(rows), widths, ends))
	for n in sorted(set(widths.values()) | set(ends.values()) | {1, 1500}):
		if n < len(rows):
			print("%5d |%s|" % (n, rows[n]))
	sys.exit(1)
' "$@"
}

# A last column that always has a value: libsmartcols never pads the last
# column, so with the default last one (FILES-GRACE, empty here) every row
# would end before the heading does
MB_COLS=NAME,ID,STATUS,SPACE,SPACE-HARD

@test "table on a terminal: 1600 multibyte names line up past row 1024" {
	mb_fs
	run_pty C.UTF-8 250 "$QFD" report -u -o "$MB_COLS" "$MB_M"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	mb_aligned <<<"$output"
	# title, heading, root, the users, the long name
	[ "${#lines[@]}" -eq $((1 + 1 + 1 + MB_USERS + 1)) ] || { echo "${#lines[@]} lines"; false; }
	printf '%s\n' "${lines[@]}" | grep -q "^$MB_LONG  *21999 "
}

# libsmartcols prints every byte of a name that is not printable in the
# locale as \xHH, 4 cells; qfd must count them so too
@test "table on a terminal in the C locale: hex-escaped names line up past row 1024" {
	mb_fs
	run_pty C 250 "$QFD" report -u -o "$MB_COLS" "$MB_M"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	mb_aligned <<<"$output"
	printf '%s\n' "${lines[@]}" | grep -qF '\xc3\xbc\xe5\x90\x8d1599 '
}

@test "table on a narrow terminal: names cut to fit, numbers whole; piped: nothing cut" {
	mb_fs
	run_pty C.UTF-8 40 "$QFD" report -u -o NAME,ID,SPACE-HARD "$MB_M"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	mb_aligned 40 <<<"$output"
	printf '%s\n' "${lines[@]}" | grep -q ' 21999 *2M$' || { echo "$output" | tail; false; }
	printf '%s\n' "${lines[@]}" | grep -q '^ü名1599 *21599 *2M$'
	if printf '%s\n' "${lines[@]}" | grep -qF "$MB_LONG"; then
		echo "not cut: $MB_LONG"
		false
	fi
	LC_ALL=C.UTF-8 COLUMNS=40 run "$QFD" report -u -o NAME,ID,SPACE-HARD "$MB_M"
	printf '%s\n' "${lines[@]}" | grep -q "^$MB_LONG 21999 *2M\$" || { echo "$output" | tail; false; }
	mb_aligned <<<"$output"
}
