#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Every option a --help lists is one the command accepts.  Each option is
# tried with a sample argument and followed by an option nobody has, so
# getopt stops the command before it does anything: the only error may be
# about that last option, never about the one listed in --help.

setup() {
	: "${QFD:?QFD must name the qfd binary}"
}

BOGUS=--qfd-no-such-option

# A value for an option's argument, by the name --help gives it.
sample() {
	case $1 in
	SIZE) echo 1M ;;
	N) echo 10 ;;
	T) echo 1h ;;
	WHO) echo root ;;
	FILE) echo /dev/null ;;
	PATH) echo /proc ;;
	LIST | COL) echo ID ;;
	soft\|hard) echo soft ;;
	*) echo "no sample for argument '$1'" >&2; return 1 ;;
	esac
}

# "OPTION [ARG]" per line, from the option lines of CMD's --help
# ("  -o, --output LIST    ...", "      --bsoft SIZE ... (also --space-soft)"):
# the options and their argument end at the first run of two blanks.
# With STOP set, the lines from one matching it on are left out.
options_of() {
	"$QFD" "$@" --help | awk -v stop="${STOP-}" '
		stop != "" && $0 ~ stop { exit }
		/^ +-/ {
			line = $0
			sub(/^ +/, "", line)
			head = line
			sub(/  .*/, "", head)
			n = split(head, w, /[ ,]+/)
			arg = ""
			for (i = 1; i <= n; i++) {
				if (w[i] ~ /^-/) { opts[++k] = w[i]; continue }
				arg = w[i]
				break
			}
			if (match(line, /\(also --[a-z-]+\)/))
				opts[++k] = substr(line, RSTART + 6, RLENGTH - 7)
			for (i = 1; i <= k; i++) print opts[i], arg
			delete opts; k = 0
		}'
}

# Try each listed option of "$@" (the command, and for project an action).
try_all() {
	local opt arg n=0
	while read -r opt arg; do
		n=$((n + 1))
		if [ -n "$arg" ]; then
			run "$QFD" "$@" "$opt" "$(sample "$arg")" "$BOGUS"
		else
			run "$QFD" "$@" "$opt" "$BOGUS"
		fi
		case $opt in
		-h | --help | -V | --version)
			[ "$status" -eq 0 ] || { echo "$* $opt: exit $status"; false; } ;;
		*)
			[ "$status" -eq 2 ] || { echo "$* $opt: exit $status: $output"; false; }
			[ "${lines[0]}" = "qfd: unrecognized option '$BOGUS'" ] ||
				{ echo "$* $opt: $output"; false; } ;;
		esac
	done < <(options_of "$@")
	# the parsing above found the options: an empty list proves nothing
	[ "$n" -ge 3 ]
}

@test "qfd --help: every option it lists is accepted" {
	try_all
}

@test "qfd get/set/report/state/apply/dump --help: every option listed is accepted" {
	for c in get set report state apply dump; do
		try_all "$c"
	done
}

@test "qfd on/off/sync --help: every option listed is accepted" {
	for c in on off sync; do
		try_all "$c"
	done
}

@test "qfd project --help: every option listed is accepted by each action, none listed twice" {
	try_all project show
	# the output options go with show only, and --help says so
	for a in set clear; do
		STOP='^show only:' try_all project "$a"
	done
	# -r is --recursive here; --raw has no short form
	[ "$(options_of project | awk '{ print $1 }' | sort | uniq -d)" = "" ]
}

@test "option errors say 'qfd:', like every other error; the hint names the command" {
	for c in get set report state on off sync; do
		run "$QFD" "$c" --bogus
		[ "$status" -eq 2 ]
		[ "${lines[0]}" = "qfd: unrecognized option '--bogus'" ]
		[ "${lines[1]}" = "Try 'qfd $c --help' for more information." ]
		run "$QFD" "$c" -Z
		[ "${lines[0]}" = "qfd: invalid option -- 'Z'" ]
	done
	run "$QFD" project show --bogus /
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "qfd: unrecognized option '--bogus'" ]
	run "$QFD" report --over
	[ "${lines[0]}" = "qfd: option '--over' requires an argument" ]
}

@test "--help: -h comes with the options, before the notes" {
	for c in get set report state on off sync project; do
		run "$QFD" "$c" --help
		# from "Options:" to -h: options only, no blank line, no notes
		block=$(sed -n '/^Options:$/,/-h, --help/p' <<<"$output")
		[[ $block == *"-h, --help"* ]] || { echo "$c: no -h in Options"; false; }
		! grep -q '^$' <<<"$block" || { echo "$c: notes before -h"; false; }
	done
}

@test "-J, -r and --csv exclude each other (exit 2, nothing read)" {
	for pair in "-J -r:--json and --raw" "-J --csv:--json and --csv" \
		"-r --csv:--raw and --csv" "--csv -J:--json and --csv" \
		"-r --csv --json:--json, --raw and --csv"; do
		said=${pair#*:} pair=${pair%%:*}
		# shellcheck disable=SC2086
		run "$QFD" --debug report /proc $pair
		[ "$status" -eq 2 ] || { echo "$pair: $status"; false; }
		[ "$output" = "qfd: $said exclude each other: choose one output format" ]
		# shellcheck disable=SC2086
		run "$QFD" get /proc $pair
		[ "$status" -eq 2 ]
		# shellcheck disable=SC2086
		run "$QFD" state /proc $pair
		[ "$status" -eq 2 ]
	done
	run "$QFD" project show --raw --csv "$QFD"
	[ "$status" -eq 2 ]
	# -r is --recursive there: not named as an output format
	run "$QFD" project show -r --raw -J "$QFD"
	[ "$status" -eq 2 ]
	[ "$output" = "qfd: --json and --raw exclude each other: choose one output format" ]
	run "$QFD" project show -J -J "$QFD"
	[ "$status" -eq 0 ]
}
