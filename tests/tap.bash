# SPDX-License-Identifier: GPL-2.0-or-later
# tests/tap.bash: the TAP result line of the tests/*.test scripts that
# report steps of their own (deb.test, kernel.test), sourced by each.
#
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
