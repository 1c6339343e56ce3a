#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_refs.sh — every reference to a file of the repository names one that exists, and
# every FILE.md#anchor names a heading of that file (no root).
#
# A reference is a path relative to the top of the repository whose first component
# is one of its top-level files or directories (docs/glossary.md, tests/cli/,
# rut/devpoll.c, rut/fw/fw*.c), a Markdown link target
# (relative to the file that holds it), or a FILE.md#anchor. Not references: paths on
# a user's machine (/boot/loader.conf, /sys/class/net/IF), build outputs, A/B prose
# ("gen/sink"), placeholders (profiles/NAME.json, a user's profiles/my-lab.json) and
# names a test means not to exist (no-such-profile.json). Material kept beside the
# checkout (a "spec" directory, the shared directory one level up) is never a valid
# reference: the project stands on its own. Anchors are GitHub's heading slugs:
# lowercase, spaces to '-', all but ASCII letters, digits, '_' and '-' dropped (so
# keep anchored headings ASCII), "-1", "-2" ... for repeated headings.
#
# The scanner first runs on a planted tree — each kind of bad reference must be
# reported with its FILE:LINE, the good ones must pass — then on the repository: the
# files git knows (tracked or new), or every file when there is no .git (a copy, such
# as the package build's).
set -u
TOP=${PPSLAB_TOP:?}
T=$(mktemp -d /tmp/ppslab-t_refs.XXXXXX)
trap 'rm -rf "$T"' EXIT
. "$TOP/tests/cli/lib.sh"

# The background material's names, spelled so that this file does not cite them.
BG_DIR=spec
BG_UP="../""shared"
BG_ABS=/work/shared

# Components that stand for a name the reader supplies, or that are meant not to exist.
placeholder_re='(^|[_.-])(NAME|FILE|PATH|DIR|IF|PORT|N|X|PROFILE|BACKEND|TOOL|ARCH|VERSION|KIND)([_.-]|$)|^(my|no-?such|missing|nonexistent|none)([_.-]|$)'

# files ROOT: the text files to scan, relative to ROOT, one a line.
files() {
	local root=$1
	if [ -e "$root/.git" ] && git -C "$root" rev-parse --git-dir >/dev/null 2>&1; then
		git -C "$root" ls-files --cached --others --exclude-standard
	else
		(cd "$root" && find . \( -name .git -o \( -type d \( -name 'build*' -o -name demo-out \) \) \) -prune \
			-o -type f -print | sed 's|^\./||')
	fi | (cd "$root" && xargs -r -d '\n' env LC_ALL=C grep -lI . -- 2>/dev/null) | LC_ALL=C sort
}

# slugs FILE: the anchors of a Markdown file's headings (outside code fences).
slugs() {
	LC_ALL=C awk '
		/^ ? ? ?(```|~~~)/ { fence = !fence; next }
		fence { next }
		/^#+[ \t]/ && match($0, /^#+/) && RLENGTH <= 6 {
			h = $0
			sub(/^#+[ \t]+/, "", h); sub(/[ \t]+#+[ \t]*$/, "", h); sub(/[ \t]+$/, "", h)
			h = tolower(h)
			s = ""
			for (i = 1; i <= length(h); i++) {
				c = substr(h, i, 1)
				if (c ~ /[a-z0-9_-]/) s = s c
				else if (c == " ") s = s "-"
			}
			if (s in seen) { seen[s]++; print s "-" seen[s] } else { seen[s] = 0; print s }
		}' "$1"
}

# normpath P: P with ./ and x/../ resolved; "" when it climbs above the top.
normpath() {
	local parts=() out=() part
	IFS=/ read -ra parts <<<"$1"
	for part in "${parts[@]}"; do
		case "$part" in
		'' | .) ;;
		..) [ ${#out[@]} -eq 0 ] && { echo ""; return; }; unset 'out[${#out[@]}-1]' ;;
		*) out+=("$part") ;;
		esac
	done
	(IFS=/; echo "${out[*]}")
}

# scan ROOT: prints "FILE:LINE: REF: why" for every reference that does not resolve.
scan() {
	local root=$1 f ln how ref path anchor dir first base c skip sf
	local -A top=() slugfile=()
	local -a comps
	# this file's planted references are its fixtures, not citations
	files "$root" | grep -vxF tests/cli/t_refs.sh >"$T/files"
	while IFS= read -r f; do top[${f%%/*}]=1; done <"$T/files"
	top[$BG_DIR]=1
	# Every candidate as "FILE LINE KIND TEXT", from one grep per kind over all files
	# (a file name holds no ':' or space).
	(
		cd "$root" || exit
		# plain mentions; the character before a path is a boundary (a space, a quote,
		# a bracket ...), never a '/', '$' or a letter
		xargs -d '\n' -a "$T/files" env LC_ALL=C grep -HnoE \
			'(^|[][:space:](<`"'"'"'=,;:|{}])(((\.\./)+[A-Za-z0-9_.+*-]+(/[A-Za-z0-9_.+*-]*)*|[A-Za-z0-9_][A-Za-z0-9_.+*-]*(/[A-Za-z0-9_.+*-]*)+)(#[A-Za-z0-9_-]+)?|[A-Za-z0-9_][A-Za-z0-9_.+-]*\.md#[A-Za-z0-9_-]+)' |
			LC_ALL=C sed -E 's/^([^:]+):([0-9]+):[][:space:](<`"'"'"'=,;:|{}]?/\1 \2 p /'
		# Markdown link targets, relative to the file
		grep '\.md$' "$T/files" | xargs -r -d '\n' env LC_ALL=C grep -HnoE '\]\([^)[:space:]]+\)' |
			LC_ALL=C sed -E 's/^([^:]+):([0-9]+):\]\((.*)\)$/\1 \2 l \3/'
		xargs -d '\n' -a "$T/files" env LC_ALL=C grep -HnoF "$BG_ABS" |
			LC_ALL=C sed -E 's/^([^:]+):([0-9]+):/\1 \2 x /'
		# a section of the background material cited by its number
		xargs -d '\n' -a "$T/files" env LC_ALL=C grep -HnoE \
			"\\b$BG_DIR('s)? (§ ?[0-9]|Part [A-D]|[A-D]\\.[0-9]|section [0-9])[.0-9]*" |
			LC_ALL=C sed -E 's/^([^:]+):([0-9]+):/\1 \2 s /; s/ /_/4g'
	) >"$T/cand"
	{
		while read -r f ln how ref; do
			dir=${f%/*}
			[ "$dir" = "$f" ] && dir=.
			case "$how" in
			x) echo "$f:$ln: $ref: background material outside the repository"; continue ;;
			s) echo "$f:$ln: ${ref//_/ }: a section of background material outside the repository"
				continue ;;
			l) case "$ref" in *://* | mailto:* | /*) continue ;; esac ;;
			p) case "$ref" in */* | *.md#*) ;; *) continue ;; esac ;;
			esac
			while [ "${ref%[.,:;]}" != "$ref" ]; do ref=${ref%[.,:;]}; done
			path=${ref%%#*}
			anchor=""
			[ "$path" != "$ref" ] && anchor=${ref#*#}
			case "$ref" in "$BG_UP" | "$BG_UP"/* | */"$BG_UP" | */"$BG_UP"/*)
				echo "$f:$ln: $ref: background material outside the repository"; continue ;;
			esac
			# relative to the file (links, ../x, a bare FILE.md#anchor) or to the top
			if [ "$how" = l ] || [ "${path#../}" != "$path" ] ||
				{ [ -n "$anchor" ] && [ "${path#*/}" = "$path" ]; }; then
				if [ -z "$path" ]; then
					base=$f
				else
					base=$(normpath "$dir/$path")
					if [ -z "$base" ]; then
						echo "$f:$ln: $ref: outside the repository"
						continue
					fi
				fi
			else
				first=${path%%/*}
				[ -n "${top[$first]:-}" ] || continue
				if [ "$first" = "$BG_DIR" ]; then
					echo "$f:$ln: $ref: background material outside the repository"
					continue
				fi
				base=$path
				case "$base" in */./* | */../* | ./*) base=$(normpath "$base") ;; esac
				# A/B prose: two top-level directory names ("gen/sink")
				c=${base#*/}
				[ -n "$c" ] && [ "$c" != "$base" ] && [ "${c%/*}" = "$c" ] && [ -n "${top[$c]:-}" ] &&
					[ -d "$root/$c" ] && [ "${c%.*}" = "$c" ] && continue
			fi
			skip=0
			IFS=/ read -ra comps <<<"$base"
			for c in "${comps[@]}"; do
				[[ $c =~ $placeholder_re ]] && skip=1
			done
			[ $skip = 1 ] && continue
			if [[ $base == *[*+]* ]]; then
				compgen -G "$root/$base" >/dev/null || echo "$f:$ln: $ref: no file matches"
				continue
			fi
			# an extensionless name may be the program built from NAME.c or NAME.sh
			if [ ! -e "$root/$base" ] && [ ! -e "$root/$base.c" ] && [ ! -e "$root/$base.sh" ]; then
				echo "$f:$ln: $ref: no such file in the repository"
				continue
			fi
			[ -n "$anchor" ] || continue
			case "$base" in *.md) ;; *) continue ;; esac
			sf=${slugfile[$base]:-}
			if [ -z "$sf" ]; then
				sf="$T/slugs.${#slugfile[@]}"
				slugs "$root/$base" >"$sf"
				slugfile[$base]=$sf
			fi
			grep -qxF -- "$anchor" "$sf" ||
				echo "$f:$ln: $ref: no heading with anchor '#$anchor' in $base"
		done <"$T/cand"
	} | LC_ALL=C sort -u -t: -k1,1 -k2,2n -k3
}

# ---- the scanner on a planted tree ----------------------------------------------------
P=$T/plant
mkdir -p "$P/docs/design" "$P/src" "$P/tests"
cat >"$P/docs/design/polling.md" <<'EOF'
# Polling
## The round, step by step
## Test vectors
### P1 (the ceiling)
## Test vectors
See [the round](#the-round-step-by-step), [glossary](../glossary.md#trial) and
[the top](../../README.md).
Bad: [gone](../gone.md), [anchor](#no-such-heading), [up](../../../x.md).
EOF
cat >"$P/docs/glossary.md" <<'EOF'
# Glossary
## Trial
EOF
printf '# Readme\n' >"$P/README.md"
cat >"$P/src/a.c" <<EOF
/* follows docs/design/polling.md#the-round-step-by-step and #test-vectors-1;
 * src/a.c, src/*.c, docs/design/ and /boot/loader.conf, /sys/class/net/IF, build/x.o,
 * profiles/NAME.json, gen/src prose, \$T/docs/x.md and "\$d"/docs/y.md are fine */
/* bad: $BG_DIR/polling-and-ipfw.md D.1, and the $BG_DIR's A.4 */
/* bad: see $BG_UP/seeds and $BG_ABS/spec; and $BG_UP, too */
/* bad: docs/design/polling.md#d1 and docs/design/ipfw.md */
/* bad: src/nothing*.c, docs/design/polling.md#test-vectors-2 */
EOF
mkdir -p "$P/gen"
printf 'x\n' >"$P/gen/x"
scan "$P" >"$T/planted"
want() {   # want DESC FILE:LINE: REF
	if grep -qF -- "$2" "$T/planted"; then ok "$1"; else no "$1" "not reported: $2" "$(cat "$T/planted")"; fi
}
want "planted: a citation of the spec directory, with FILE:LINE" "src/a.c:4: $BG_DIR/polling-and-ipfw.md:"
want "planted: a section cited by its number" "src/a.c:4: $BG_DIR's A.4: a section"
want "planted: the shared directory one level up" "src/a.c:5: $BG_UP/seeds:"
want "planted: the shared directory itself" "src/a.c:5: $BG_UP:"
want "planted: the shared directory by its absolute path" "src/a.c:5: $BG_ABS:"
want "planted: an anchor that is no heading" "src/a.c:6: docs/design/polling.md#d1:"
want "planted: a repository path that does not exist" "src/a.c:6: docs/design/ipfw.md:"
want "planted: a glob that matches nothing" "src/a.c:7: src/nothing*.c:"
want "planted: a repeated heading's third anchor" "src/a.c:7: docs/design/polling.md#test-vectors-2:"
want "planted: a Markdown link to a missing file" "docs/design/polling.md:8: ../gone.md:"
want "planted: a Markdown link to a missing own heading" "docs/design/polling.md:8: #no-such-heading:"
want "planted: a Markdown link above the repository" "docs/design/polling.md:8: ../../../x.md: outside"
if [ "$(wc -l <"$T/planted")" -eq 12 ]; then
	ok "planted: the good references pass (12 reports, no more)"
else
	no "planted: the good references pass (12 reports, no more)" "$(cat "$T/planted")"
fi
rm -rf "$P/.git"
if command -v git >/dev/null 2>&1 && git -C "$P" init -q 2>/dev/null && git -C "$P" add -A 2>/dev/null; then
	scan "$P" >"$T/planted-git"
	if cmp -s "$T/planted" "$T/planted-git"; then
		ok "planted: the same reports from git's file list as from find"
	else
		no "planted: the same reports from git's file list as from find" "$(diff "$T/planted" "$T/planted-git")"
	fi
else
	skip "planted: the same reports from git's file list" "git cannot make a repository here"
fi

# ---- the repository -------------------------------------------------------------------
scan "$TOP" >"$T/found"
if [ ! -s "$T/found" ]; then
	ok "every reference in the repository names a file (and heading) that exists"
else
	mapfile -t lines <"$T/found"
	no "every reference in the repository names a file (and heading) that exists" "${lines[@]}"
fi
echo "1..$n"
