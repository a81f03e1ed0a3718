#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# 'qfd report --prometheus' / --textfile and 'qfd check' on the host: option
# handling, the plugin's UNKNOWN for bad arguments, and the metrics of a
# filesystem without quota support (/proc: the kernel answers ENOSYS).
# Real values are tested in the VM (report-prometheus.bats,
# check-plugin.bats).  Nothing here writes outside a temporary directory.

bats_require_minimum_version 1.5.0

setup() {
	: "${QFD:?QFD must name the qfd binary}"
}

@test "report --prometheus of /proc: a scrape error per type, valid for promtool, exit 0" {
	run --separate-stderr "$QFD" report --prometheus /proc
	[ "$status" -eq 0 ]
	[ "$stderr" = "qfd: /proc: proc has no quota support in this kernel" ]
	[ "$(grep -v '^#' <<<"$output")" = 'qfd_quota_scrape_error{mountpoint="/proc",fstype="proc",type="user"} 1
qfd_quota_scrape_error{mountpoint="/proc",fstype="proc",type="group"} 1
qfd_quota_scrape_error{mountpoint="/proc",fstype="proc",type="project"} 1' ]
	[ "$(grep -c '^# HELP qfd_quota_' <<<"$output")" -eq 10 ]
	promtool check metrics <<<"$output"
	# only the types asked for
	run --separate-stderr "$QFD" report --prometheus -g /proc
	[ "$(grep -v '^#' <<<"$output")" = 'qfd_quota_scrape_error{mountpoint="/proc",fstype="proc",type="group"} 1' ]
}

@test "report --prometheus refuses the table options, exit 2" {
	for o in -J -r --csv -b -n -H "-o NAME" "--sort ID"; do
		# shellcheck disable=SC2086 # "-o NAME" is two words
		run --separate-stderr "$QFD" report --prometheus $o /proc
		[ "$status" -eq 2 ] || { echo "accepted $o"; false; }
		[ -z "$output" ]
		[ "${stderr_lines[0]}" = "qfd: --prometheus prints fixed metrics: leave out -o, -H, -b, -J, -r, --csv, -n and --sort" ]
	done
	run "$QFD" report --textfile "" /proc
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "qfd: --textfile needs a file name" ]
}

@test "report --textfile: atomic file, mode 0644, the same as --prometheus; errors leave nothing" {
	d=$BATS_TEST_TMPDIR/tf
	mkdir "$d"
	run --separate-stderr "$QFD" report --textfile "$d/quota.prom" /proc
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	[ "$(ls -A "$d")" = quota.prom ]
	[ "$(stat -c %a "$d/quota.prom")" = 644 ]
	[ "$(cat "$d/quota.prom")" = "$("$QFD" report --prometheus /proc 2>/dev/null)" ]
	# a directory that does not exist: exit 1, one line
	run --separate-stderr "$QFD" report --textfile "$d/no/quota.prom" /proc
	[ "$status" -eq 1 ]
	[ "${stderr_lines[1]}" = "qfd: $d/no/quota.prom: cannot create a temporary file next to it: No such file or directory" ]
}

# What is at PATH, for comparing before and after: type, mode, link target.
textfile_target() {
	stat -c '%F %a %t:%T' "$1"
	if [ -L "$1" ]; then readlink "$1"; fi
}

@test "report --textfile refuses a target that is not a regular file, changing nothing, exit 2" {
	d=$BATS_TEST_TMPDIR/tf
	mkdir "$d"
	echo old >"$d/real.prom"
	mkdir "$d/dir.prom"
	mkfifo "$d/fifo.prom"
	ln -s real.prom "$d/link.prom"
	ln -s nowhere.prom "$d/dangling.prom"
	# perl-base is essential in Debian, python is not
	perl -MSocket -e 'socket(S, AF_UNIX, SOCK_STREAM, 0) && bind(S, pack_sockaddr_un($ARGV[0])) or die "$!"' "$d/sock.prom"
	kinds=("dir.prom:a directory" "fifo.prom:a fifo" "link.prom:a symbolic link"
		"dangling.prom:a symbolic link" "sock.prom:a socket")
	# a device node of our own, in the scratch directory only (root)
	if mknod "$d/null.prom" c 1 3 2>/dev/null; then
		kinds+=("null.prom:a character device")
	fi
	before=$(ls -A "$d")
	for fk in "${kinds[@]}"; do
		f=${fk%%:*} kind=${fk#*:}
		was=$(textfile_target "$d/$f")
		run --separate-stderr "$QFD" report --textfile "$d/$f" /proc
		[ "$status" -eq 2 ] || { echo "$f: exit $status"; false; }
		[ -z "$output" ]
		[ "$stderr" = "qfd: $d/$f: $kind, not a regular file: --textfile replaces only a regular file (remove it, or name another file)" ]
		[ "$(textfile_target "$d/$f")" = "$was" ] || { echo "$f changed"; false; }
	done
	[ "$(ls -A "$d")" = "$before" ]
	[ "$(cat "$d/real.prom")" = old ]
	# a regular file is replaced, through no link
	run --separate-stderr "$QFD" report --textfile "$d/real.prom" /proc
	[ "$status" -eq 0 ]
	grep -q '^# HELP' "$d/real.prom"
}

# The text format is UTF-8: a mount point with a byte that is not made
# promtool refuse every metric.  The mount is a tmpfs in a mount namespace
# of its own, gone with it: the host's mounts are not touched.
@test "report --prometheus: a label with a byte that is not UTF-8 gets U+FFFD, valid for promtool" {
	m=$BATS_TEST_TMPDIR/$'a\xffb'
	mkdir "$m"
	ns=(unshare -m)
	[ "$(id -u)" -eq 0 ] || ns=(unshare -rm)
	"${ns[@]}" true 2>/dev/null || skip "no mount namespace here"
	run --separate-stderr "${ns[@]}" sh -c 'mount -t tmpfs tmpfs "$1" && "$QFD" report --prometheus -u "$1"' sh "$m"
	[ "$status" -eq 0 ]
	[ "$(grep -v '^#' <<<"$output")" = "qfd_quota_scrape_error{mountpoint=\"$BATS_TEST_TMPDIR/a�b\",fstype=\"tmpfs\",type=\"user\"} 1" ]
	promtool check metrics <<<"$output"
}

# qfd-prometheus(8) says the family files go to $TMPDIR; tmpfile(3) took
# /tmp whatever it said.
@test "report --prometheus: no temporary file, whatever \$TMPDIR says" {
	command -v strace >/dev/null || skip "no strace"
	t=$BATS_TEST_TMPDIR/tmp
	mkdir "$t"
	# LeakSanitizer cannot run under ptrace
	ASAN_OPTIONS=detect_leaks=0 TMPDIR=$t strace -f -e trace=openat,memfd_create \
		-o "$t.trace" "$QFD" report --prometheus /proc >"$t.out" 2>/dev/null
	grep -q 'openat' "$t.trace"
	! grep -E 'O_TMPFILE|memfd_create' "$t.trace"
	[ "$(grep -c '^qfd_quota_scrape_error' "$t.out")" -eq 3 ]
	[ "$(ls -A "$t")" = "" ]
	run --separate-stderr env TMPDIR=/nonexistent "$QFD" report --prometheus /proc
	[ "$status" -eq 0 ]
	[ "$output" = "$(cat "$t.out")" ]
}

@test "report --prometheus to a full stdout fails" {
	run sh -c '"$QFD" report --prometheus /proc >/dev/full 2>/dev/null'
	[ "$status" -eq 1 ]
}

@test "check --help lists every option, and each is accepted" {
	run "$QFD" check --help
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "Usage: qfd check [-ugp] [-w T] [-c T] [-i WHO]... [-a | PATH...]" ]
	for o in -u -g -p -a --all -i --id -w --warning -c --critical \
		-W --files-warning -C --files-critical -V --version -h --help; do
		[[ $output == *" $o"[\ ,]* ]] || { echo "--help lacks $o"; false; }
	done
	"$QFD" --help | grep -q '^  check '
	for o in "-u" "-g" "-p" "--user" "--group" "--project" "-i 0" "--id=0" \
		"-w 80%" "--warning=1G" "-c 90%" "--critical=2G" "-W 80%" \
		"--files-warning=10" "-C 90%" "--files-critical=20"; do
		# shellcheck disable=SC2086
		run "$QFD" check $o /proc
		[ "$status" -eq 3 ] || { echo "$o: $status $output"; false; }
		[[ $output == "QUOTA UNKNOWN - /proc: proc has no quota support in this kernel"* ]] ||
			{ echo "$o: $output"; false; }
	done
}

# The Monitoring Plugins guidelines: every plugin answers -V and --version.
@test "check -V and --version print the version, exit 0" {
	for o in -V --version; do
		run --separate-stderr "$QFD" check $o
		[ "$status" -eq 0 ]
		[[ $output =~ ^qfd\ check\ [0-9]+\.[0-9]+\.[0-9]+$ ]]
		[ -z "$stderr" ]
	done
}

@test "check: bad arguments are UNKNOWN (exit 3) with one status line naming the problem" {
	run --separate-stderr "$QFD" check -w 8Q /proc
	[ "$status" -eq 3 ]
	[ "$output" = "QUOTA UNKNOWN - -w '8Q': give a percentage of the limit (80%) or a size (9G)" ]
	[ "$stderr" = "Try 'qfd check --help' for more information." ]
	run --separate-stderr "$QFD" check -C 1.5 /proc
	[ "$output" = "QUOTA UNKNOWN - -C '1.5': give a percentage of the limit (80%) or a number of files (9000)" ]
	run "$QFD" check -w 101% /proc
	[ "$status" -eq 3 ]
	run --separate-stderr "$QFD" check -w 90% -c 80% /proc
	[ "$status" -eq 3 ]
	[ "$output" = "QUOTA UNKNOWN - the space warning threshold is above the critical one: give -w below -c" ]
	run --separate-stderr "$QFD" check -W 100 -C 10 /proc
	[ "$output" = "QUOTA UNKNOWN - the files warning threshold is above the critical one: give -W below -C" ]
	run --separate-stderr "$QFD" check
	[ "$status" -eq 3 ]
	[ "$output" = "QUOTA UNKNOWN - name a path on the filesystem, or -a for all" ]
	run --separate-stderr "$QFD" check -a /proc
	[ "$output" = "QUOTA UNKNOWN - -a and paths exclude each other" ]
	run --separate-stderr "$QFD" check --bogus /proc
	[ "$status" -eq 3 ]
	[ "$output" = "QUOTA UNKNOWN - bad arguments: 'qfd check --help' lists the options" ]
	# Nagios and NRPE drop stderr: the reason is on the status line
	run --separate-stderr "$QFD" check /no/such/path
	[ "$status" -eq 3 ]
	[ "$output" = "QUOTA UNKNOWN - /no/such/path: No such file or directory" ]
	[ -z "$stderr" ]
	run --separate-stderr "$QFD" check /proc /no/such/path
	[ "$status" -eq 3 ]
	[ "$output" = "QUOTA UNKNOWN - /no/such/path: No such file or directory" ]
	[ -z "$stderr" ]
	run --separate-stderr "$QFD" check -i no-such-user-qfd /proc
	[ "$status" -eq 3 ]
	[ "$output" = "QUOTA UNKNOWN - unknown user 'no-such-user-qfd'" ]
}

@test "check of a filesystem without quota support: UNKNOWN, the reason on stdout, nothing on stderr" {
	run --separate-stderr "$QFD" check /proc
	[ "$status" -eq 3 ]
	[ "$output" = "QUOTA UNKNOWN - /proc: proc has no quota support in this kernel" ]
	[ -z "$stderr" ]
}

@test "watch: --help lists its options; arguments and an empty --exec are refused, exit 2" {
	run "$QFD" watch --help
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "Usage: qfd watch [-J] [-N] [--exec CMD]" ]
	for o in -J --json -N --numeric --exec -h --help; do
		[[ $output == *" $o"[\ ,]* ]] || { echo "--help lacks $o"; false; }
	done
	"$QFD" --help | grep -q '^  watch '
	run "$QFD" watch /proc
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "qfd: watch takes no arguments: it reports every filesystem" ]
	run "$QFD" watch --exec ""
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "qfd: --exec needs a command" ]
	# a program that is not there: at start, not at the first event
	for p in no-such-program-qfd /no/such/program "$BATS_TEST_TMPDIR"; do
		# timeout: accepted, watch would run until stopped
		run --separate-stderr timeout 5 "$QFD" watch --exec "$p"
		[ "$status" -eq 2 ] || { echo "$p: $status"; false; }
		[ "${stderr_lines[0]}" = "qfd: --exec $p: no such program, or not executable (it is run without a shell, looked up in PATH)" ]
	done
	# one in PATH passes (then the kernel's events, or no family: not 2)
	run timeout 5 "$QFD" watch --exec true
	[ "$status" -ne 2 ]
	run "$QFD" watch --bogus
	[ "$status" -eq 2 ]
	[ "${lines[-1]}" = "Try 'qfd watch --help' for more information." ]
}
