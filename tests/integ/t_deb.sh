#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_deb.sh — the Debian package (root: a real install on this machine): `make deb`
# builds build/deb/ppslab_VERSION_ARCH.deb with dpkg-buildpackage, declaring libpcap,
# libnet and jansson (from shlibs), iproute2, and gnuplot as a recommendation; it holds
# the programs, man pages, rule sets and completion; dpkg -i installs it, the installed
# /usr/bin/ppslab-gen --help and --version run, man finds the page; dpkg --purge removes
# it at the end, also when a check fails. Skipped without dpkg-buildpackage/debhelper,
# or when a ppslab package is already installed (it is not this test's to remove).
set -u
TOP=${PPSLAB_TOP:?}
T=$(mktemp -d /tmp/ppslab-t_deb.XXXXXX)
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
no() { n=$((n + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do echo "#   $l"; done; }
skip() { echo "ok 1 - Debian package # SKIP $1"; echo "1..1"; exit 0; }
installed=0
cleanup() {
	if [ "$installed" = 1 ]; then
		dpkg --purge ppslab >"$T/purge" 2>&1 || { echo "# dpkg --purge ppslab failed:"; sed 's/^/#   /' "$T/purge"; }
	fi
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

[ "$(id -u)" = 0 ] || skip "needs root (dpkg -i)"
command -v dpkg-buildpackage >/dev/null 2>&1 || skip "dpkg-buildpackage missing (apt-get install dpkg-dev)"
command -v dh >/dev/null 2>&1 || skip "debhelper missing (apt-get install debhelper)"
if dpkg-query -W -f='${Status}' ppslab 2>/dev/null | grep -q "install ok installed"; then
	skip "a ppslab package is already installed here; not replacing it"
fi

ver=$(sed -nE 's/^#define PPSLAB_VERSION "([^"]+)"/\1/p' "$TOP/lib/version.h")
arch=$(dpkg --print-architecture)
deb=$TOP/build/deb/ppslab_${ver}_$arch.deb
rm -f "$deb"
if env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -C "$TOP" deb >"$T/build" 2>&1 && [ -f "$deb" ]; then
	ok "make deb built build/deb/${deb##*/}"
else
	no "make deb builds build/deb/${deb##*/}" "$(tail -n 8 "$T/build" | tr '\n' '|')"
	echo "1..$n"; exit 1
fi
[ "$(dpkg-parsechangelog -l "$TOP/debian/changelog" -S Version)" = "$ver" ] &&
	ok "debian/changelog's version is lib/version.h's ($ver)" ||
	no "debian/changelog's version is lib/version.h's ($ver)"

dep=$(dpkg-deb -f "$deb" Depends)
rec=$(dpkg-deb -f "$deb" Recommends)
miss=""
for d in libpcap0.8 libnet1 libjansson4 iproute2; do
	case ", $dep" in *", $d "* | *", $d,"* | *", $d") ;; *) miss="$miss $d" ;; esac
done
[ -z "$miss" ] && ok "Depends: libpcap, libnet, jansson, iproute2" || no "Depends has libpcap, libnet, jansson, iproute2" "missing:$miss" "Depends: $dep"
case "$rec" in *gnuplot-nox*) ok "Recommends: gnuplot-nox" ;; *) no "Recommends gnuplot-nox" "Recommends: $rec" ;; esac

dpkg-deb -c "$deb" | awk '{ print $6 }' | sed 's|^\./|/|' >"$T/files"
miss=""
for f in /usr/bin/ppslab /usr/bin/ppslab-gen /usr/bin/ppslab-sink /usr/bin/ppslab-rut \
	/usr/share/man/man1/ppslab.1.gz /usr/share/man/man1/ppslab-gen.1.gz \
	/usr/share/man/man1/ppslab-sink.1.gz /usr/share/man/man1/ppslab-rut.1.gz \
	/usr/share/bash-completion/completions/ppslab /usr/share/bash-completion/completions/ppslab-gen \
	/usr/share/doc/ppslab/copyright; do
	grep -qx "$f" "$T/files" || miss="$miss $f"
done
for r in "$TOP"/profiles/rules/*.rules; do
	[ -e "$r" ] && { grep -qx "/usr/share/ppslab/profiles/rules/${r##*/}" "$T/files" || miss="$miss ${r##*/}"; }
done
[ -z "$miss" ] && ok "the package holds programs, man pages, completion, rule sets" || no "the package holds everything" "missing:$miss"

if dpkg -i "$deb" >"$T/inst" 2>&1; then
	installed=1
	ok "dpkg -i installs it"
else
	installed=1   # half-installed: purge it anyway
	no "dpkg -i installs it" "$(tail -n 8 "$T/inst" | tr '\n' '|')"
fi
out=$(/usr/bin/ppslab-gen --help 2>&1); rc=$?
[ "$rc" = 0 ] && [[ $out == "usage: ppslab-gen "* ]] && ok "/usr/bin/ppslab-gen --help runs" ||
	no "/usr/bin/ppslab-gen --help runs" "status $rc: $(echo "$out" | head -n 3)"
rev=$(git -C "$TOP" describe --always 2>/dev/null)
out=$(/usr/bin/ppslab --version 2>&1)
if [ -n "$rev" ]; then
	[[ $out == "ppslab $ver (git $rev"* ]] && ok "/usr/bin/ppslab --version names the revision: $out" ||
		no "/usr/bin/ppslab --version names the revision $rev" "$out"
fi
grep -q /usr/share/ppslab /usr/bin/ppslab && ok "the packaged ppslab knows /usr/share/ppslab" ||
	no "the packaged ppslab knows /usr/share/ppslab"
[ "$(man -w ppslab-rut 2>/dev/null)" = /usr/share/man/man1/ppslab-rut.1.gz ] && ok "man -w ppslab-rut finds the page" ||
	no "man -w ppslab-rut finds the page" "$(man -w ppslab-rut 2>&1)"

dpkg --purge ppslab >"$T/purge" 2>&1 && installed=0
left=""
for f in /usr/bin/ppslab-gen /usr/share/man/man1/ppslab.1.gz /usr/share/ppslab; do [ -e "$f" ] && left="$left $f"; done
[ "$installed" = 0 ] && [ -z "$left" ] && ok "dpkg --purge removes it" || no "dpkg --purge removes it" "left:$left" "$(tail -n 3 "$T/purge")"
echo "1..$n"
