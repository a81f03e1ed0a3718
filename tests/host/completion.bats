#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The bash completion (completion/qfd), driven the way bash drives it:
# COMP_WORDS, COMP_CWORD, COMP_LINE and COMP_POINT set, _qfd called, the
# candidates read from COMPREPLY.  It asks the qfd under test ($QFD) for
# commands, options and columns, so these tests also check that what it
# offers is what qfd accepts.  The mount table comes from a mountinfo file
# written here (findmnt -F), not from the host's mounts.
#
# Run: QFD=/path/to/src/qfd bats tests/host/completion.bats

setup() {
	: "${QFD:?QFD must name the qfd binary}"
	srcdir=${QFD_SRCDIR:-$BATS_TEST_DIRNAME/../..}
	[ -r /usr/share/bash-completion/bash_completion ] || {
		echo "bash-completion is not installed (Debian package bash-completion)"
		return 1
	}
	# bash_completion expects a shell with its usual options
	source /usr/share/bash-completion/bash_completion
	source "$srcdir/completion/qfd"
	cat >"$BATS_TEST_TMPDIR/mountinfo" <<'EOF'
21 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw,discard
22 21 0:5 / /proc rw,nosuid shared:2 - proc proc rw
23 21 7:0 / /srv/x\040y rw,relatime shared:3 - xfs /dev/loop0 rw,attr2,usrquota,prjquota
24 21 7:1 / /srv/noq rw,relatime shared:4 - xfs /dev/loop1 rw,attr2,noquota
25 21 0:30 / /run/tq rw,relatime shared:5 - tmpfs tmpfs rw,size=1024k,usrquota
26 21 0:31 / /dev/shm rw,relatime shared:6 - tmpfs tmpfs rw,size=1024k
27 21 7:2 / /srv/acct rw,relatime shared:7 - xfs /dev/loop2 rw,attr2,uqnoenforce
EOF
}

# the completion's findmnt reads our table instead of the host's
findmnt() { command findmnt -F "$BATS_TEST_TMPDIR/mountinfo" "$@"; }

# complete WORD...: the last word is the one being completed; prints the
# candidates one a line, sorted
complete_words() {
	COMP_WORDS=("$QFD" "$@")
	COMP_CWORD=$#
	COMP_LINE="${COMP_WORDS[*]}"
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	_qfd "$QFD" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}" 2>/dev/null
	printf '%s\n' "${COMPREPLY[@]}" | sort
}

has() {	# has WORD: the candidates ($output) include WORD
	grep -qxF -- "$1" <<<"$output" || { echo "no '$1' in: $output"; return 1; }
}

@test "completion: the commands, all of them and only them" {
	output=$(complete_words "")
	[ "$output" = "$(printf '%s\n' apply check dump get off on project report set state sync watch)" ]
	output=$(complete_words s)
	[ "$output" = "$(printf '%s\n' set state sync)" ]
	output=$(complete_words --debug r)
	[ "$output" = report ]
}

@test "completion: global options before the command" {
	output=$(complete_words --)
	[ "$output" = "$(printf '%s\n' --debug --help --version)" ]
}

@test "completion: the options of set, each one accepted by qfd set" {
	output=$(complete_words set --)
	for o in --user --group --project --bsoft --bhard --isoft --ihard \
		--space-soft --files-hard --like --batch --grace-space \
		--grace-files --reset-grace --grace-time --dry-run --quiet \
		--bytes --exit-changed --help; do
		has "$o"
	done
	# nothing of another command's
	! has --output
	! has --all
	# and qfd set knows every one of them: an unknown option is exit 2
	# with "unrecognized option"; these fail later, or print help
	local o
	while read -r o; do
		run "$QFD" set "$o" 1 /proc root --dry-run
		[[ "$output" != *"unrecognized option"* ]] || { echo "$o: $output"; false; }
	done <<<"$(complete_words set --)"
}

@test "completion: options per command: report has --over and --all, on has --verbose" {
	output=$(complete_words report --)
	has --over
	has --all
	has --all-ids
	has --sort
	! has --bsoft
	output=$(complete_words on --)
	[ "$output" = "$(printf '%s\n' --all --group --help --project --user --verbose)" ]
}

@test "completion: -o and --sort offer qfd report -H's columns" {
	output=$(complete_words report -o "")
	expected=$("$QFD" report -H | awk '{ print $1 }' | sort)
	[ "$output" = "$expected" ]
	has SPACE
	has FILES-HARD
	has SPACE-USE%
	output=$(complete_words report --sort "")
	[ "$output" = "$expected" ]
	output=$(complete_words report --sort=SPACE-)
	[ "$output" = "$(printf '%s\n' SPACE-GRACE SPACE-HARD SPACE-SOFT SPACE-USE%)" ]
}

@test "completion: -o completes the last item of a list, and after +" {
	output=$(complete_words report -o NAME,FILES-)
	[ "$output" = "$(printf '%s\n' NAME,FILES-GRACE NAME,FILES-HARD NAME,FILES-SOFT NAME,FILES-USE%)" ]
	output=$(complete_words report -o +TA)
	[ "$output" = +TARGET ]
}

@test "completion: columns per command: state and project have their own" {
	output=$(complete_words state -o "")
	has ENFORCING
	has SOURCE
	! has SPACE-SOFT
	output=$(complete_words project show --output "")
	[ "$output" = "$(printf '%s\n' ID INHERIT PATH PROJECT TYPE)" ]
}

@test "completion: PATH is a mount point that can carry quotas" {
	output=$(complete_words report "")
	# ext4 always (hidden quota inodes), XFS and tmpfs with quota options
	[ "$output" = "$(printf '%s\n' / '/run/tq' '/srv/acct' '/srv/x y')" ]
	output=$(complete_words get /s)
	[ "$output" = "$(printf '%s\n' '/srv/acct' '/srv/x y')" ]
}

@test "completion: WHO is a user, or a group with -g" {
	output=$(complete_words get / ro)
	has root
	output=$(complete_words get -g / "")
	[ "$output" = "$(compgen -g | sort)" ]
	output=$(complete_words set / --bsoft 1G "")
	[ "$output" = "$(compgen -u | sort)" ]
	output=$(complete_words set --like ro)
	has root
}

@test "completion: --over offers soft and hard; a size gets no candidates" {
	output=$(complete_words report --over "")
	[ "$output" = "$(printf '%s\n' hard soft)" ]
	output=$(complete_words set / --bhard "")
	[ -z "$output" ]
}

@test "completion: project takes an action, then paths" {
	output=$(complete_words project "")
	[ "$output" = "$(printf '%s\n' clear set show)" ]
	output=$(complete_words project show -)
	has --recursive
	has --json
}

# complete_line LINE: complete at the end of LINE as bash splits it, '='
# a word of its own (COMP_WORDBREAKS): "--output=" then the value
complete_line() {
	COMP_LINE="$QFD $1"
	COMP_POINT=${#COMP_LINE}
	read -ra COMP_WORDS <<<"${COMP_LINE//=/ = }"
	[[ $COMP_LINE == *[\ =] ]] && COMP_WORDS+=("")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	_qfd "$QFD" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}" 2>/dev/null
	printf '%s\n' "${COMPREPLY[@]}" | sort
}

@test "completion: check takes paths, and -i a WHO of the type asked, -gi bundled too" {
	output=$(complete_words check /s)
	[ "$output" = "$(printf '%s\n' '/srv/acct' '/srv/x y')" ]
	output=$(complete_words check -i ro)
	has root
	output=$(complete_words check -gi "")
	[ "$output" = "$(compgen -g | sort)" ]
	output=$(complete_words check -g -i "")
	[ "$output" = "$(compgen -g | sort)" ]
	# a bundle's value is the next word: not taken for a path
	output=$(complete_words check -gi root /s)
	has '/srv/acct'
	output=$(complete_words report -uo "")
	has SPACE-SOFT
}

@test "completion: watch --exec offers programs; a path, files" {
	output=$(complete_words watch --exec tru)
	has true
	[ "$(grep -cx true <<<"$output")" -eq 1 ]
	output=$(complete_words watch --exec /bin/tru)
	has /bin/true
}

@test "completion: project set and clear are not offered show's options" {
	for a in set clear; do
		output=$(complete_words project $a --)
		has --recursive
		has --exit-changed
		for o in --json --raw --csv --output --sort --list-columns --noheadings --bytes; do
			! grep -qxF -- "$o" <<<"$output" || { echo "$a offers $o"; false; }
		done
	done
	output=$(complete_words project show --)
	has --json
}

@test "completion: --opt= offers the option's values, never command names" {
	output=$(complete_line "report --output=I")
	[ "$output" = ID ]
	output=$(complete_line "--output=")
	[ -z "$output" ]
	output=$(complete_line "project --output=")
	[ -z "$output" ]
	output=$(complete_line "report --sort=SPACE-S")
	[ "$output" = SPACE-SOFT ]
}
