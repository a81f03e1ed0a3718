#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-weight: 20
#
# 'qfd report --prometheus' and --textfile on ext4, XFS and (patched)
# UBIFS: promtool accepts the output, every family is one block, the
# values are what the kernel charged, label values are escaped (a group
# name with a double quote and a backslash, a mount point with a newline),
# and a filesystem whose quotas are off shows as qfd_quota_scrape_error 1.
#
# Run: tests/vm/check --ubifs-ko "$(kernel/ubifs/build.sh -q | tail -n1)" \
#          tests/vm/suites/report-prometheus.bats

load ../lib/fs

bats_require_minimum_version 1.5.0

# a group name with the two characters the format escapes besides newline
ODD='pq"\b'
ODD_GID=3888
ODD_ESC='pq\"\\b'
# a mount point with a newline, a quote and a backslash: tmpfs, no quotas
NLMNT=$QFD_SCRATCH/$'we"ird\\\nmnt'
NLMNT_ESC="$QFD_SCRATCH/we\\\"ird\\\\\\nmnt"

setup_file() {
	in_vm || skip "not inside the test VM (use tests/vm/check)"
	fs_teardown
	users_create
	grep -q "^$ODD:" /etc/group || printf '%s:x:%s:\n' "$ODD" "$ODD_GID" >>/etc/group
	fs_ext4_xfs_ubifs pm
	fs_ext4_noquota pm-n >/dev/null
	mkdir -p "$NLMNT"
	mount -t tmpfs -o size=1m none "$NLMNT"
	for m in "${MNTS[@]}"; do
		"$QFD" set -q "$m" "$QFD_WEIRD_USER" --bsoft 1M --bhard 4M --isoft 5 --ihard 10
		"$QFD" set -q "$m" qfdu3 --bhard 1M
		"$QFD" set -q -g "$m" "#$ODD_GID" --bhard 8M
		# the odd user past its soft limit (grace), qfdu3 at its hard one
		write_bytes "$m/w" $((2 * 1024 * 1024)) "$QFD_WEIRD_USER"
		write_bytes "$m/u3" $((1024 * 1024)) qfdu3 || true
		write_as 2001 "$m/g" $((3 * 4096)) "$ODD_GID"
	done
}

teardown_file() {
	umount "$NLMNT" 2>/dev/null
	fs_teardown
}

# the filesystems with quotas: UBIFS only with the patched module (set
# again by setup_file once it knows)
fs_quota_mnts pm
NOQ=$QFD_SCRATCH/pm-n

# every sample of a family in one block: a name seen again after another
# family started is an error (promtool itself only rejects a second HELP)
families_contiguous() {
	awk '/^#/ { next }
	     { n = $0; sub(/[{ ].*/, "", n) }
	     n != last && (n in seen) { print "split family: " n; bad = 1 }
	     { seen[n] = 1; last = n }
	     END { exit bad }'
}

@test "promtool accepts the metrics of ext4, XFS, UBIFS and two filesystems without quotas" {
	run --separate-stderr "$QFD" report --prometheus "${MNTS[@]}" "$NOQ" "$NLMNT"
	[ "$status" -eq 0 ] || { echo "$status $stderr"; false; }
	out=$output
	run promtool check metrics <<<"$out"
	[ "$status" -eq 0 ] || { echo "promtool: $output"; false; }
	families_contiguous <<<"$out"
	# HELP and TYPE once per family, ten families
	[ "$(grep -c '^# HELP ' <<<"$out")" -eq 10 ]
	[ "$(grep -c '^# TYPE .* gauge$' <<<"$out")" -eq 10 ]
	[ "$(grep '^# TYPE ' <<<"$out" | sort | uniq -d)" = "" ]
	# samples of several filesystems, each family once
	for fst in "${FSTYPES[@]}"; do
		grep -q "^qfd_quota_status{mountpoint=\"[^\"]*\",fstype=\"$fst\"," <<<"$out" ||
			{ echo "no $fst samples"; false; }
	done
}

@test "usage and limits written by a user appear exactly, with status and grace deadline" {
	now=$(date +%s)
	for i in "${!MNTS[@]}"; do
		m=${MNTS[i]} fst=${FSTYPES[i]}
		run --separate-stderr "$QFD" report --prometheus -u "$m"
		[ "$status" -eq 0 ] || { echo "$m: $stderr"; false; }
		l="{mountpoint=\"$m\",fstype=\"$fst\",type=\"user\",id=\"2004\",name=\"$QFD_WEIRD_USER\"}"
		for want in "qfd_quota_space_used_bytes$l 2097152" \
			"qfd_quota_space_soft_limit_bytes$l 1048576" \
			"qfd_quota_space_hard_limit_bytes$l 4194304" \
			"qfd_quota_files_used$l 1" \
			"qfd_quota_files_soft_limit$l 5" \
			"qfd_quota_files_hard_limit$l 10" \
			"qfd_quota_files_grace_deadline_seconds$l 0" \
			"qfd_quota_status$l 1" \
			"qfd_quota_status{mountpoint=\"$m\",fstype=\"$fst\",type=\"user\",id=\"2003\",name=\"qfdu3\"} 3" \
			"qfd_quota_scrape_error{mountpoint=\"$m\",fstype=\"$fst\",type=\"user\"} 0"; do
			grep -qxF "$want" <<<"$output" || { echo "$m: no line '$want' in:"; echo "$output"; false; }
		done
		# the grace period is a week: the deadline is a week from the write
		d=$(grep -F "qfd_quota_space_grace_deadline_seconds$l " <<<"$output" | cut -d' ' -f2)
		((d > now + 604800 - 600 && d <= now + 604800)) || { echo "$m: deadline $d, now $now"; false; }
	done
}

@test "label values escape double quote, backslash and newline" {
	for i in "${!MNTS[@]}"; do
		m=${MNTS[i]} fst=${FSTYPES[i]}
		run "$QFD" report --prometheus -g "$m"
		[ "$status" -eq 0 ]
		grep -qxF "qfd_quota_space_used_bytes{mountpoint=\"$m\",fstype=\"$fst\",type=\"group\",id=\"$ODD_GID\",name=\"$ODD_ESC\"} 12288" <<<"$output" ||
			{ echo "$output"; false; }
	done
	run --separate-stderr "$QFD" report --prometheus -u "$NLMNT"
	[ "$status" -eq 0 ]
	[ "$(grep -v '^#' <<<"$output")" = "qfd_quota_scrape_error{mountpoint=\"$NLMNT_ESC\",fstype=\"tmpfs\",type=\"user\"} 1" ] ||
		{ echo "$output"; false; }
	promtool check metrics <<<"$output"
}

@test "quotas off: qfd_quota_scrape_error 1 for each type, the error on stderr, exit 0" {
	run --separate-stderr "$QFD" report --prometheus "$NOQ" "${MNTS[0]}"
	[ "$status" -eq 0 ]
	[[ ${#stderr_lines[@]} -eq 1 && $stderr == "qfd: $NOQ: "* ]] || { echo "stderr: $stderr"; false; }
	for t in user group project; do
		grep -qxF "qfd_quota_scrape_error{mountpoint=\"$NOQ\",fstype=\"ext4\",type=\"$t\"} 1" <<<"$output" ||
			{ echo "$output"; false; }
		grep -qxF "qfd_quota_scrape_error{mountpoint=\"${MNTS[0]}\",fstype=\"ext4\",type=\"$t\"} 0" <<<"$output" ||
			{ echo "$output"; false; }
	done
	# no sample of the filesystem without quotas but its scrape errors
	[ "$(grep -F "mountpoint=\"$NOQ\"" <<<"$output" | grep -vc '^qfd_quota_scrape_error')" -eq 0 ]
}

@test "-N: empty name labels; --over hard: only ids at a hard limit, exit 3" {
	run "$QFD" report --prometheus -N -u "${MNTS[1]}"
	[ "$status" -eq 0 ]
	grep -qxF "qfd_quota_status{mountpoint=\"${MNTS[1]}\",fstype=\"xfs\",type=\"user\",id=\"2004\",name=\"\"} 1" <<<"$output"
	run "$QFD" report --prometheus --over hard -u "${MNTS[@]}"
	[ "$status" -eq 3 ]
	[ "$(grep '^qfd_quota_status{' <<<"$output" | sed 's/.*id="\([0-9]*\)".* \([0-9]\)$/\1 \2/' | sort -u)" = "2003 3" ] ||
		{ echo "$output"; false; }
}

@test "--textfile: the same metrics, written atomically, mode 0644, nothing else left" {
	dir=$QFD_SCRATCH/textfile
	mkdir -p "$dir"
	run --separate-stderr "$QFD" report --textfile "$dir/quota.prom" "${MNTS[@]}" "$NOQ"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	[[ $stderr == "qfd: $NOQ: "* ]]
	[ "$(ls -A "$dir")" = quota.prom ]
	[ "$(stat -c %a "$dir/quota.prom")" = 644 ]
	[ "$(cat "$dir/quota.prom")" = "$("$QFD" report --prometheus "${MNTS[@]}" "$NOQ" 2>/dev/null)" ]
	promtool check metrics <"$dir/quota.prom"
}

@test "--textfile on a full filesystem: exit 1, old file unchanged, no temporary file left" {
	dir=$QFD_SCRATCH/full
	mkdir -p "$dir"
	mount -t tmpfs -o size=64k none "$dir"
	echo old >"$dir/quota.prom"
	dd if=/dev/zero of="$dir/fill" bs=4096 status=none 2>/dev/null || true
	run --separate-stderr "$QFD" report --textfile "$dir/quota.prom" "${MNTS[@]}"
	ls=$(ls -A "$dir")
	content=$(cat "$dir/quota.prom")
	umount "$dir"
	[ "$status" -eq 1 ]
	[[ $stderr == *"qfd: $dir/quota.prom: cannot write the metrics: No space left on device"* ]] ||
		{ echo "stderr: $stderr"; false; }
	[ "$content" = old ]
	[ "$ls" = "$(printf 'fill\nquota.prom')" ] || { echo "left: $ls"; false; }
}
