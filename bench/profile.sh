#!/bin/bash
# bench/profile.sh: where qfd report's own time goes, per format, on the
# host (no VM, no kernel quota calls).  A benchmark, not a test.
#
#     bench/profile.sh                 # times, 100,000 entries a run
#     bench/profile.sh perf            # and perf record/report per format
#     QFD_PROFILE_IDS=20000 bench/profile.sh
#
# It builds bench/qfd-profile (bench/qfd-profile.c linked with qfd's
# code as a library, -O2 as configure's default; ./configure must have
# run) and runs each format with output to /dev/null: the human table
# with names (the default), -N -r, --csv, -J, --prometheus, and the floor
# (one printf per entry).  Times are the best of QFD_PROFILE_REPS (3) runs,
# user + system seconds, from /usr/bin/time.  With "perf", each format is
# also recorded (perf record -g) and the top of perf report printed.
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN=$TOP/bench/qfd-profile
REPS=${QFD_PROFILE_REPS:-3}
export QFD_PROFILE_IDS=${QFD_PROFILE_IDS:-100000}

# qfd's convenience library (Makefile.am's src/libqfd.a: every src/*.c but
# main.c), built here at -O2 without sanitizers; the driver's own quota.c
# and mnt.c stand-ins come first, so the archive's are never taken.
if [[ ! -f $TOP/config.h ]]; then
	echo "$0: no config.h in $TOP: run ./configure first" >&2
	exit 1
fi
LIBDIR=$(mktemp -d)
PKGS="mount smartcols libnl-genl-3.0 json-c yajl"
# shellcheck disable=SC2086
CFLAGS_PC=$(pkg-config --cflags $PKGS)
for f in "$TOP"/src/*.c; do
	[[ ${f##*/} == main.c ]] && continue
	# shellcheck disable=SC2086
	cc -O2 -g -Wall -Werror -include "$TOP/config.h" -I"$TOP/src" $CFLAGS_PC \
		-c -o "$LIBDIR/$(basename "$f" .c).o" "$f"
done
ar rcs "$LIBDIR/libqfd.a" "$LIBDIR"/*.o
# shellcheck disable=SC2046
cc -O2 -g -D_GNU_SOURCE -Wall -Werror -I"$TOP/src" -o "$BIN" "$TOP/bench/qfd-profile.c" \
	"$LIBDIR/libqfd.a" $(pkg-config --libs $PKGS)
rm -rf "$LIBDIR"

declare -A ARGS=(
	[table]="report -u /bench"
	[raw]="report -u -N -r /bench"
	[csv]="report -u --csv /bench"
	[json]="report -u -J /bench"
	[prom]="report -u --prometheus /bench"
	[floor]="floor"
)
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
echo "$QFD_PROFILE_IDS entries, best of $REPS; load: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-6s %9s %9s %8s\n' format seconds "RSS KiB" "t/floor"
for f in floor table raw csv json prom; do
	best=
	for ((r = 0; r < REPS; r++)); do
		# shellcheck disable=SC2086
		/usr/bin/time -o "$W/t" -f '%U %S %M' "$BIN" ${ARGS[$f]} >/dev/null
		read -r u s m <"$W/t"
		t=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.3f", u + s }')
		if [[ -z $best ]] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then
			best=$t rss=$m
		fi
	done
	[[ $f == floor ]] && fl=$best
	printf '%-6s %9s %9s %8s\n' "$f" "$best" "$rss" \
		"$(awk -v a="$best" -v b="$fl" 'BEGIN { printf (b > 0 ? "%.2f" : "-"), a / b }')"
done

[[ ${1:-} == perf ]] || exit 0
for f in table raw csv json prom; do
	echo
	echo "== perf: $f"
	# shellcheck disable=SC2086
	perf record -q -g -o "$W/perf.data" "$BIN" ${ARGS[$f]} >/dev/null 2>&1
	perf report -i "$W/perf.data" --no-children --stdio --percent-limit 2 \
		-g none 2>/dev/null | grep -v '^#' | grep -v '^$' | head -n 25
done
