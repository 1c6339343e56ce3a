#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_books_fault.sh — the suite catches a broken forwarder whose loss no counter shows:
# t_e2e runs against a ppslab-rut that discards every 1,000th frame it sends and
# still counts it as sent (the test-only fault PPSLAB_RUT_FAULT_DROP_EVERY, fwd.h).
# The forwarder's own books then balance (read = forwarded + dropped: it lies
# consistently), and t_e2e must fail where it accounts for every frame end to end:
# what the sink lost is more than the places on the way say they dropped, by exactly
# the frames discarded — however loaded the host, since host drops are named.
. "$(dirname "$0")/lib.sh"
PPSLAB_RUT_FAULT_DROP_EVERY=1000 bash "$(dirname "$0")/t_e2e.sh" >"$T/e2e.tap" 2>"$T/e2e.err"
rc=$?
check "t_e2e against the broken forwarder: it fails" test "$rc" != 0 -o -n "$(grep '^not ok' "$T/e2e.tap")"
line() { grep -E "^(not )?ok [0-9]+ - $1" "$T/e2e.tap" | head -n 1 | sed 's/ [0-9]* - .*//'; }
eq "... at its end-to-end books (every frame lost dropped at a named place)" \
	"$(line 'sink: every frame lost was dropped at a named place')" "not ok"
eq "... while the forwarder's own books balance (read = forwarded + dropped)" \
	"$(line 'rut: read = forwarded \+ dropped')" "ok"
eq "... and the direct run, without the forwarder, passes its books" \
	"$(line 'direct: every frame lost was dropped at a named place')" "ok"
# by how much: the frames the fault took, every 1,000th the forwarder counted as sent
set -- $(sed -n 's/^# books: the sink lost \([0-9]*\), the places on the way dropped \([0-9]*\);.* forwarded \([0-9]*\)$/\1 \2 \3/p' "$T/e2e.tap")
if [ $# = 3 ]; then
	eq "... short by exactly the frames discarded (a 1,000th of the $3 counted as sent)" $(($1 - $2)) $(($3 / 1000))
else
	not_ok "... short by exactly the frames discarded" "no books line in t_e2e's output: $(grep -c . "$T/e2e.tap") lines"
fi
done_testing
