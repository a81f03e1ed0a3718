#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The build system as the README and the test scripts promise it.

setup() {
	SRC=${QFD_SRCDIR:-$BATS_TEST_DIRNAME/../..}
}

@test "a plain autoreconf -fi installs the TAP driver make check runs through" {
	command -v autoreconf >/dev/null ||
		{ echo "autoreconf is missing (./bootstrap.sh --install-deps)"; false; }
	d=$BATS_TEST_TMPDIR/tree
	mkdir -p "$d"
	cp -r "$SRC/configure.ac" "$SRC/Makefile.am" "$SRC/m4" "$d/"
	run autoreconf -fi "$d"
	echo "$output"
	[ "$status" -eq 0 ]
	[ -f "$d/build-aux/tap-driver.sh" ]
}

@test "every TAP test script counts the results it will report, also with QFD_VM=no" {
	for t in "$SRC"/tests/*.test; do
		run "$t" --count
		[ "$status" -eq 0 ] && [[ $output =~ ^[0-9]+$ ]] ||
			{ echo "$t --count: '$output' (status $status)"; false; }
		QFD_VM=no run "$t" --count
		[ "$status" -eq 0 ] && [[ $output =~ ^[0-9]+$ ]] ||
			{ echo "QFD_VM=no $t --count: '$output'"; false; }
	done
	# the host suites' count is the number of their @test lines
	run "$SRC/tests/host.test" --count
	[ "$output" -eq "$(cat "$SRC"/tests/host/*.bats | grep -c '^@test ')" ]
	[ "$output" -gt 0 ]
}
