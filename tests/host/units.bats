#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The systemd units (systemd/*.service.in), checked with systemd's own
# tools and nothing started: 'systemd-analyze verify' on instances of the
# templates, and 'systemctl --root' enabling them into a scratch tree.
# The placeholders are filled in as make does, with the qfd under test
# ($QFD) as the program, since verify wants an executable ExecStart.
#
# Run: QFD=/path/to/src/qfd bats tests/host/units.bats

setup() {
	: "${QFD:?QFD must name the qfd binary}"
	srcdir=${QFD_SRCDIR:-$BATS_TEST_DIRNAME/../..}
	command -v systemd-analyze >/dev/null || {
		echo "systemd-analyze is missing (Debian package systemd)"
		return 1
	}
	U=$BATS_TEST_TMPDIR/units
	mkdir -p "$U"
	local f
	for f in "$srcdir"/systemd/*.service.in; do
		sed -e "s|@sbindir@|$(dirname "$QFD")|g" -e 's|@sysconfdir@|/etc|g' \
			"$f" >"$U/$(basename "$f" .in)"
	done
	# the mount the instances are bound to: /srv
	printf '%s\n' '[Mount]' What=tmpfs Where=/srv Type=tmpfs Options=usrquota \
		>"$U/srv.mount"
}

@test "units: every placeholder is filled in" {
	ls "$U"/qfd-on@.service "$U"/qfd-apply@.service
	run grep -n '@[a-z_]*@' "$U"/qfd-on@.service "$U"/qfd-apply@.service
	[ "$status" -eq 1 ]
}

@test "units: systemd-analyze verify passes on qfd-on@srv and qfd-apply@srv, without a warning" {
	run systemd-analyze verify --man=no "$U/qfd-on@srv.service" "$U/qfd-apply@srv.service"
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "units: verify would catch a broken unit (the check can fail)" {
	sed -i 's/^ExecStart=/ExecStrat=/' "$U/qfd-on@.service"
	run systemd-analyze verify --man=no "$U/qfd-on@srv.service"
	[ "$status" -ne 0 ]
	[[ "$output" == *"ExecStrat"* ]]
}

@test "units: an instance is bound to the mount unit its name escapes" {
	inst=$(systemd-escape --path /srv/data)
	[ "$inst" = srv-data ]
	# no such mount yet: the instance cannot start
	run systemd-analyze verify --man=no "$U/qfd-on@$inst.service"
	[ "$status" -ne 0 ]
	[[ "$output" == *"Unit $inst.mount not found"* ]]
	printf '%s\n' '[Mount]' What=tmpfs Where=/srv/data Type=tmpfs >"$U/$inst.mount"
	run systemd-analyze verify --man=no "$U/qfd-on@$inst.service" "$U/qfd-apply@$inst.service"
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "units: enabling an instance hooks it to its mount unit" {
	R=$BATS_TEST_TMPDIR/root
	mkdir -p "$R/etc/systemd/system" "$R/lib/systemd/system"
	cp "$U"/qfd-on@.service "$U"/qfd-apply@.service "$R/lib/systemd/system/"
	run systemctl --root="$R" enable qfd-on@srv-data.service qfd-apply@srv-data.service
	echo "$output"
	[ "$status" -eq 0 ]
	[ -L "$R/etc/systemd/system/srv-data.mount.wants/qfd-on@srv-data.service" ]
	[ -L "$R/etc/systemd/system/srv-data.mount.wants/qfd-apply@srv-data.service" ]
}

@test "units: qfd-apply@tmp is bound to tmp.mount, started by it, and reads /etc/qfd/tmp.json" {
	# without tmp.mount the instance has nothing to bind to
	run systemd-analyze verify --man=no "$U/qfd-apply@tmp.service"
	[ "$status" -ne 0 ]
	[[ "$output" == *"Unit tmp.mount not found"* ]]
	printf '%s\n' '[Mount]' What=tmpfs Where=/tmp Type=tmpfs \
		Options=usrquota,usrquota_block_hardlimit=1G >"$U/tmp.mount"
	run systemd-analyze verify --man=no "$U/qfd-apply@tmp.service"
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	R=$BATS_TEST_TMPDIR/root
	mkdir -p "$R/etc/systemd/system" "$R/lib/systemd/system"
	cp "$U"/qfd-apply@.service "$U/tmp.mount" "$R/lib/systemd/system/"
	run systemctl --root="$R" enable qfd-apply@tmp.service
	[ "$status" -eq 0 ]
	[ -L "$R/etc/systemd/system/tmp.mount.wants/qfd-apply@tmp.service" ]
	grep -qx 'After=%i.mount' "$U/qfd-apply@.service"
	grep -qx 'ConditionPathExists=/etc/qfd/%i.json' "$U/qfd-apply@.service"
	grep -qx 'ExecStart=.*/qfd apply --quiet --path %f /etc/qfd/%i.json' "$U/qfd-apply@.service"
}
