#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_docs.sh — the README and the docs as a newcomer meets them (no root): README.md is
# at most 300 lines and opens with the two commands CI and newcomers type first
# (`sudo make demo`, then `make check`); every relative link of README.md, HACKING.md,
# LAB.md and docs/ leads to a file of the tree, and a link's #anchor to a heading of
# its page; no page pastes a --help (the option reference is --help and the man pages,
# which t_man.sh compares); LICENSE and debian/copyright say BSD-2-Clause.
set -u
TOP=${PPSLAB_TOP:?}
T=$(mktemp -d /tmp/ppslab-t_docs.XXXXXX)
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1

# ---- the README's shape ------------------------------------------------------------------
lines=$(wc -l <README.md)
check "README.md is at most 300 lines ($lines)" $((lines > 300))
head -n 1 README.md | grep -q '^# ppslab'
check "README.md starts with its title" $?
# the first two indented lines of the first ten: the commands, each with what it does
cmds=$(head -n 10 README.md | grep -E '^    [^ ]' | head -n 2)
first=$(echo "$cmds" | sed -n 1p)
second=$(echo "$cmds" | sed -n 2p)
echo "$first" | grep -qE '^    sudo make demo +# [a-z]'
check "README's first command is 'sudo make demo', explained" $? "got: $first"
echo "$second" | grep -qE '^    make check +# [a-z]'
check "README's second command is 'make check', explained" $? "got: $second"

# ---- links ---------------------------------------------------------------------------------
docs=(README.md HACKING.md LAB.md docs/*.md docs/examples/README.md)

# GitHub's anchors of a page's headings: lower case, ASCII punctuation but - and _
# dropped, spaces to -, "-1", "-2" ... after repeats.
anchors() {
	awk '/^```/ { f = !f; next } !f && /^#+ / {
		s = $0; sub(/^#+ +/, "", s); s = tolower(s)
		gsub(/[][!"#$%&'"'"'()*+,.\/:;<=>?@\\^`{|}~]/, "", s); gsub(/ /, "-", s)
		if (s in seen) { seen[s]++; s = s "-" seen[s] } else seen[s] = 0
		print s }' "$1"
}
# Every [text](target) of a page outside code, one "LINE TARGET" a line.
links() {
	awk '/^```/ { f = !f; next } f || /^    / { next } {
		s = $0; gsub(/`[^`]*`/, "", s)
		while (match(s, /\]\([^)]+\)/)) {
			print NR " " substr(s, RSTART + 2, RLENGTH - 3); s = substr(s, RSTART + RLENGTH) }
	}' "$1"
}
bad=() nlinks=0
for d in "${docs[@]}"; do
	[ -f "$d" ] || continue
	dir=$(dirname "$d")
	while read -r ln target; do
		case "$target" in http://* | https://* | mailto:*) continue ;; esac
		nlinks=$((nlinks + 1))
		path=${target%%#*} anchor=""
		case "$target" in *'#'*) anchor=${target#*#} ;; esac
		if [ -z "$path" ]; then file=$d; else file=$(realpath -m --relative-to=. "$dir/$path"); fi
		if [ ! -e "$file" ]; then
			bad+=("$d:$ln: $target: no such file")
			continue
		fi
		if [ -n "$anchor" ] && [ "${file##*.}" = md ] && ! anchors "$file" | grep -qxF -- "$anchor"; then
			bad+=("$d:$ln: $target: no heading '#$anchor' in $file")
		fi
	done < <(links "$d")
done
check "every relative link of README, HACKING, LAB and docs/ resolves ($nlinks links)" \
	"${#bad[@]}" "${bad[@]:0:20}"

# ---- no pasted --help --------------------------------------------------------------------
mapfile -t pasted < <(grep -nE '^ *usage: ppslab' README.md HACKING.md docs/*.md)
check "no page pastes a program's --help (the man pages are the reference)" \
	"${#pasted[@]}" "${pasted[@]:0:10}"

# ---- license -------------------------------------------------------------------------------
grep -q '^BSD 2-Clause License' LICENSE && grep -q 'Redistributions in binary form' LICENSE
check "LICENSE is the BSD 2-Clause text" $?
grep -q '^License: BSD-2-Clause$' debian/copyright && ! grep -q 'none-chosen' debian/copyright
check "debian/copyright says BSD-2-Clause" $?
echo "1..$n"
