#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_report_page.sh — the HTML report opens whole in a browser with nothing beside it
# (no root): `ppslab report` on a sweep with a flagged case and a comparison, the page
# copied alone into an empty directory, loaded in headless Chromium; every image must
# have decoded, nothing may have been fetched, the page must be long enough to hold its
# sections. A screenshot is kept in the build tree (its path is printed) for a person to
# look at. Skipped, with the reason, where Chromium is not installed (Debian: chromium;
# scripts/deps.sh install-test).
set -u
B=${PPSLAB_BIN:?}/ppslab
TOP=${PPSLAB_TOP:?}
D=$TOP/tests/data
T=$(mktemp -d /tmp/ppslab-t_report_page.XXXXXX)
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/lib.sh"

browser=""
for c in chromium chromium-browser google-chrome; do
	command -v "$c" >/dev/null 2>&1 && { browser=$c; break; }
done
if [ -z "$browser" ]; then
	skip "report page renders in a browser" "no chromium installed (apt-get install chromium, or scripts/deps.sh install-test)"
	echo "1..$n"
	exit 0
fi
# a fresh profile each time; no network, no updates, no GPU; root needs --no-sandbox
chrome() {
	local prof
	prof=$(mktemp -d "$T/profile.XXXXXX")
	timeout 90 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--disable-dev-shm-usage --user-data-dir="$prof" --hide-scrollbars "$@" 2>>"$T/chrome.err"
}

jq '(.cases[] | select(.params.pollhz == 3000 and .params.burst_max == 150 and .params.rules == 0) | .metrics.fwd_pps) |= . * 0.9' \
	"$D/sweep.json" >"$T/slow.json"
run "report with a flagged case and a comparison" 0 "" "$B" report "$T/slow.json" --compare "$D/sweep.json" -o "$T/rep"
mkdir -p "$T/alone"
cp "$T/rep/report.html" "$T/alone/report.html"
# a copy with a check run after load: images decoded, resources fetched, the page's height
sed 's|</body></html>|<script>addEventListener("load", () => { const im = [...document.images]; const bad = im.filter(i => !(i.complete \&\& i.naturalWidth > 0)).length; const got = performance.getEntriesByType("resource").filter(e => !e.name.startsWith("data:")).map(e => e.name); const p = document.createElement("pre"); p.id = "ppslab-check"; p.textContent = "images=" + im.length + " broken=" + bad + " fetched=" + got.length + " " + got.join(" ") + " height=" + document.body.scrollHeight + " h2=" + document.querySelectorAll("h2").length; document.body.appendChild(p); });</script></body></html>|' \
	"$T/alone/report.html" >"$T/alone/check.html"
chrome --virtual-time-budget=10000 --dump-dom "file://$T/alone/check.html" >"$T/dom.html"
res=$(sed -n 's/.*<pre id="ppslab-check">\([^<]*\)<\/pre>.*/\1/p' "$T/dom.html")
if [ -z "$res" ]; then
	no "the page loads in $browser" "no result in the DOM" "$(tail -c 400 "$T/chrome.err")"
else
	ok "the page loads in $browser ($res)"
	echo "$res" | grep -qE '^images=4 broken=0 fetched=0 '
	check "every image decoded (4 plots embedded), nothing fetched from anywhere" $? "$res"
	h=$(echo "$res" | sed -n 's/.*height=\([0-9]*\).*/\1/p')
	sections=$(echo "$res" | sed -n 's/.*h2=\([0-9]*\).*/\1/p')
	[ "${h:-0}" -gt 3000 ] && [ "${sections:-0}" -ge 6 ]
	check "the page holds its sections ($sections headings, $h pixels tall)" $?
fi
# the picture a person would see, kept where the build is
out=${PPSLAB_BUILD:-$TOP/build}/test-out/t_report_page
mkdir -p "$out"
rm -f "$out/report.png"
chrome --window-size=1280,6000 --screenshot="$out/report.png" "file://$T/alone/report.html" >/dev/null
if [ -s "$out/report.png" ] && [ "$(head -c 8 "$out/report.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; then
	ok "screenshot of the page alone: $out/report.png"
else
	no "screenshot of the page" "$(tail -c 400 "$T/chrome.err")"
fi
echo "# screenshot: $out/report.png"
echo "1..$n"
