#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_install.sh — make install and make uninstall into a staging directory (no root):
# `make install DESTDIR=T PREFIX=/usr` puts exactly the programs, man pages, profiles,
# rule sets and bash completion in place, the installed programs run and know their
# share directory, and `make uninstall` with the same variables leaves no file.
# Uses the build directory of the run (B=), so only version.o is rebuilt (for the
# PREFIX) and it is rebuilt back at the end.
set -u
TOP=${PPSLAB_TOP:?}
BUILD=${PPSLAB_BUILD:?}
T=$(mktemp -d /tmp/ppslab-t_install.XXXXXX)
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
no() { n=$((n + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do echo "#   $l"; done; }
# The build flavour of the directory tests/run was given.
flav=()
case $BUILD in *-san) flav=(SAN=1) ;; *-portable) flav=(PORTABLE=1) ;; esac
mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -C "$TOP" B="$BUILD" "${flav[@]}" "$@"; }
cleanup() { mk all >/dev/null 2>&1; rm -rf "$T"; }
trap cleanup EXIT

D=$T/root
if mk install DESTDIR="$D" PREFIX=/usr >"$T/log" 2>&1; then
	ok "make install DESTDIR=... PREFIX=/usr"
else
	no "make install DESTDIR=... PREFIX=/usr" "$(tail -n 5 "$T/log")"
fi
# What should be there, from the source tree.
{
	for p in ppslab ppslab-gen ppslab-sink ppslab-rut; do
		echo "usr/bin/$p"
		echo "usr/share/bash-completion/completions/$p"
	done
	for f in "$TOP"/man/*.1; do echo "usr/share/man/man1/${f##*/}"; done
	for f in "$TOP"/profiles/*.json; do [ -e "$f" ] && echo "usr/share/ppslab/profiles/${f##*/}"; done
	for f in "$TOP"/profiles/rules/*.rules; do [ -e "$f" ] && echo "usr/share/ppslab/profiles/rules/${f##*/}"; done
	for f in "$TOP"/profiles/hooks/*; do [ -e "$f" ] && echo "usr/share/ppslab/profiles/hooks/${f##*/}"; done
} | sort >"$T/want"
(cd "$D" 2>/dev/null && find . \( -type f -o -type l \) | sed 's|^\./||' | sort) >"$T/got"
if cmp -s "$T/want" "$T/got"; then
	ok "every file in place, nothing else ($(wc -l <"$T/got") files)"
else
	no "every file in place, nothing else" "$(diff "$T/want" "$T/got" | grep '^[<>]' | head -n 10 | tr '\n' ';')"
fi
for p in ppslab ppslab-gen ppslab-sink ppslab-rut; do
	f=$D/usr/bin/$p
	if [ -x "$f" ] && out=$("$f" --version 2>&1) && [[ $out == "$p "[0-9]*" (git "* ]]; then
		ok "installed $p --version: $out"
	else
		no "installed $p --version runs" "${out:-not executable}"
	fi
done
grep -q "/usr/share/ppslab" "$D/usr/bin/ppslab" &&
	ok "the installed ppslab knows its share directory /usr/share/ppslab" ||
	no "the installed ppslab knows its share directory /usr/share/ppslab"
c=$D/usr/share/bash-completion/completions
if grep -q '^_ppslab_share_dir=/usr/share/ppslab$' "$c/ppslab" && [ "$(readlink "$c/ppslab-gen")" = ppslab ] &&
	bash -c ". '$c/ppslab' && complete -p ppslab-rut" >/dev/null 2>&1; then
	ok "the installed completion has the share directory and registers the programs"
else
	no "the installed completion has the share directory and registers the programs" "$(grep -n share_dir= "$c/ppslab")"
fi
cmp -s "$D/usr/share/man/man1/ppslab.1" "$TOP/man/ppslab.1" && ok "man page installed as is" || no "man page installed as is"
[ "$(stat -c %a "$D/usr/share/man/man1/ppslab.1")" = 644 ] && [ "$(stat -c %a "$D/usr/bin/ppslab")" = 755 ] &&
	ok "modes 0644 and 0755" || no "modes 0644 and 0755"

: >"$D/usr/bin/someone-else"   # not ours: uninstall must leave it
if mk uninstall DESTDIR="$D" PREFIX=/usr >"$T/log" 2>&1; then
	ok "make uninstall DESTDIR=... PREFIX=/usr"
else
	no "make uninstall DESTDIR=... PREFIX=/usr" "$(tail -n 5 "$T/log")"
fi
left=$(cd "$D" && find . \( -type f -o -type l \) | sed 's|^\./||' | sort | tr '\n' ' ')
[ "$left" = "usr/bin/someone-else " ] && ok "uninstall removed exactly what install put there" ||
	no "uninstall removed exactly what install put there" "left: $left"
[ ! -e "$D/usr/share/ppslab" ] && ok "uninstall removed the empty share directory" ||
	no "uninstall removed the empty share directory"
echo "1..$n"
