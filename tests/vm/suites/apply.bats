#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# 'qfd apply' and 'qfd dump' on real ext4, XFS and (patched) UBIFS: a
# document applied changes what it says and a re-run nothing, --check
# writes nothing, one bad item applies nothing, and a dump applied to a
# fresh filesystem of another type gives the same report apart from usage.
# Every result is read back from the kernel with 'qfd get' or 'qfd report'.
#
# Run: tests/vm/check tests/vm/suites/apply.bats
# vm-weight: 100

load ../lib/qfd

setup_file() {
	in_vm || skip "not inside the test VM (use tests/vm/check)"
	fs_ext4_xfs
	mkdir -p "$QFD_SCRATCH/doc"
}

teardown_file() {
	fs_teardown
}

D=$QFD_SCRATCH/doc

# doc MNT: user, group and (where there are any) project limits
doc() {
	local prj=
	[[ ${2:-} == noprj ]] || prj=', "project": { "limits": [ { "who": "qfdp1", "space-hard": "30M" } ] }'
	cat <<-EOT
	{ "filesystems": [ { "path": "$1",
	  "user": { "enforce": true, "grace": { "space": "3d", "files": 7200 },
	    "limits": [ { "who": "qfdu1", "space-soft": "10M", "space-hard": "20M", "files-soft": 100, "files-hard": null },
	                { "who": 2002, "files-hard": "1k" } ] },
	  "group": { "limits": [ { "who": "qfdg1", "space-hard": 41943040 } ] }$prj
	} ] }
	EOT
}

# apply_twice MNT [noprj]: --check writes nothing; a run changes, a re-run does not
apply_twice() {
	local m=$1
	"$QFD" set -q "$m" qfdu1 --bsoft 0 --bhard 0 --isoft 0 --ihard 5
	doc "$@" >"$D/doc.json"
	run "$QFD" apply --check --exit-changed "$D/doc.json"
	[ "$status" -eq 4 ] || { echo "$m: --check: $status $output"; false; }
	[[ $output == *"$m: "*" would change, "*" unchanged" ]]
	[ "$(qfd_limits "$m" -u qfdu1)" = "0 0 0 5" ] || { echo "$m: --check wrote: $(qfd_limits "$m" -u qfdu1)"; false; }
	run "$QFD" apply --diff --exit-changed "$D/doc.json"
	[ "$status" -eq 4 ] || { echo "$m: first run: $status $output"; false; }
	[[ $output == *"changed user qfdu1 (2001) on $m: space-soft none -> 10M, space-hard none -> 20M, files-soft none -> 100, files-hard 5 -> none"* ]] ||
		{ echo "$output"; false; }
	[ "$(qfd_limits "$m" -u qfdu1)" = "10485760 20971520 100 0" ]
	[ "$(qfd_limits "$m" -u qfdu2)" = "0 0 0 1000" ]
	[ "$(qfd_limits "$m" -g qfdg1)" = "0 41943040 0 0" ]
	[[ ${2:-} == noprj ]] || [ "$(qfd_limits "$m" -p qfdp1)" = "0 31457280 0 0" ]
	[ "$("$QFD" state -n --raw -o SPACE-GRACE,FILES-GRACE -u "$m")" = "3d 2h" ]
	run "$QFD" apply -J --exit-changed "$D/doc.json"
	[ "$status" -eq 0 ] || { echo "$m: second run: $status $output"; false; }
	jq -e '.changed == false and (.items | length > 3) and
	       all(.items[]; .result == "unchanged")' <<<"$output"
}

@test "apply on ext4 and XFS: user, group, project; --check writes nothing; a re-run changes nothing" {
	apply_twice "$QFD_SCRATCH/e"
	apply_twice "$QFD_SCRATCH/x"
}

@test "apply: one bad item (soft over the kernel's hard) applies nothing, exit 2" {
	local m=$QFD_SCRATCH/e
	"$QFD" set -q "$m" qfdu3 --bsoft 0 --bhard 5M
	"$QFD" set -q "$m" qfdu2 --bsoft 0 --bhard 0
	cat >"$D/bad.json" <<-EOT
	{ "filesystems": [ { "path": "$m", "user": { "limits": [
	  { "who": "qfdu2", "space-hard": "7M" },
	  { "who": "qfdu3", "space-soft": "9M" } ] } } ] }
	EOT
	run "$QFD" apply -J "$D/bad.json"
	[ "$status" -eq 2 ] || { echo "$status $output"; false; }
	[[ $output == *"$m: user qfdu3: a soft limit would exceed its hard limit"* ]]
	[ "$(qfd_limits "$m" -u qfdu2)" = "0 0 0 1000" ]
	[ "$(qfd_limits "$m" -u qfdu3)" = "0 5242880 0 0" ]
	# --raise-only keeps a higher limit (none is the highest) and raises a
	# lower one; relative values count from the kernel's
	cat >"$D/raise.json" <<-EOT
	{ "filesystems": [ { "path": "$m", "user": { "limits": [
	  { "who": "qfdu3", "space-hard": "1M", "files-hard": 50 },
	  { "who": "qfdu2", "files-hard": "+500" } ] } } ] }
	EOT
	"$QFD" apply -q --raise-only "$D/raise.json"
	[ "$(qfd_limits "$m" -u qfdu3)" = "0 5242880 0 0" ]
	[ "$(qfd_limits "$m" -u qfdu2)" = "0 0 0 1500" ]
	"$QFD" set -q "$m" qfdu3 --bhard +3M --ihard 10
	"$QFD" set -q --raise-only "$m" qfdu3 --bhard -1M --ihard 20
	[ "$(qfd_limits "$m" -u qfdu3)" = "0 8388608 0 20" ]
	run "$QFD" set "$m" qfdu1 --ihard +5 --bhard -1G
	[ "$status" -eq 2 ] || { echo "$status $output"; false; }
}

# report MNT: the limits of every id that has one, without usage
limits_report() {
	"$QFD" report -J -b -o TYPE,ID,SPACE-SOFT,SPACE-HARD,FILES-SOFT,FILES-HARD -u -g "$1" |
		jq -c '[.quotas[] | select(."space-soft" + ."space-hard" + ."files-soft" + ."files-hard" > 0)] | sort_by(.type, .id)'
	"$QFD" state -n --raw -o TYPE,ENFORCING,SPACE-GRACE,FILES-GRACE -u -g "$1"
}

@test "dump ext4 | apply XFS | dump | apply UBIFS: the same limits everywhere; apply on UBIFS" {
	local e=$QFD_SCRATCH/e x u want
	x=$(fs_xfs x2 -o uquota,gquota)
	"$QFD" dump -u -g "$e" >"$D/e.json"
	jq -e . "$D/e.json" >/dev/null
	"$QFD" apply -q --path "$x" "$D/e.json"
	want=$(limits_report "$e")
	[ "$(limits_report "$x")" = "$want" ] || { diff <(echo "$want") <(limits_report "$x"); false; }
	run "$QFD" apply -J --path "$x" "$D/e.json"
	jq -e '.changed == false' <<<"$output"

	u=$(fs_ubifs u) && fs_umount u
	fs_mount u usrquota,grpquota 2>/dev/null || ubifs_unpatched "stock UBIFS has no quota support (tests/vm/check --ubifs-ko)"
	apply_twice "$u" noprj
	"$QFD" dump "$x" | "$QFD" apply -q --path "$u" -
	[ "$(limits_report "$u")" = "$want" ] || { diff <(echo "$want") <(limits_report "$u"); false; }
}

@test "ansible: contrib/ansible's qfd_apply on ext4 and XFS: changed, ok, check mode and a bad limit write nothing" {
	local m src=$BATS_TEST_DIRNAME/../../..
	command -v ansible-playbook >/dev/null || { echo "ansible-playbook missing (Debian package ansible-core)"; false; }
	local e=$QFD_SCRATCH/e x=$QFD_SCRATCH/x
	mkdir -p "$QFD_SCRATCH/ans"
	for m in "$e" "$x"; do
		"$QFD" set -q "$m" qfdu1 --bsoft 0 --bhard 0 --isoft 0 --ihard 0
		"$QFD" set -q "$m" qfdu2 --ihard 0
		"$QFD" set -q -g "$m" qfdg1 --bhard 0 --ihard 0
	done
	# one playbook, both filesystems in each document: each module run
	# (a Python start in the guest) costs seconds
	HOME=$QFD_SCRATCH/ans ANSIBLE_LOCAL_TEMP=$QFD_SCRATCH/ans ANSIBLE_REMOTE_TEMP=$QFD_SCRATCH/ans \
		ANSIBLE_LIBRARY=$src/contrib/ansible/library ANSIBLE_NOCOLOR=1 \
		run ansible-playbook -c local -i localhost, -e "mnt1=$e" -e "mnt2=$x" -e "qfd=$QFD" \
		"$src/contrib/ansible/tests/playbook.yml"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	for m in "$e" "$x"; do
		# what the first run set, and nothing of check mode or the bad run
		[ "$(qfd_limits "$m" -u qfdu1)" = "10485760 20971520 0 0" ] || { echo "$m: $(qfd_limits "$m" -u qfdu1)"; false; }
		[ "$(qfd_limits "$m" -u qfdu2)" = "0 0 0 0" ]
		[ "$(qfd_limits "$m" -g qfdg1)" = "0 0 0 300" ]
	done
}

# state MNT FLAG: "ENFORCING SPACE-GRACE FILES-GRACE" as qfd state has them
state_of() {
	"$QFD" state -n --raw -o ENFORCING,SPACE-GRACE,FILES-GRACE "$2" "$1"
}

# The write phase is whole or nothing (issue 11 item 4, for apply): ext4
# refuses a space limit of 8E with ERANGE after the plan accepted it, so
# the grace periods, a limit and the enforcement already written on the
# XFS filesystem before it, and the ext4 limit before it, are put back.
@test "apply: a kernel error on the second filesystem puts back every change written before it; one line, exit 1" {
	local e=$QFD_SCRATCH/e x=$QFD_SCRATCH/x
	"$QFD" set -q "$e" qfdu1 qfdu2 qfdu3 --bsoft 0 --bhard 0 --isoft 0 --ihard 0
	"$QFD" set -q -g "$x" qfdg1 --bsoft 0 --bhard 1M --isoft 0 --ihard 0
	"$QFD" on -g "$x" >/dev/null 2>&1 || true
	local xstate estate
	xstate=$(state_of "$x" -g)
	estate=$(state_of "$e" -u)
	[[ $xstate == yes* || $xstate == true* ]] || { echo "XFS group quotas not enforcing: $xstate"; false; }
	cat >"$D/erange.json" <<-EOT
	{ "filesystems": [
	  { "path": "$x", "group": { "enforce": false, "grace": { "space": "2d" },
	      "limits": [ { "who": "qfdg1", "space-hard": "9M" } ] } },
	  { "path": "$e", "user": { "limits": [
	      { "who": "qfdu1", "space-soft": "1M", "space-hard": "2M" },
	      { "who": "qfdu2", "space-hard": "8E" },
	      { "who": "qfdu3", "files-hard": 9 } ] } } ] }
	EOT
	run --separate-stderr "$QFD" apply --diff "$D/erange.json"
	[ "$status" -eq 1 ] || { echo "status $status: $output / $stderr"; false; }
	[ "${#stderr_lines[@]}" -eq 1 ] || { echo "$stderr"; false; }
	[ "$stderr" = "qfd: $e: cannot set limits for user quotas: Numerical result out of range (user qfdu2, id 2002); the 4 changes written before it were put back: nothing was changed" ] ||
		{ echo "$stderr"; false; }
	# no line claims a change that was put back
	[[ $output != *"changed "* ]] || { echo "$output"; false; }
	[ "$(state_of "$x" -g)" = "$xstate" ]
	[ "$(state_of "$e" -u)" = "$estate" ]
	[ "$(qfd_limits "$x" -g qfdg1)" = "0 1048576 0 0" ]
	[ "$(qfd_limits "$e" -u qfdu1)" = "0 0 0 0" ]
	[ "$(qfd_limits "$e" -u qfdu2)" = "0 0 0 0" ]
	[ "$(qfd_limits "$e" -u qfdu3)" = "0 0 0 0" ]
	# -J: one item in error, the rest unchanged, nothing changed
	run --separate-stderr "$QFD" apply -J "$D/erange.json"
	[ "$status" -eq 1 ]
	jq -e '.changed == false and .failed == true and
	       ([.items[] | select(.result == "error")] | length) == 1 and
	       ([.items[] | select(.result == "changed")] | length) == 0 and
	       (.items[] | select(.result == "error") | .who == "qfdu2" and
	        (.error | test("put back: nothing was changed$")))' <<<"$output" ||
		{ echo "$output"; false; }
	[ "$(qfd_limits "$x" -g qfdg1)" = "0 1048576 0 0" ]
	[ "$(state_of "$x" -g)" = "$xstate" ]
}

# Items that give all four limits outright need nothing from the kernel
# to be checked: without --check, --diff or -J each is read right before
# it is written, as set --batch does (bench/README), and a refusal still
# puts back the ones written before it.  The order of the calls shows it.
@test "apply: items of four limits are each read right before their write; a refusal puts back the ones before it" {
	local e=$QFD_SCRATCH/e calls
	"$QFD" set -q "$e" qfdu1 qfdu2 qfdu3 "$QFD_WEIRD_USER" --bsoft 0 --bhard 0 --isoft 0 --ihard 0
	"$QFD" set -q "$e" qfdu2 --isoft 7 --ihard 9
	whole_items() {	# THIRD-SPACE
		cat <<-EOT
		{ "filesystems": [ { "path": "$e", "user": { "limits": [
		  { "who": "qfdu1", "space-soft": "1M", "space-hard": "2M", "files-soft": 10, "files-hard": 20 },
		  { "who": "qfdu2", "space-soft": "3M", "space-hard": "4M", "files-soft": 30, "files-hard": 40 },
		  { "who": "qfdu3", "space-soft": "$1", "space-hard": "$1", "files-soft": 1, "files-hard": 1 },
		  { "who": "$QFD_WEIRD_USER", "space-soft": "5M", "space-hard": "6M", "files-soft": 50, "files-hard": 60 } ] } } ] }
		EOT
	}
	whole_items 8E >"$D/whole.json"
	run --separate-stderr "$QFD" --debug apply "$D/whole.json"
	[ "$status" -eq 1 ] || { echo "status $status: $output / $stderr"; false; }
	calls=$(quota_calls "$stderr")
	[[ $calls == "Q_GETQUOTA 2001 Q_XSETQLIM 2001 Q_GETQUOTA 2002 Q_XSETQLIM 2002 Q_GETQUOTA 2003 Q_XSETQLIM 2003 Q_XSETQLIM 2003 Q_XSETQLIM 2002 Q_XSETQLIM 2001 " ]] ||
		{ echo "calls: $calls"; false; }
	grep -v '^qfd: debug: ' <<<"$stderr" >"$D/whole.msg" || true
	[ "$(cat "$D/whole.msg")" = "qfd: $e: cannot set limits for user quotas: Numerical result out of range (user qfdu3, id 2003); the 2 changes written before it were put back: nothing was changed" ] ||
		{ cat "$D/whole.msg"; false; }
	[[ $output != *"changed "* ]] || { echo "$output"; false; }
	[ "$(qfd_limits "$e" -u qfdu1)" = "0 0 0 0" ]
	[ "$(qfd_limits "$e" -u qfdu2)" = "0 0 7 9" ]
	[ "$(qfd_limits "$e" -u qfdu3)" = "0 0 0 0" ]
	[ "$(qfd_limits "$e" -u "$QFD_WEIRD_USER")" = "0 0 0 0" ]

	# without the refusal: every item written, each read right before
	whole_items 8M >"$D/whole.json"
	run --separate-stderr "$QFD" --debug apply "$D/whole.json"
	[ "$status" -eq 0 ] || { echo "status $status: $output / $stderr"; false; }
	calls=$(quota_calls "$stderr")
	[[ $calls == "Q_GETQUOTA 2001 Q_XSETQLIM 2001 Q_GETQUOTA 2002 Q_XSETQLIM 2002 Q_GETQUOTA 2003 Q_XSETQLIM 2003 Q_GETQUOTA 2004 Q_XSETQLIM 2004 " ]] ||
		{ echo "calls: $calls"; false; }
	[[ $output == *"$e: 4 changed, 0 unchanged"* ]] || { echo "$output"; false; }
	[ "$(qfd_limits "$e" -u qfdu3)" = "8388608 8388608 1 1" ]
	# a re-run reads each and writes nothing
	run "$QFD" apply -q --exit-changed "$D/whole.json"
	[ "$status" -eq 0 ]
	"$QFD" set -q "$e" qfdu1 qfdu2 qfdu3 "$QFD_WEIRD_USER" --bsoft 0 --bhard 0 --isoft 0 --ihard 0
}

@test "apply: SIGTERM during a 20,000-id document puts every id back and dies of it (or, too late, keeps them all)" {
	local x=$QFD_SCRATCH/x f=$D/long.json err=$D/long.err pid status
	{
		printf '{ "filesystems": [ { "path": "%s", "user": { "limits": [\n' "$x"
		seq 100000 119999 | awk '{ printf "%s{ \"who\": %s, \"space-hard\": \"2M\", \"files-hard\": 20 }\n", (NR > 1 ? "," : ""), $1 }'
		printf '] } } ] }\n'
	} >"$f"
	printf '#%s 1M 6M 10 60\n' 100000 119999 | "$QFD" set -q --batch - "$x"
	"$QFD" --debug apply "$f" >"$err.out" 2>"$err" &
	pid=$!
	wait_for_line "$err" Q_XSETQLIM "$pid" || true
	kill -TERM "$pid" || { echo "apply ended before the signal"; false; }
	status=0
	wait "$pid" || status=$?
	grep -v '^qfd: debug: ' "$err" >"$err.msg" || true
	echo "# SIGTERM after $(grep -c Q_XSETQLIM "$err") writes: $(head -c 200 "$err.msg")" >&3
	[ "$status" -eq 143 ] || { echo "status $status: $(cat "$err.msg")"; false; }
	[ "$(wc -l <"$err.msg")" -eq 1 ] || { cat "$err.msg"; false; }
	if grep -q 'came after every change was written' "$err.msg"; then
		[ "$(qfd_limits "$x" -u '#100000')" = "1048576 2097152 10 20" ]
		[ "$(qfd_limits "$x" -u '#119999')" = "1048576 2097152 10 20" ]
	else
		grep -Eq "^qfd: $f: interrupted by SIGTERM after [0-9]+ of 20000 changes were written; the [0-9]+ changes? written (was|were) put back: nothing was changed\$" "$err.msg" ||
			{ cat "$err.msg"; false; }
		[ "$(qfd_limits "$x" -u '#100000')" = "1048576 6291456 10 60" ]
		[ "$(qfd_limits "$x" -u '#119999')" = "1048576 6291456 10 60" ]
		[ "$("$QFD" report -J -b -u "$x" | jq '[.quotas[] | select(.id > 100000 and .id < 119999 and ."space-hard" > 0)] | length')" -eq 0 ]
	fi
	awk '{ print "#" $1, "0 0 0 0" }' <(seq 100000 119999) | "$QFD" set -q --batch - "$x"
}

# A full volume: ext4 refuses to read a new id once its quota file cannot
# grow (set-provisioning.bats has the same for set --batch).  Here the
# refusal comes on the document's second filesystem, so the put-back
# reaches back to the first.
@test "apply: a full ext4 part way through its 30,000 ids puts back every change, on the filesystem before it too; one line, exit 1" {
	local e=$QFD_SCRATCH/e full=$QFD_SCRATCH/full-e f=$D/full.json got
	fs_ext4 full-e -s 32 -- -m 0 >/dev/null
	"$QFD" set -q "$e" qfdu1 --bsoft 0 --bhard 0 --isoft 0 --ihard 0
	"$QFD" set -q "$full" '#300000' --bsoft 5M --bhard 6M --isoft 50 --ihard 60
	{
		printf '{ "filesystems": [ { "path": "%s", "user": { "limits": [\n' "$e"
		printf '{ "who": "qfdu1", "space-soft": "1M", "space-hard": "2M", "files-soft": 10, "files-hard": 20 } ] } },\n'
		printf '{ "path": "%s", "user": { "limits": [\n' "$full"
		seq 300000 329999 | awk '{ printf "%s{ \"who\": %s, \"space-soft\": \"1M\", \"space-hard\": \"2M\", \"files-soft\": 10, \"files-hard\": 20 }\n", (NR > 1 ? "," : ""), $1 }'
		printf '] } } ] }\n'
	} >"$f"
	fs_fill "$full"
	run --separate-stderr "$QFD" apply "$f"
	echo "# ${stderr:0:200}" >&3
	[ "$status" -eq 1 ] || { echo "status $status: $stderr"; false; }
	[[ $output != *"changed "* ]] || { echo "$output"; false; }
	[ "${#stderr_lines[@]}" -eq 1 ] || { echo "$stderr"; false; }
	[[ $stderr =~ ^"qfd: $full: cannot "(read user quotas|set limits for user quotas)": No space left on device (user #"[0-9]+", id "[0-9]+"); the "[0-9]+" changes written before it were put back: nothing was changed"$ ]] ||
		{ echo "$stderr"; false; }
	[ "$(qfd_limits "$e" -u qfdu1)" = "0 0 0 0" ]
	got=$("$QFD" report -u -N -b --csv -o ID,SPACE-SOFT,SPACE-HARD,FILES-SOFT,FILES-HARD "$full" |
		awk -F, '$1 >= 300000 && $2 + $3 + $4 + $5 > 0 { print $1, $2, $3, $4, $5 }')
	[ "$got" = "300000 5242880 6291456 50 60" ] || { echo "limits after: $got"; false; }
	fs_umount full-e
}

# ends MNT ID: the "space-grace-ends" qfd dump writes for user ID (or "null")
ends() {
	"$QFD" dump -u "$1" | jq ".filesystems[0].user.limits[] | select(.who == $2) | .\"space-grace-ends\""
}

@test "dump writes a running grace time as its end; apply sets it back (ext4, XFS), --check writes nothing, a re-run changes nothing" {
	local e=$QFD_SCRATCH/e x=$QFD_SCRATCH/x m t now
	for m in "$e" "$x"; do
		"$QFD" set -q "$m" --grace-space 2h
		"$QFD" set -q "$m" qfdu3 --bsoft 8K --bhard 10M --isoft 0 --ihard 0
		write_bytes "$m/over3" 40960 qfdu3
		"$QFD" set -q "$m" qfdu2 --bsoft 8M --bhard 10M --isoft 0 --ihard 0
	done
	now=$(date +%s)
	"$QFD" dump -u "$e" >"$D/grace.json"
	t=$(jq '.filesystems[0].user.limits[] | select(.who == 2003) | ."space-grace-ends"' "$D/grace.json")
	# the grace period of 2 hours started when qfdu3 wrote over 8K
	[ "$t" -gt $((now + 7000)) ] && [ "$t" -le $((now + 7200)) ] || { echo "now $now, ends $t"; false; }
	# qfdu2 is under its soft limit: no grace time runs, none is written
	jq -e '.filesystems[0].user.limits[] | select(.who == 2002) |
	       has("space-grace-ends") or has("files-grace-ends") | not' "$D/grace.json"

	# another deadline; --check names the change and writes nothing
	"$QFD" set -q "$e" qfdu3 --grace-time 1h
	local moved
	moved=$(ends "$e" 2003)
	[ "$moved" -lt "$t" ]
	run "$QFD" apply --check --diff --exit-changed "$D/grace.json"
	[ "$status" -eq 4 ] || { echo "$status $output"; false; }
	[[ $output == *"would change user #2003 (2003) on $e: space-grace-ends $(date -u -d @"$moved" +%FT%TZ) -> $(date -u -d @"$t" +%FT%TZ)"* ]] ||
		{ echo "$output"; false; }
	[ "$(ends "$e" 2003)" = "$moved" ]
	run "$QFD" apply -J "$D/grace.json"
	[ "$status" -eq 0 ] || { echo "$status $output"; false; }
	jq -e --argjson t "$t" --argjson m "$moved" '.changed and
	       (.items[] | select(.item == "limits" and .id == 2003) |
	        .result == "changed" and .old."space-grace-ends" == $m and .new."space-grace-ends" == $t)' <<<"$output" ||
		{ echo "$output"; false; }
	[ "$(ends "$e" 2003)" = "$t" ]
	run "$QFD" apply -J --exit-changed "$D/grace.json"
	[ "$status" -eq 0 ] || { echo "$status $output"; false; }
	jq -e '.changed == false' <<<"$output"

	# onto XFS, where qfdu3 is over its soft limit too: the same deadline,
	# rounded up to the 4-second steps XFS keeps on disk (big timestamps),
	# so that after a remount a re-run still changes nothing
	# (a deadline of 4k + 1 seconds, which XFS cannot keep as it is)
	local t1=$((t - t % 4 + 1)) t4
	t4=$((t1 + 3))
	jq --argjson t1 "$t1" '(.filesystems[0].user.limits[] | select(.who == 2003) |
	                        ."space-grace-ends") = $t1' "$D/grace.json" >"$D/grace-x.json"
	"$QFD" set -q "$x" qfdu3 --grace-time 1h
	[ "$(ends "$x" 2003)" != "$t4" ]
	"$QFD" apply -q --path "$x" "$D/grace-x.json"
	[ "$(ends "$x" 2003)" = "$t4" ]
	fs_umount x
	fs_mount x
	[ "$(ends "$x" 2003)" = "$t4" ] || { echo "after a remount: $(ends "$x" 2003), not $t4"; false; }
	run "$QFD" apply -J --path "$x" "$D/grace-x.json"
	jq -e '.changed == false' <<<"$output" || { echo "$output"; false; }
	"$QFD" set -q "$x" --grace-space 7d
	"$QFD" set -q "$e" --grace-space 7d
	rm -f "$e/over3" "$x/over3"
}

# dirs MNT: every directory below MNT with a project id, as 'qfd project
# show' reads them back from the kernel: [{path, id, inherit}], sorted
dirs_of() {
	"$QFD" project show -r -J -o PATH,ID,INHERIT,TYPE "$1" |
		jq -c --arg m "$1/" '[.projects[] | select(.type == "directory" and .id > 0) |
		                      {path: (.path | ltrimstr($m)), id, inherit}] | sort_by(.path)'
}

@test "dump --project-dirs ext4 | apply onto a fresh XFS: the same project directories; --check and a bad item write nothing" {
	local e=$QFD_SCRATCH/e x want
	x=$(fs_xfs x3 -o pquota)
	project_dir "$e/pd1" 4001
	mkdir "$e/pd1/deep"			# inherits 4001 and the flag
	mkdir -p "$e/pd2/sub" "$e/plain" "$x/plain"
	"$QFD" project set -q "$e/pd2/sub" qfdp2
	project_dir "$e/pd3" 4003
	xfs_io -c "chattr -P" "$e/pd3"		# a project without the inherit flag
	"$QFD" dump -p --project-dirs "$e" >"$D/dirs.json"
	want='[{"path":"pd1","project":4001,"inherit":true},{"path":"pd1/deep","project":4001,"inherit":true},{"path":"pd2/sub","project":4002,"inherit":true},{"path":"pd3","project":4003,"inherit":false}]'
	[ "$(jq -c '.filesystems[0]."project-dirs" | sort_by(.path)' "$D/dirs.json")" = "$want" ] ||
		{ cat "$D/dirs.json"; false; }
	[ "$(dirs_of "$e")" = '[{"path":"pd1","id":4001,"inherit":true},{"path":"pd1/deep","id":4001,"inherit":true},{"path":"pd2/sub","id":4002,"inherit":true},{"path":"pd3","id":4003,"inherit":false}]' ]

	# the directories exist on XFS (as a copy of the data would make them)
	mkdir -p "$x/pd1/deep" "$x/pd2/sub" "$x/pd3"
	ln -s pd1 "$x/link"
	# one bad item (a missing directory, a symbolic link) applies nothing
	jq '.filesystems[0]."project-dirs" += [{"path": "missing", "project": 4001}, {"path": "link", "project": 4002}]' \
		"$D/dirs.json" >"$D/dirs-bad.json"
	run "$QFD" apply -J --path "$x" "$D/dirs-bad.json"
	[ "$status" -eq 2 ] || { echo "$status $output"; false; }
	[[ $output == *"qfd: $x: project directory missing: no such directory"* ]] || { echo "$output"; false; }
	[[ $output == *"qfd: $x: project directory link: not a directory (symbolic links are not followed)"* ]] || { echo "$output"; false; }
	[ "$(dirs_of "$x")" = '[]' ] || { dirs_of "$x"; false; }
	[ "$(dirs_of "$x/pd1")" = '[]' ]

	run "$QFD" apply --check --diff --exit-changed --path "$x" "$D/dirs.json"
	[ "$status" -eq 4 ] || { echo "$status $output"; false; }
	[[ $output == *"would change project directory pd3 on $x: project 0 -> 4003"$'\n'* ]] || { echo "$output"; false; }
	[[ $output == *"would change project directory pd1 on $x: project 0 -> 4001, inherit off -> on"* ]] || { echo "$output"; false; }
	[ "$(dirs_of "$x")" = '[]' ]

	run "$QFD" apply -J --path "$x" "$D/dirs.json"
	[ "$status" -eq 0 ] || { echo "$status $output"; false; }
	jq -e '.changed and ([.items[] | select(.item == "project-dir" and .result == "changed")] | length) == 4' <<<"$output" ||
		{ echo "$output"; false; }
	[ "$(dirs_of "$x")" = "$(dirs_of "$e")" ] || { dirs_of "$x"; false; }
	# lsattr agrees: project 4003, and no inherit flag (P) on pd3
	[[ $(lsattr -pd "$x/pd3") == " 4003 "*" $x/pd3" || $(lsattr -pd "$x/pd3") == "4003 "*" $x/pd3" ]] || { lsattr -pd "$x/pd3"; false; }
	# the inherit flag through FS_IOC_FSGETXATTR: before 5.13, XFS's
	# FS_IOC_GETFLAGS (lsattr) did not report it
	[[ $(xfs_io -r -c lsattr "$x/pd3" | awk '{ print $1 }') != *P* ]] || { xfs_io -r -c lsattr "$x/pd3"; false; }
	[[ $(xfs_io -r -c lsattr "$x/pd1" | awk '{ print $1 }') == *P* ]] || { xfs_io -r -c lsattr "$x/pd1"; false; }
	run "$QFD" apply -J --exit-changed --path "$x" "$D/dirs.json"
	[ "$status" -eq 0 ] || { echo "$status $output"; false; }
	jq -e '.changed == false' <<<"$output"
	# a new directory below an applied one inherits its project there too
	mkdir "$x/pd1/new"
	[ "$("$QFD" project show -J "$x/pd1/new" | jq '.projects[0].id')" = 4001 ]
}

@test "apply: a filesystem without project ids refuses a directory: the one written before it is put back; one line, exit 1" {
	local x=$QFD_SCRATCH/x n
	n=$(fs_ext4_noproject np)
	mkdir -p "$x/pb1" "$n/pb2"
	"$QFD" set -q "$n" qfdu1 --ihard 0
	cat >"$D/noproj.json" <<-EOT
	{ "filesystems": [
	  { "path": "$x", "project-dirs": [ { "path": "pb1", "project": "qfdp1" } ] },
	  { "path": "$n", "project-dirs": [ { "path": "pb2", "project": 4002 } ],
	    "user": { "limits": [ { "who": "qfdu1", "files-hard": 77 } ] } } ] }
	EOT
	run --separate-stderr "$QFD" apply -J "$D/noproj.json"
	[ "$status" -eq 1 ] || { echo "status $status: $output / $stderr"; false; }
	[ "${#stderr_lines[@]}" -eq 1 ] || { echo "$stderr"; false; }
	[ "$stderr" = "qfd: $n: cannot set the project of directory pb2: $n (ext4) has no project ids: make it with mkfs.ext4 -O project -I 256, or add them with tune2fs -O project while it is unmounted; the 1 change written before it was put back: nothing was changed" ] ||
		{ echo "$stderr"; false; }
	jq -e '.changed == false and .failed and
	       ([.items[] | select(.result == "error")] | length) == 1 and
	       (.items[] | select(.result == "error") | .dir == "pb2")' <<<"$output" || { echo "$output"; false; }
	# pb1 was assigned, then put back; the limit after them was never written
	[ "$("$QFD" project show -J "$x/pb1" | jq -c '.projects[0] | [.id, .inherit]')" = "[0,false]" ]
	[ "$(qfd_limits "$n" -u qfdu1)" = "0 0 0 0" ]
}
