#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_report_page.sh — the HTML report opens whole in a browser with nothing beside it
# (no root): `ppslab report` on a sweep with a flagged case and a comparison, the page
# copied alone into an empty directory, loaded in headless Chromium; every image must
# have decoded, nothing may have been fetched, the page must be long enough to hold its
# sections; the first screen (a 1280x900 window) must hold the conclusion and a figure; the
# heatmap, rendered alone by the browser from the page's SVG, must be crisp (along a
# line through its top row of cells the colour changes only at the cells' edges, where a
# browser's smoothing of an embedded bitmap changes it at nearly every pixel). A
# screenshot is kept in the build tree (its path is printed) for a person to look at. Skipped, with the reason, where Chromium is not installed (Debian: chromium;
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
sed 's|</body></html>|<script>addEventListener("load", () => { const im = [...document.images]; const bad = im.filter(i => !(i.complete \&\& i.naturalWidth > 0)).length; const got = performance.getEntriesByType("resource").filter(e => !e.name.startsWith("data:")).map(e => e.name); const p = document.createElement("pre"); p.id = "ppslab-check"; p.textContent = "images=" + im.length + " broken=" + bad + " fetched=" + got.length + " " + got.join(" ") + " height=" + document.body.scrollHeight + " h2=" + document.querySelectorAll("h2").length + " conclusion=" + Math.round(document.getElementById("conclusion").getBoundingClientRect().top) + " figure=" + Math.round(im[0].getBoundingClientRect().top) + " screen=" + innerHeight; document.body.appendChild(p); });</script></body></html>|' \
	"$T/alone/report.html" >"$T/alone/check.html"
chrome --window-size=1280,900 --virtual-time-budget=10000 --dump-dom "file://$T/alone/check.html" >"$T/dom.html"
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
	c=$(echo "$res" | sed -n 's/.* conclusion=\([0-9]*\).*/\1/p')
	fig=$(echo "$res" | sed -n 's/.* figure=\([0-9]*\).*/\1/p')
	scr=$(echo "$res" | sed -n 's/.* screen=\([0-9]*\).*/\1/p')
	[ -n "$c" ] && [ -n "$fig" ] && [ "${scr:-0}" -ge 700 ] && [ "$c" -lt 300 ] && [ "$fig" -lt "$((scr - 150))" ]
	check "the first screen holds the conclusion (at $c px) and the top of a figure (at $fig of $scr px)" $? "$res"
fi

# the heatmap alone, as the browser draws the page's SVG, at its own size
png_rows() {   # png_rows FILE: "x y r g b" per pixel, decoded by gnuplot
	(cd "$(dirname "$1")" && gnuplot -e "set table '$T/px.txt'; plot '$(basename "$1")' binary filetype=png with rgbimage; unset table") 2>/dev/null
	awk 'NF >= 6 && $1 !~ /^#/ { print $1, $2, $3, $4, $5 }' "$T/px.txt"
}
heat=$(grep -o '<img width="[0-9]*" height="[0-9]*" alt="fwd_pps over [^"]*" src="data:image/svg+xml;base64,[^"]*"' "$T/rep/report.html" | head -1)
gp=$(ls "$T/rep"/heatmap-*.gp 2>/dev/null | head -1)
if [ -z "$heat" ] || [ -z "$gp" ]; then
	no "the report has a heatmap" "$(grep -o '<img [^>]*alt="[^"]*"' "$T/rep/report.html" | head)"
else
	w=$(echo "$heat" | sed 's/^<img width="\([0-9]*\)".*/\1/'); h=$(echo "$heat" | sed 's/^[^"]*"[0-9]*" height="\([0-9]*\)".*/\1/')
	printf '<!DOCTYPE html><html><body style="margin:0;background:#fff">%s></body></html>\n' "$heat" >"$T/alone/heat.html"
	chrome --window-size="$w,$h" --screenshot="$T/heat.png" "file://$T/alone/heat.html" >/dev/null
	cp "$T/heat.png" "${PPSLAB_BUILD:-$TOP/build}/test-out/t_report_page/heatmap.png" 2>/dev/null
	# the first panel's plot area (screen fractions) and its rows of cells, from the script
	lm=$(sed -n 's/^set lmargin at screen //p' "$gp" | head -1); rm_=$(sed -n 's/^set rmargin at screen //p' "$gp" | head -1)
	tm=$(sed -n 's/^set tmargin at screen //p' "$gp" | head -1); bm=$(sed -n 's/^set bmargin at screen //p' "$gp" | head -1)
	ny=$(sed -n 's/^set yrange \[-0.5:\([0-9]*\).5\]$/\1/p' "$gp" | head -1); ny=$((ny + 1))
	nx=$(sed -n 's/^set xrange \[-0.5:\([0-9]*\).5\]$/\1/p' "$gp" | head -1); nx=$((nx + 1))
	# a line a fifth of a row below the top of the plot area, clear of the values written
	# in the cells' middles; gnuplot's table counts rows from the bottom of the image
	png_rows "$T/heat.png" >"$T/rows.txt"
	steps=$(awk -v W="$w" -v H="$h" -v lm="$lm" -v rm="$rm_" -v tm="$tm" -v bm="$bm" -v ny="$ny" '
		BEGIN { y = int(H * (tm - (tm - bm) / ny / 5)); x0 = int(W * lm) + 3; x1 = int(W * rm) - 3 }
		$2 == y && $1 >= x0 && $1 <= x1 { c[$1] = $3 "," $4 "," $5 }
		END { n = 0; for (x = x0 + 1; x <= x1; x++) if ((x in c) && ((x - 1) in c) && c[x] != c[x - 1]) n++; print n }' "$T/rows.txt")
	[ -n "$steps" ] && [ "$steps" -ge $((nx - 1)) ] && [ "$steps" -le $((3 * nx)) ]
	check "the heatmap is crisp in the browser: $steps colour changes along a row of $nx cells" $? "lm=$lm rm=$rm_ tm=$tm bm=$bm ny=$ny ${w}x$h"
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
