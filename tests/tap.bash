# SPDX-License-Identifier: GPL-2.0-or-later
# tests/tap.bash: what the tests/*.test scripts share of TAP, sourced by
# each that uses it.  POSIX sh: vm.test and tests/vm/kernel-suites are
# /bin/sh scripts.
#
# tap_skip_if_no_vm WHAT [MODE]: with QFD_VM=no ('make distcheck') a test
# that needs the VM or the kernel builds is off: for MODE --count it
# prints 0, otherwise an empty TAP plan that skips WHAT, and the script
# exits 0.  Without QFD_VM=no it returns.
tap_skip_if_no_vm() {
	[ "${QFD_VM:-yes}" = no ] || return 0
	if [ "${2-}" = --count ]; then
		echo 0
	else
		echo "1..0 # SKIP $1 disabled (QFD_VM=no)"
	fi
	exit 0
}

# tap_result STATUS DESCRIPTION [LOG]: "ok N - ..." for STATUS 0, else
# "not ok N - ..." and the last 40 lines of LOG, if given, as comments.
# N counts up from 1 in $tap_n.
tap_n=0
tap_result() {
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $tap_n - $2"
	else
		echo "not ok $tap_n - $2"
		[ -n "${3-}" ] && tail -n 40 "$3" | sed 's/^/# /'
	fi
	return 0
}
