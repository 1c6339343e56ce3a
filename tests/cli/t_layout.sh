#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_layout.sh — the house rules of the source tree (no root, no build needed): every
# header guard names its path; no header name repeats; unit tests sit in the room they
# test; analysis/ keeps only its front ends on top; a room includes only lib/, itself
# and the rooms it stands on; the firewall is reached through fw.h only; results/' plot
# and report files call only down; the runner's and the results' files call one way;
# an SPDX line heads every source file. HACKING.md explains each rule.
set -u
TOP=${PPSLAB_TOP:?}
cd "$TOP" || exit 1
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
no() { n=$((n + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do echo "#   $l"; done; }
check() {   # check DESC FINDINGS: ok when FINDINGS is empty
	local lines
	if [ -z "$2" ]; then ok "$1"; else mapfile -t lines < <(grep -v "^$" <<<"$2" | head -n 20); no "$1" "${lines[@]}"; fi
}

srcs=$(git ls-files '*.c' '*.h' 2>/dev/null || find . -name '*.[ch]' -not -path './build*' | sed 's#^\./##')
headers=$(grep '\.h$' <<<"$srcs")

# PPSLAB_<PATH>_H: the header's path, '/', '-' and '.' as '_', upper case
bad=""
for h in $headers; do
	want=$(sed 's/\.h$//; s/[^A-Za-z0-9]/_/g' <<<"$h" | tr a-z A-Z)
	want="PPSLAB_${want}_H"
	grep -q "^#ifndef $want\$" "$h" && grep -q "^#define $want\$" "$h" ||
		bad+="$h: guard is not $want"$'\n'
done
check "every header is guarded by PPSLAB_<PATH>_H" "$bad"

check "no header file name repeats anywhere" \
	"$(xargs -n1 basename <<<"$headers" | sort | uniq -d)"

# includes "NAME.h" resolved against the rooms; a room may include lib/ and itself
room_of() {   # room_of FILE: the room a source file belongs to
	case $1 in
	lib/*) echo lib ;; gen/*) echo gen ;; sink/*) echo sink ;;
	rut/fw/*) echo fw ;; rut/*) echo rut ;; analysis/results/*) echo results ;;
	analysis/runner/*) echo runner ;; analysis/*) echo analysis ;; *) echo other ;;
	esac
}
declare -A home
for h in $headers; do home[$(basename "$h")]=$(room_of "$h"); done
allowed() {   # allowed FROM TO
	[ "$1" = "$2" ] || [ "$2" = lib ] && return 0
	case "$1:$2" in
	runner:results | analysis:runner | analysis:results | rut:fw) return 0 ;;
	esac
	return 1
}
bad=""
for f in $srcs; do
	from=$(room_of "$f")
	[ "$from" = other ] && continue
	while read -r inc; do
		to=${home[$inc]:-}
		[ -z "$to" ] && continue
		allowed "$from" "$to" || bad+="$f includes $inc ($from may not reach $to)"$'\n'
	done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f")
done
check "each program includes only lib/ and its own room; results/ never reaches runner/" "$bad"

# the firewall's seam: of its headers only fw.h is included outside it (its own unit
# tests, tests/unit/fw/, may see the rest)
fwint=$(for h in $headers; do [ "$(room_of "$h")" = fw ] && basename "$h"; done | grep -vx 'fw\.h' | paste -sd'|')
bad=""
if [ -n "$fwint" ]; then
	for f in $srcs; do
		[ "$(room_of "$f")" = fw ] && continue
		case $f in tests/unit/fw/*) continue ;; esac
		hits=$(grep -HnE "^#include \"($fwint)\"" "$f") &&
			bad+=$(sed 's/$/ (only fw.h is the firewall'"'"'s to include)/' <<<"$hits")$'\n'
	done
fi
check "outside the firewall (and its unit tests) only fw.h of its headers is included" "$bad"


# the results room's plot and report files call only down: no file includes a header of
# a layer above its own, nor calls the plot dispatcher; and no header private to the
# room (included from nowhere else) declares more than 25 functions
R=analysis/results
bad=""
for chain in "plot.c plot_gp.h|plot_fig.c plot_fig.h|plot_scale.c plot_scale.h|plot_xy.c plot_box.c plot_heatmap.c plot_write.h" \
	     "report_doc.c report_doc.h|report_plot.c report_plot.h"; do
	IFS='|' read -ra lv <<<"$chain"
	for ((i = 0; i < ${#lv[@]}; i++)); do
		for f in ${lv[i]}; do
			[ -f "$R/$f" ] || bad+="$R/$f: missing"$'\n'
			[[ $f != plot* ]] || ! grep -qE '[^_a-z](plot_results|plot_draw|plot_default_kind)\(' "$R/$f" ||
				bad+="$R/$f calls up to the plot dispatcher"$'\n'
			for ((j = i + 1; j < ${#lv[@]}; j++)); do
				grep -q "^#include \"${lv[j]##* }\"" "$R/$f" 2>/dev/null &&
					bad+="$R/$f includes ${lv[j]##* }, a layer above it"$'\n'
			done
		done
	done
done
for h in $(git ls-files "$R/*.h"); do
	grep -rqs --include='*.[ch]' "#include \"$(basename "$h")\"" analysis/*.c analysis/runner tests && continue
	k=$(grep -cE '^(const |struct |enum |unsigned )?[a-z_0-9]+[ *]+[a-z_0-9]+\(' "$h")
	[ "$k" -le 25 ] || bad+="$h: $k prototypes in a header private to results/"$'\n'
done
check "results/: plot and report files call only down; private headers of at most 25 prototypes" "$bad"

# the runner's and the results' files call one way: no circle of calls between files
# (a file calls a function another file of the room defines without static; tsort
# names the files of a loop)
calls_circle() {   # calls_circle DIR: the files of DIR on a loop of calls, or nothing
	local f defs
	defs=$(for f in "$1"/*.c; do
		grep -oE '^[a-z][a-z_0-9 ]*[ *]([a-z_][a-z_0-9]*)\(' "$f" | grep -v '^static' |
			sed -E "s#.*[ *]([a-z_][a-z_0-9]*)\(\$# \1 $f#; s#^ ##"
	done | LC_ALL=C sort)
	for f in "$1"/*.c; do
		echo "$f $f"
		grep -oE '(^|[^a-z_0-9.>])[a-z_][a-z_0-9]*\(' "$f" | sed -E 's/^[^a-z_]//; s/\($//' |
			LC_ALL=C sort -u | LC_ALL=C join - <(echo "$defs") | awk -v f="$f" '$2 != f { print f, $2 }'
	done | tsort 2>&1 >/dev/null | grep -v 'input contains a loop:$' | sed 's/^tsort: //' | sort -u
}
bad=""
for d in analysis/runner analysis/results; do
	loop=$(calls_circle "$d")
	[ -z "$loop" ] || bad+="$d: a loop of calls through "$(paste -sd' ' <<<"$loop")$'\n'
done
check "runner/ and results/: files call one way, never round a circle" "$bad"

unit=tests/unit
bad=$(git ls-files "$unit" | grep '\.c$' | grep -vE "^$unit/(lib|gen|sink|rut|fw|analysis)/t_[a-z0-9_]+\.c\$")
check "every unit test sits in the room it tests (tests/unit/<room>/t_*.c)" "$bad"

check "analysis/ holds only main.c, the cmd_*.c front ends and anacli (the rest is runner/ or results/)" \
	"$(git ls-files 'analysis/*.[ch]' | grep -vE '^analysis/(runner|results)/|^analysis/(main\.c|cmd_[a-z]+\.c|cmds\.h|anacli\.[ch])$')"

# the license in the first line (the second after a shebang) of every source file
bad=""
for f in $srcs $(git ls-files 'Makefile' '*.sh' '*.bash' 'man/*.1' tests/run tests/stress tests/fuzz/run bench/run .ci/run 'profiles/hooks/*'); do
	head -n 2 "$f" | grep -q 'SPDX-License-Identifier: BSD-2-Clause' || bad+="$f"$'\n'
done
check "an SPDX line heads every source file" "$bad"

echo "1..$n"
