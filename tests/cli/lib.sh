# SPDX-License-Identifier: BSD-2-Clause
# lib.sh — shared by the CLI tests that check commands by status, stderr and stdout
# (sourced after the script has made its scratch directory $T): TAP counting and the
# run/check helpers. Output of the last `run` is in $T/out and $T/err.
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
no() { n=$((n + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do echo "#   $l"; done; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
check() {   # check DESC COND-STATUS [diagnostics...]
	local d=$1 s=$2; shift 2
	if [ "$s" = 0 ]; then ok "$d"; else no "$d" "$@"; fi
}
# run DESC WANT_STATUS STDERR_PATTERN COMMAND... (stdout kept in $T/out)
run() {
	local d=$1 want=$2 pat=$3; shift 3
	"$@" >"$T/out" 2>"$T/err"
	local rc=$?
	if [ "$rc" = "$want" ] && { [ -z "$pat" ] || grep -qE -- "$pat" "$T/err"; }; then
		ok "$d"
	else
		no "$d" "status $rc (wanted $want)" "stderr: $(head -c 600 "$T/err")"
	fi
}

# jqs -e FILTER [FILE]: jq -e FILTER, but false when there is no JSON at all to read:
# jq 1.6 exits 0 on empty input, so a command that printed nothing would pass
jqs() {
	local filter=$2 in
	if [ $# -ge 3 ]; then in=$(cat -- "$3" 2>/dev/null) || return 2; else in=$(cat); fi
	[[ $in == *[![:space:]]* ]] || return 1
	jq -e "$filter" <<<"$in"
}
