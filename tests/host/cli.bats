#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The command line on the host: help, usage errors, bad input.  Nothing
# here needs quotas: every case fails (or succeeds) before the first quota
# call, or on the host's own root, whose kernel answers ESRCH or ENOSYS.
# Only reads touch /; whatever could change limits aims at /proc (no
# quota support, ENOSYS), so the host is never changed.

bats_require_minimum_version 1.5.0

setup() {
	: "${QFD:?QFD must name the qfd binary}"
}

COMMANDS="get set report state project on off sync check watch"

@test "qfd --help lists every command and exits 0" {
	run "$QFD" --help
	[ "$status" -eq 0 ]
	for c in $COMMANDS; do
		[[ "$output" == *"  $c "* ]] || { echo "missing $c"; false; }
	done
}

@test "qfd CMD --help prints its usage on stdout and exits 0" {
	for c in $COMMANDS; do
		run "$QFD" "$c" --help
		[ "$status" -eq 0 ]
		[[ "${lines[0]}" == "Usage: qfd $c "* ]]
		[[ "$output" == *"-h, --help"* ]]
	done
}

@test "qfd --version" {
	run "$QFD" --version
	[ "$status" -eq 0 ]
	[[ "$output" =~ ^qfd\ [0-9]+\.[0-9]+\.[0-9]+$ ]]
}

@test "no command: one line, a hint, exit 2" {
	run "$QFD"
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "qfd: no command given" ]
	[ "${lines[1]}" = "Try 'qfd --help' for more information." ]
}

@test "unknown command: names it, exit 2" {
	run "$QFD" frobnicate
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "qfd: unknown command 'frobnicate'" ]
}

@test "unknown option of a command: hint names the command" {
	run "$QFD" report --bogus /
	[ "$status" -eq 2 ]
	[ "${lines[-1]}" = "Try 'qfd report --help' for more information." ]
}

@test "set: malformed and overflowing sizes are refused, exit 2" {
	for bad in 10Q 99999999999999999999T --5 1.5.5M "" M 0x10 "1 M"; do
		run "$QFD" set /proc root --bhard "$bad"
		[ "$status" -eq 2 ] || { echo "accepted '$bad'"; false; }
		[[ "${lines[0]}" == "qfd: --bhard '$bad': "* ]]
	done
	run "$QFD" set /proc root --bhard 99999999999999999999T
	[ "${lines[0]}" = "qfd: --bhard '99999999999999999999T': too large" ]
	run "$QFD" set /proc root --isoft 1.5
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == "qfd: --isoft '1.5': not a count"* ]]
}

@test "set: unknown user, group and project are refused, exit 2" {
	run "$QFD" set /proc no-such-user-qfd --bhard 1M
	[ "$status" -eq 2 ]
	[ "$output" = "qfd: unknown user 'no-such-user-qfd'" ]
	run "$QFD" set -g /proc no-such-group-qfd --bhard 1M
	[ "$status" -eq 2 ]
	[ "$output" = "qfd: unknown group 'no-such-group-qfd'" ]
	run "$QFD" set -p /proc no-such-project-qfd --bhard 1M
	[ "$status" -eq 2 ]
	[[ "$output" == "qfd: unknown project 'no-such-project-qfd': not in /etc/projid"* ]]
}

# A 4 MiB name made systemd's NSS module abort qfd (an alloca over its
# limit); a name carrying terminal escapes reached the terminal raw.
@test "names: too long for the system is refused before any lookup; echoed names are escaped and shortened" {
	max=$(($(getconf LOGIN_NAME_MAX) - 1))
	long=$(printf "%$((max + 1))s" "" | tr ' ' a)
	a40=$(printf '%40s' "" | tr ' ' a)
	for t in "-u user" "-g group"; do
		run --separate-stderr "$QFD" get ${t% *} /proc "$long"
		[ "$status" -eq 2 ]
		[ "$stderr" = "qfd: ${t#* } name '$a40...' is longer than the $max bytes a name may have" ]
	done
	# the longest allowed is looked up: an unknown name, shortened
	run --separate-stderr "$QFD" get /proc "${long:1}"
	[ "$status" -eq 2 ]
	[ "$stderr" = "qfd: unknown user '$a40...'" ]
	# in a batch file: one bad line, no abort
	echo "$long 1M 2M 1 2" >"$BATS_TEST_TMPDIR/long.txt"
	run --separate-stderr "$QFD" set --batch "$BATS_TEST_TMPDIR/long.txt" /proc
	[ "$status" -eq 2 ]
	[ "${stderr_lines[0]}" = "qfd: $BATS_TEST_TMPDIR/long.txt:1: user name '$a40...' is longer than the $max bytes a name may have" ]
	# escapes, C1 controls (UTF-8 or not), a backslash: as \xHH; UTF-8 as it is
	run --separate-stderr "$QFD" get /proc $'\e]0;owned\a\e[2J\x9b\xc2\x9bü名\\'
	[ "$status" -eq 2 ]
	[ "$stderr" = 'qfd: unknown user '"'"'\x1b]0;owned\x07\x1b[2J\x9b\xc2\x9bü名\x5c'"'" ]
	printf 'root \e[31m1M - - -\n' >"$BATS_TEST_TMPDIR/esc.txt"
	run --separate-stderr "$QFD" set --batch "$BATS_TEST_TMPDIR/esc.txt" /proc
	[ "${stderr_lines[0]}" = "qfd: $BATS_TEST_TMPDIR/esc.txt:1: space soft limit '\x1b[31m1M': not a size (examples: 0, 500M, 1.5G, 2TiB)" ]
}

# Values from a command line a script built: the same escaping as names.
@test "command-line values in error lines are escaped and cut as names are" {
	e=$'\e[2J'
	for c in "report -o ID,${e}x /proc:unknown column '\x1b[2Jx': 'qfd report -H' lists the columns" \
		"${e}:unknown command '\x1b[2J'" \
		"project ${e}:unknown action '\x1b[2J': set, clear or show" \
		"report --over ${e} /proc:--over takes 'soft' or 'hard', not '\x1b[2J'" \
		"set --bsoft 1${e} /proc root:--bsoft '1\x1b[2J': not a size (examples: 0, 500M, 1.5G, 2TiB)"; do
		# shellcheck disable=SC2086 # the words of a command line
		run --separate-stderr "$QFD" ${c%%:*}
		[ "$status" -eq 2 ] || { echo "${c%%:*}: $status"; false; }
		[ "${stderr_lines[0]}" = "qfd: ${c#*:}" ]
	done
	run --separate-stderr "$QFD" check -w $'\x9b5' /proc
	[ "$output" = "QUOTA UNKNOWN - -w '\x9b5': give a percentage of the limit (80%) or a size (9G)" ]
	run --separate-stderr "$QFD" report --sort "$(printf '%50s' "" | tr ' ' s)" /proc
	[ "${stderr_lines[0]}" = "qfd: unknown column '$(printf '%40s' "" | tr ' ' s)...' for --sort: 'qfd report -H' lists the columns" ]
}

@test "names: one too long never reaches NSS (no /etc/passwd opened)" {
	command -v strace >/dev/null || skip "no strace"
	long=$(printf "%$(getconf LOGIN_NAME_MAX)s" "" | tr ' ' a)
	trace=$BATS_TEST_TMPDIR/trace
	# LeakSanitizer cannot run under ptrace
	ASAN_OPTIONS=detect_leaks=0 strace -f -e trace=openat -o "$trace" \
		"$QFD" get /proc no-such-user-qfd 2>/dev/null || true
	grep -q '"/etc/passwd"' "$trace" || skip "strace shows no NSS lookup here"
	ASAN_OPTIONS=detect_leaks=0 strace -f -e trace=openat -o "$trace" \
		"$QFD" get /proc "$long" 2>/dev/null || true
	! grep '"/etc/passwd"' "$trace"
}

@test "ids: out of range and malformed numeric ids" {
	run "$QFD" get / 4294967295
	[ "$status" -eq 2 ]
	[ "$output" = "qfd: user id '4294967295' is out of range (0 to 4294967294)" ]
	run "$QFD" get / '#12x'
	[ "$status" -eq 2 ]
	[ "$output" = "qfd: invalid user id '#12x': '#' takes a number (0 to 4294967294)" ]
}

@test "set: nothing to set, no WHO, two types: exit 2" {
	run "$QFD" set /proc root
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == "qfd: nothing to set: "* ]]
	run "$QFD" set /proc --bhard 1M
	[ "$status" -eq 2 ]
	run "$QFD" set -ug /proc root --bhard 1M
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "qfd: set one quota type at a time: -u, -g or -p" ]
}

@test "a path that does not exist: names it, exit 2" {
	for c in "get" "report" "state" "on" "off" "sync"; do
		run "$QFD" $c /no/such/path/qfd
		[ "$status" -eq 2 ]
		[ "${lines[0]}" = "qfd: /no/such/path/qfd: No such file or directory" ]
	done
	run "$QFD" set /no/such/path/qfd root --bhard 1M
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "qfd: /no/such/path/qfd: No such file or directory" ]
}

@test "report: unknown column, bad --over, -a with paths: exit 2" {
	run "$QFD" report -o NAME,BOGUS /
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "qfd: unknown column 'BOGUS': 'qfd report -H' lists the columns" ]
	# the command that lists them, not a placeholder to fill in
	for c in get state "project show"; do
		# shellcheck disable=SC2086
		run "$QFD" $c --sort BOGUS /proc
		[ "${lines[0]}" = "qfd: unknown column 'BOGUS' for --sort: 'qfd $c -H' lists the columns" ]
	done
	run "$QFD" report --over medium /
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "qfd: --over takes 'soft' or 'hard', not 'medium'" ]
	run "$QFD" report -a /
	[ "$status" -eq 2 ]
	run "$QFD" report
	[ "$status" -eq 2 ]
}

@test "-H lists every column with its meaning" {
	run "$QFD" report -H
	[ "$status" -eq 0 ]
	for c in NAME ID STATUS SPACE SPACE-SOFT SPACE-HARD SPACE-GRACE SPACE-USE% \
		 FILES FILES-SOFT FILES-HARD FILES-GRACE FILES-USE% TARGET FSTYPE TYPE; do
		[[ "$output" == *" $c  "* ]] || { echo "missing $c"; false; }
	done
	run "$QFD" state -H
	[ "$status" -eq 0 ]
	[[ "$output" == *"ENFORCING  limits are enforced"* ]]
}

@test "get -p without a project asks for one" {
	run "$QFD" get -p /
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "qfd: name the project: processes have no own project" ]
}

@test "a filesystem without quotas: one line naming the mount point, exit 1" {
	# The host's kernel has quota support but no quota-enabled filesystem:
	# its root answers ENOSYS or ESRCH, both produced by the real kernel.
	run "$QFD" get / root
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "${lines[0]}" == "qfd: /: "* ]]
	run "$QFD" report /
	[ "$status" -eq 1 ]
	[[ "${lines[0]}" == "qfd: /: "* ]]
}

@test "--debug traces the quota call on stderr" {
	run "$QFD" --debug get / root
	[ "$status" -eq 1 ]
	[[ "${lines[0]}" == "qfd: debug: quotactl_fd(/, Q_GETQUOTA, user, 0) = "* ]]
}

# -a skips what has no quotas or cannot be reached; --debug says why
@test "-a: --debug names each mount skipped and why" {
	m=$(findmnt -rn -t tmpfs -o TARGET | head -n 1)
	[ -n "$m" ] || skip "no tmpfs mounted here"
	for c in "state -a" "check -a"; do
		# shellcheck disable=SC2086
		run --separate-stderr "$QFD" -d $c
		grep -q "^qfd: debug: -a skips $m: " <<<"$stderr" ||
			{ echo "$c: $stderr"; false; }
	done
}

# RFC 8259 text is UTF-8: a byte that is not (a Latin-1 name, a path of
# any bytes) went raw into -J, and strict readers refused the document.
@test "-J is valid UTF-8: a byte that is not UTF-8 is U+FFFD, a C1 control \\u0085" {
	d=$BATS_TEST_TMPDIR/$'a\xffb\xc2\x85\xc3\xbc'
	mkdir "$d"
	run --separate-stderr "$QFD" project show -J -o PATH "$d"
	[ "$status" -eq 0 ]
	[ "${lines[3]}" = "         \"path\": \"$BATS_TEST_TMPDIR/a\\ufffdb\\u0085ü\"" ]
	iconv -f UTF-8 -t UTF-8 <<<"$output" >/dev/null
}

# Two blanks for an empty cell made read and awk shift the columns after it.
@test "-r: an empty cell is '-', so every row has every column" {
	d=$BATS_TEST_TMPDIR/raw
	mkdir "$d"
	run --separate-stderr "$QFD" project show --raw -n "$d"
	[ "$status" -eq 0 ]
	[ "$output" = "$d 0 - no" ]
	read -r path id project inherit <<<"$output"
	[ "$project" = - ] && [ "$inherit" = no ]
}

# The last one winning would hide a slip in a script.
@test "an option with a value given twice is refused, exit 2; flags and check -i may repeat" {
	for c in "set --batch a --batch b /proc:--batch" \
		"set --bsoft 1M --space-soft 2M /proc root:--bsoft" \
		"report -o ID --output=NAME /proc:-o (--output)" \
		"report --textfile a --textfile b /proc:--textfile" \
		"get --sort ID --sort NAME /proc:--sort" \
		"state -o TYPE -o TARGET /proc:-o (--output)" \
		"project show --sort ID --sort PATH /proc:--sort" \
		"watch --exec true --exec true:--exec"; do
		# shellcheck disable=SC2086 # the words of a command line
		# timeout: a watch that took it would run until stopped
		run --separate-stderr timeout 10 "$QFD" ${c%%:*}
		[ "$status" -eq 2 ] || { echo "${c%%:*}: $status"; false; }
		[ "${stderr_lines[0]}" = "qfd: ${c#*:} given twice: give it once" ]
	done
	run --separate-stderr "$QFD" check -w 80% --warning=90% /proc
	[ "$status" -eq 3 ]
	[ "$output" = "QUOTA UNKNOWN - -w (--warning) given twice: give it once" ]
	# flags and -i: as before
	run --separate-stderr "$QFD" check -i root -i daemon /proc
	[[ $output == "QUOTA UNKNOWN - /proc: "* ]]
	run --separate-stderr "$QFD" report -J -J -u -u /proc
	[ "$status" -eq 1 ]
}

@test "QFD_DEBUG: 1 traces, 0 and empty do not" {
	QFD_DEBUG=1 run "$QFD" get / root
	[[ "${lines[0]}" == "qfd: debug: quotactl_fd(/, "* ]]
	for v in 0 ""; do
		QFD_DEBUG=$v run "$QFD" get / root
		[ "$status" -eq 1 ]
		[[ $output != *"debug:"* ]] || { echo "QFD_DEBUG='$v': $output"; false; }
	done
}

@test "writing to a closed or full stdout is a failure" {
	[ -w /dev/full ] || skip "no /dev/full"
	run sh -c '"$QFD" --help >/dev/full'
	[ "$status" -eq 1 ]
	[[ "$output" == "qfd: write error"* ]]
	# a machine format, held back until the end: the same line
	run --separate-stderr sh -c '"$QFD" state -J -a >&-'
	[ "$status" -eq 1 ]
	[ "$stderr" = "qfd: write error: Bad file descriptor" ]
	# metrics, whose family files must not take the closed stdout's (or
	# stderr's) number: the first family was copied onto itself forever
	run --separate-stderr sh -c 'timeout 60 "$QFD" report --prometheus / >&-'
	[ "$status" -eq 1 ]
	[[ $stderr == *"qfd: write error: Bad file descriptor" ]]
	run --separate-stderr sh -c 'timeout 60 "$QFD" report --prometheus / 2>&-'
	[ "$status" -eq 0 ]
	[[ $output != *"qfd:"* ]]
}

# A program cannot tell a document cut short from a whole one: after a
# failure (exit 1 or 2) a machine format leaves nothing on stdout.  -u on a
# named path starts the document before the kernel's answer (issue 30).
@test "a failed command leaves no document on stdout: dump, -J, -r, --csv" {
	d=$BATS_TEST_TMPDIR/p
	mkdir "$d"
	for c in "dump -u /proc" "dump -p --project-dirs /proc" \
		"report -J -u /proc /" "report -r -u / /proc" "report --csv -g /proc" \
		"report -J --sort ID -u /proc /" "state -J / /proc" "state --csv /proc /" \
		"state -r /proc" "get -J / root" "project show -J $d /proc" \
		"project show --csv $d /proc"; do
		# shellcheck disable=SC2086 # $c is the words of a command line
		run --separate-stderr "$QFD" $c
		[ "$status" -eq 1 ] || { echo "$c: exit $status"; false; }
		[ -z "$output" ] || { echo "$c left: $output"; false; }
		[ -n "$stderr" ]
	done
	# the same commands that succeed print their whole document
	run --separate-stderr "$QFD" project show -J "$d"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "{" ] && [ "${lines[-1]}" = "}" ]
	run --separate-stderr "$QFD" state -J -a
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "{" ] && [ "${lines[-1]}" = "}" ]
	# appended to a file (O_APPEND), and where no temporary file can be made
	echo first >"$d/out"
	"$QFD" project show --csv "$d" >>"$d/out"
	TMPDIR=/nonexistent "$QFD" project show --csv -n "$d" >>"$d/out"
	[ "$(cat "$d/out")" = "first
PATH,ID,PROJECT,INHERIT
$d,0,,no
$d,0,,no" ]
	# one stream for both (2>&1, cron's mail): the lines as they happened
	run "$QFD" project show --csv -n "$d" /proc
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "$d,0,,no" ]
	[[ ${lines[1]} == "qfd: /proc: "* ]]
	# a full stdout is still a failure, and says so
	run sh -c '"$QFD" project show -J "$1" >/dev/full' sh "$d"
	[ "$status" -eq 1 ]
	[ "$output" = "qfd: write error: No space left on device" ]
}

# Under the sanitizer build (make check's), qsort(NULL, 0) was a UBSan
# report and exit 1: with no rows, --sort prints what it would without it.
@test "--sort with no rows: no undefined behaviour, only the one error line" {
	run "$QFD" get /proc --sort ID
	[ "$status" -eq 1 ]
	[ "$output" = "qfd: /proc: proc has no quota support in this kernel" ]
	run "$QFD" state /proc --sort TARGET -J
	[ "$status" -eq 1 ]
	[[ $output != *"runtime error"* ]]
	run "$QFD" report /proc --sort NAME --csv
	[ "$status" -eq 1 ]
	[[ $output != *"runtime error"* ]]
}

# In a private mount namespace (the host's mounts are not touched),
# /etc/passwd and /etc/group become a /proc/PID/mem of a process that is
# gone: the files NSS source fails to open them.  getpwent() then ends with
# NULL and errno, which was taken as the end of the database in silence.
# Many ids make qfd read the databases whole; one id at a time (getpwnam)
# glibc hides the failure of files when a later source (systemd) answers.
@test "a failing user or group database is reported, not taken as empty" {
	[ "$(id -u)" -eq 0 ] || { echo "needs root for unshare -m"; false; }
	run unshare -m sh -c 'mount --bind /proc/self/mem /etc/passwd &&
		mount --bind /proc/self/mem /etc/group &&
		"$0" get /proc $(seq 1000 1100) 2>&1 | head -n 2;
		"$0" get -g /proc $(seq 1000 1100) 2>&1 | head -n 2' "$QFD"
	[[ ${lines[0]} == "qfd: cannot read the user database: "*": some names may be missing" ]]
	[[ $output == *"qfd: cannot read the group database: "*": some names may be missing"* ]]
	# and nothing of the kind when the database is there
	run "$QFD" get /proc root
	[ "$output" = "qfd: /proc: proc has no quota support in this kernel" ]
}

@test "exit status: a PATH the caller may not reach is 1 (refused), a PATH that does not exist is 2" {
	[ "$(id -u)" -eq 0 ] || { echo "needs root for setpriv"; false; }
	mkdir -p "$BATS_TEST_TMPDIR/private/sub"
	chmod 700 "$BATS_TEST_TMPDIR/private"
	for c in get state report; do
		run setpriv --reuid 65534 --regid 65534 --clear-groups \
			"$QFD" "$c" "$BATS_TEST_TMPDIR/private/sub"
		[ "$status" -eq 1 ] || { echo "$c: $status $output"; false; }
		[ "$output" = "qfd: $BATS_TEST_TMPDIR/private/sub: Permission denied" ]
		run "$QFD" "$c" "$BATS_TEST_TMPDIR/nonexistent"
		[ "$status" -eq 2 ] || { echo "$c: $status $output"; false; }
	done
	run setpriv --reuid 65534 --regid 65534 --clear-groups \
		"$QFD" set -n "$BATS_TEST_TMPDIR/private/sub" root --bhard 1M
	[ "$status" -eq 1 ]
}

# A tmpfs in a private mount namespace.  tmpfs answers ENOSYS both on a
# kernel built without CONFIG_TMPFS_QUOTA (the host's, usually) and for a
# tmpfs mounted without usrquota/grpquota on a kernel that has it: qfd asks
# the kernel which (a filesystem context, never mounted), as root; anyone
# else gets the line that names both.
@test "tmpfs without quotas: the error says whether the kernel or the mount lacks them" {
	[ "$(id -u)" -eq 0 ] || { echo "needs root for unshare -m"; false; }
	local t=$BATS_TEST_TMPDIR/t want
	mkdir -p "$t"
	if unshare -m mount -t tmpfs -o usrquota none "$t" 2>/dev/null; then
		want="quotas are off: tmpfs was mounted without usrquota or grpquota; unmount it and mount it with -o usrquota (a remount cannot add them)"
	else
		want="no quotas on tmpfs: this kernel ($(uname -r)) was built without tmpfs quota support (CONFIG_TMPFS_QUOTA, Linux 6.6 or later)"
	fi
	run unshare -m sh -c 'mount -t tmpfs none "$1" && "$0" state "$1"' "$QFD" "$t"
	[ "$status" -eq 1 ]
	[ "$output" = "qfd: $t: $want" ] || { echo "$output"; false; }
	# (bats's own directories are private: one that nobody may reach)
	t=$(mktemp -d /tmp/qfd-tmpfs.XXXXXX)
	chmod 755 "$t"
	run unshare -m sh -c 'mount -t tmpfs none "$1" &&
		setpriv --reuid 65534 --regid 65534 --clear-groups "$0" get "$1"' "$QFD" "$t"
	rmdir "$t"
	[ "$status" -eq 1 ]
	[ "$output" = "qfd: $t: quotas are off: tmpfs keeps them only when mounted with usrquota or grpquota, on Linux 6.6 or later built with CONFIG_TMPFS_QUOTA" ] ||
		{ echo "$output"; false; }
}
