#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# 'qfd set' input checking on the host, with no VM: batch files, option
# combinations, durations.  Everything here is refused before the first
# quota call, which is the point: a bad batch line must cost nothing.  A
# good batch gets as far as the host kernel.  Every set here aims at /proc,
# which has no quota support at all (ENOSYS, exit 1, not 2), never at /:
# were the host's root ever quota-enabled, a test must not change it.
#
# Run: QFD=/path/to/src/qfd bats tests/host/set-batch.bats

bats_require_minimum_version 1.5.0

setup() {
	: "${QFD:?QFD must name the qfd binary}"
	B=$BATS_TEST_TMPDIR
}

# three good lines around a bad one on line 4
batch_with() {
	printf '%s\n' "# header comment" "root 1M 2M 10 20" "" "$1" \
		"daemon 1M 2M - -" >"$B/users.txt"
}

# batch_refused LINE TEXT: the batch of batch_with LINE is refused, exit 2,
# and what qfd says contains TEXT
batch_refused() {
	batch_with "$1"
	run "$QFD" set --batch "$B/users.txt" /proc
	[ "$status" -eq 2 ]
	[[ $output == *"$2"* ]]
}

@test "batch: a bad size names FILE:LINE and exits 2 before any quota call" {
	batch_with "bin 10M 2X - -"
	run "$QFD" --debug set --batch "$B/users.txt" /proc
	[ "$status" -eq 2 ]
	[[ $output == *"qfd: $B/users.txt:4: space hard limit '2X': not a size"* ]]
	[[ $output == *"1 bad line: nothing was changed"* ]]
	# --debug traces every quota call: there was none
	[[ $output != *"quotactl"* ]]
}

@test "batch: an unknown user names FILE:LINE and exits 2" {
	batch_refused "bob 1M 2M - -" "qfd: $B/users.txt:4: unknown user 'bob'"
}

@test "batch: a wrong field count names FILE:LINE and exits 2" {
	batch_refused "bin 1M 2M" "$B/users.txt:4: 3 fields, expected 5: WHO BSOFT BHARD ISOFT IHARD"
	batch_refused "bin 1M 2M 3 4 5" "users.txt:4: 6 fields, expected 5"
}

@test "batch: bad counts, a soft limit over the hard one on one line, an id twice" {
	batch_refused "bin - - 1.5 10" "users.txt:4: files soft limit '1.5': not a count"
	batch_refused "bin 3M 2M - -" "users.txt:4: space soft limit '3M' exceeds the space hard limit '2M'"
	batch_refused "#0 - - 1 2" "users.txt:4: user '#0' (0) is also on line 2"
}

@test "batch: every bad line is reported, the first ten of them in full" {
	for i in $(seq 25); do echo "nouser$i 1M 2M - -"; done >"$B/many.txt"
	run "$QFD" set --batch "$B/many.txt" /proc
	[ "$status" -eq 2 ]
	[[ $output == *"many.txt:10: unknown user 'nouser10'"* ]]
	[[ $output != *"many.txt:11:"* ]]
	[[ $output == *"15 more bad lines not shown"* ]]
	[[ $output == *"25 bad lines: nothing was changed"* ]]
}

@test "batch from stdin is named 'stdin'; comments, blanks and #ID lines parse" {
	run "$QFD" set --batch - /proc <<<"bob 1M 2M - -"
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "qfd: stdin:1: unknown user 'bob'" ]
	# a good batch passes every check and reaches the kernel: exit 1, not 2
	run "$QFD" set --batch - /proc <<-EOF
	# comment
	  # indented comment

	#0   1M 2M 10 20   # trailing comment
	daemon - - - -
	EOF
	[ "$status" -eq 1 ]
	[[ $output == "qfd: /proc: "* ]]
}

@test "batch: a missing file is named, exit 2" {
	run "$QFD" set --batch "$B/nonexistent" /proc
	[ "$status" -eq 2 ]
	[[ $output == *"$B/nonexistent: No such file or directory"* ]]
}

@test "100,000 batch lines are checked in one quick pass" {
	seq 100000 199999 | awk '{ print "#" $1, "10M", "20M", "1k", "2k" }' >"$B/big.txt"
	echo "#100 1M 1X - -" >>"$B/big.txt"
	start=$SECONDS
	run "$QFD" set --batch "$B/big.txt" /proc
	[ "$status" -eq 2 ]
	[[ $output == *"big.txt:100001: space hard limit '1X'"* ]]
	((SECONDS - start < 10))
}

@test "option combinations that make no sense are usage errors (exit 2)" {
	echo "root 1M 2M - -" >"$B/ok.txt"
	run "$QFD" set --batch "$B/ok.txt" /proc root
	[ "$status" -eq 2 ]
	[[ $output == *"--batch takes ids and limits from its file"* ]]
	run "$QFD" set --batch "$B/ok.txt" --bhard 1M /proc
	[ "$status" -eq 2 ]
	run "$QFD" set --batch "$B/ok.txt" --like root /proc
	[ "$status" -eq 2 ]
	run "$QFD" set /proc root
	[ "$status" -eq 2 ]
	[[ $output == *"nothing to set"* ]]
	run "$QFD" set --bhard 1M /proc
	[ "$status" -eq 2 ]
	[[ $output == *"name who to set limits for"* ]]
	run "$QFD" set --grace-space 1d /proc root
	[ "$status" -eq 2 ]
	run "$QFD" set --reset-grace --grace-time 1h /proc daemon
	[ "$status" -eq 2 ]
	[[ $output == *"exclude each other"* ]]
	run "$QFD" set -u -g --bhard 1M /proc root
	[ "$status" -eq 2 ]
	[[ $output == *"Try 'qfd set --help'"* ]]
}

@test "durations: bad ones exit 2; good ones reach the kernel" {
	for d in 1x 1d2 '' h 1.5h; do
		run "$QFD" set --grace-space "$d" /proc
		[ "$status" -eq 2 ] || { echo "'$d': $status"; false; }
		[[ $output == *"not a duration"* ]]
	done
	for d in 90s 15m 12h 7d 2w 1d12h 3600; do
		run "$QFD" set --grace-space "$d" --grace-files "$d" /proc
		[ "$status" -eq 1 ] || { echo "'$d': $status $output"; false; }
	done
}

@test "a per-id grace time for id 0 is refused: the kernel would take it as everyone's" {
	run "$QFD" set --grace-time 1h /proc root
	[ "$status" -eq 2 ]
	[[ $output == *"user root (0): the kernel takes a grace time for id 0"* ]]
	run "$QFD" set -g --reset-grace /proc '#0'
	[ "$status" -eq 2 ]
}

@test "--like an unknown id exits 2; set --help documents the new options" {
	run "$QFD" set --like nosuchuser /proc root
	[ "$status" -eq 2 ]
	[[ $output == *"--like: unknown user 'nosuchuser'"* ]]
	run "$QFD" set --help
	[ "$status" -eq 0 ]
	for o in --batch --like --grace-space --grace-files --reset-grace --grace-time --exit-changed --dry-run; do
		[[ $output == *"$o"* ]] || { echo "missing $o"; false; }
	done
}

@test "batch: '#' and a digit is an id, and one that is not a number is a bad line, not a comment" {
	batch_with "#1O00 10G 12G - -"
	run "$QFD" --debug set --batch "$B/users.txt" /proc
	[ "$status" -eq 2 ]
	[[ $output == *"qfd: $B/users.txt:4: invalid user id '#1O00': '#' takes a number"* ]]
	[[ $output == *"1 bad line: nothing was changed"* ]]
	[[ $output != *"quotactl"* ]]
	# '#' and anything else still starts a comment
	batch_with "#bin 10G 12G - -"
	run "$QFD" set --batch "$B/users.txt" /proc
	[ "$status" -eq 1 ]
	[[ $output == "qfd: /proc: "* ]]
}

@test "batch: an empty batch, or one of only comments and blanks, says so and exits 2" {
	for content in "" "# only a comment" $'\n  \n# two\n'; do
		printf '%s' "$content" >"$B/empty.txt"
		run "$QFD" --debug set --batch "$B/empty.txt" /proc
		[ "$status" -eq 2 ] || { echo "'$content': $status"; false; }
		[ "${#lines[@]}" -eq 1 ]
		[ "${lines[0]}" = "qfd: $B/empty.txt: no limits in it (only blank lines and comments): nothing was changed" ]
	done
	run "$QFD" set --batch - /proc </dev/null
	[ "$status" -eq 2 ]
	[ "$output" = "qfd: stdin: no limits in it (only blank lines and comments): nothing was changed" ]
}

@test "set: the same id twice on the command line is refused as in a batch (exit 2, no quota call)" {
	run "$QFD" --debug set /proc root '#0' --bhard 1M
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "qfd: user '#0' (0) is named twice (also as 'root'): name each id once" ]
	[[ $output != *"quotactl"* ]]
	run "$QFD" --debug set -g /proc daemon daemon --bhard 1M
	[ "$status" -eq 2 ]
	[[ $output == *"group 'daemon' ("*") is named twice (also as 'daemon')"* ]]
	# different ids still reach the kernel (none on /proc: exit 1)
	run "$QFD" set /proc root daemon --bhard 1M
	[ "$status" -eq 1 ]
}

@test "grace periods and times past 32 bits are refused (exit 2, no quota call); the limit itself passes" {
	for opt in --grace-space --grace-files --grace-time; do
		for v in 4294967296 49711d 7102w 99999999999999999999; do
			if [ "$opt" = --grace-time ]; then
				run "$QFD" --debug set "$opt" "$v" /proc daemon
			else
				run "$QFD" --debug set "$opt" "$v" /proc
			fi
			[ "$status" -eq 2 ] || { echo "$opt $v: $status"; false; }
			[ "${lines[0]}" = "qfd: $opt '$v': too long: the kernel keeps at most 4294967295 seconds (about 136 years)" ]
			[[ $output != *"quotactl"* ]]
		done
	done
	# the largest period is accepted and reaches the kernel (none on /proc)
	run "$QFD" set --grace-space 4294967295 --grace-files 49710d /proc
	[ "$status" -eq 1 ]
	run "$QFD" set --help
	[[ $output == *"0 to 4294967295 s (136 years)"* ]]
}

@test "batch: relative limits parse (+5G, -1k); '+-5G' and '--1' are bad lines, before any quota call" {
	batch_with "bin +5G -1M +3 -"
	run "$QFD" --debug set --batch "$B/users.txt" /proc
	# parsed: it gets as far as the kernel, which has no quotas on /proc
	[ "$status" -eq 1 ] || { echo "$output"; false; }
	[[ $output == *"quotactl"* ]]
	batch_with "bin +-5G - - --1"
	run "$QFD" --debug set --batch "$B/users.txt" /proc
	[ "$status" -eq 2 ]
	[[ $output == *"users.txt:4: space soft limit '+-5G': not a size"* ]] || { echo "$output"; false; }
	[[ $output == *"users.txt:4: files hard limit '--1': not a count"* ]]
	[[ $output != *"quotactl"* ]]
}

# getline() counts the bytes it read; the fields were split as C strings,
# so a NUL cut a line short ("root 1G 2G 10 2\0" + "0" read as 2 files)
# or made one that starts with it blank.  Issue 30.
@test "batch: a NUL byte anywhere in a line is a bad line naming it (exit 2, no quota call)" {
	printf 'root 1M 2M 10 2\0000\n' >"$B/nul.txt"
	printf '\0bin 1M 2M 10 20\n' >>"$B/nul.txt"
	printf 'daemon 1M 2M 10 20\n\0\n' >>"$B/nul.txt"
	run "$QFD" --debug set --batch "$B/nul.txt" /proc
	[ "$status" -eq 2 ]
	[ "$output" = "qfd: $B/nul.txt:1: a NUL byte at column 16: a batch file is text, one id a line
qfd: $B/nul.txt:2: a NUL byte at column 1: a batch file is text, one id a line
qfd: $B/nul.txt:4: a NUL byte at column 1: a batch file is text, one id a line
qfd: $B/nul.txt: 3 bad lines: nothing was changed" ]
	# after the last newline too, and from stdin
	run "$QFD" set --batch - /proc < <(printf 'root 1M 2M 10 20\n#0 1M 2M 10 20 # \0')
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "qfd: stdin:2: a NUL byte at column 18: a batch file is text, one id a line" ]
}

# A byte order mark (Notepad, PowerShell) at the start of a batch file is
# skipped; anywhere else it is part of a name.
@test "batch: a UTF-8 byte order mark at the start is skipped, elsewhere it is part of a name" {
	printf '\357\273\277root 1M 2M 10 20\n' >"$B/bom.txt"
	run "$QFD" set --batch "$B/bom.txt" /proc
	# every check passed: the kernel's answer for /proc
	[ "$status" -eq 1 ]
	[[ $output == "qfd: /proc: "* ]]
	printf '\357\273\277# a comment\n#0 1M 2M 10 20\n' >"$B/bom.txt"
	run "$QFD" set --batch - /proc <"$B/bom.txt"
	[ "$status" -eq 1 ]
	printf 'root 1M 2M 10 20\n\357\273\277bin 1M 2M 10 20\n' >"$B/bom.txt"
	run "$QFD" set --batch "$B/bom.txt" /proc
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "qfd: $B/bom.txt:2: unknown user '"$'\357\273\277'"bin'" ]
}

# getline() took a line as long as it came: /dev/zero, or a 4 MiB name
# (which made systemd's NSS module abort), grew qfd without bound.
@test "batch: a line longer than 64 KiB ends the reading, one bad line (exit 2); /dev/zero costs 64 KiB" {
	{ head -c 4194304 /dev/zero | tr '\0' a; echo " 1M 2M 1 2"; } >"$B/long.txt"
	run --separate-stderr "$QFD" set --batch "$B/long.txt" /proc
	[ "$status" -eq 2 ]
	[ "$stderr" = "qfd: $B/long.txt:1: longer than 65536 bytes: not a batch line (nothing after it was read)
qfd: $B/long.txt: 1 bad line: nothing was changed" ]
	# 64 KiB with its newline is a line, read whole
	{ printf 'root 1M 2M 1 2 #'; head -c $((65536 - 16 - 1)) /dev/zero | tr '\0' c; echo; } >"$B/edge.txt"
	[ "$(wc -c <"$B/edge.txt")" -eq 65536 ]
	run --separate-stderr "$QFD" set --batch "$B/edge.txt" /proc
	[ "$status" -eq 1 ]
	[[ $stderr == "qfd: /proc: "* ]]
	run --separate-stderr timeout 20 "$QFD" set --batch /dev/zero /proc
	[ "$status" -eq 2 ]
	[ "${stderr_lines[0]}" = "qfd: /dev/zero:1: longer than 65536 bytes: not a batch line (nothing after it was read)" ]
}

# What separates fields is ASCII white space (qfd-set(8)): a space, \t,
# \v, \f and \r, so that a file with CRLF line ends reads as with LF; any
# other byte, a control too, is part of its field.
@test "batch: fields are separated by any ASCII white space (CRLF lines too); other controls are part of a field" {
	printf 'root\t1M\v2M\f10\r20\r\n#1 1M 2M 10 20\r\n' >"$B/ws.txt"
	run "$QFD" set --batch "$B/ws.txt" /proc
	[ "$status" -eq 1 ] || { echo "status $status: $output"; false; }
	[[ $output == "qfd: /proc: "* ]]
	printf 'root\t1M\v1X\f10 20\r\n' >"$B/ws.txt"
	run "$QFD" set --batch "$B/ws.txt" /proc
	[ "$status" -eq 2 ]
	[[ $output == *"ws.txt:1: space hard limit '1X': not a size"* ]]
	printf 'root 1M\0372M 10 20\n' >"$B/ws.txt"
	run "$QFD" set --batch "$B/ws.txt" /proc
	[ "$status" -eq 2 ]
	[[ $output == *"ws.txt:1: 4 fields, expected 5: "* ]]
}
