# SPDX-License-Identifier: BSD-2-Clause
# docopts.sh — do the docs name only options the programs have? (sourced by CLI tests)
#
# The option reference is each program's --help and man page (t_man.sh checks those
# agree); the pages under docs/ describe behaviour and name options in passing. This
# finds every long option written in a page's code (`...` spans and indented or fenced
# code lines), works out which program it belongs to, and checks that program's --help
# defines it, so a renamed or removed option cannot linger in the docs.
#
# Which program: the nearest program name before the option on the same code span or
# line (ppslab-gen, ppslab-sink, ppslab-rut, or ppslab and its command, as in
# `ppslab lab up --queues 2`); else the program of the nearest heading above that names
# one ("## ppslab table"); else DEFAULT. An option with none of these is reported too.

# doc_opt_refs FILE [DEFAULT]: "LINE<TAB>PROGRAM<TAB>--option" for each option written
doc_opt_refs() {
	awk -v def="${2:-}" '
	function prog_of(tok,   b) {
		b = tok; sub(/.*\//, "", b); gsub(/[^a-z-]/, "", b)
		if (b == "ppslab-gen" || b == "ppslab-sink" || b == "ppslab-rut" || b == "ppslab") return b
		return ""
	}
	function is_cmd(w) { return w ~ /^(lab|run|table|plot|compare|trend|report|env)$/ }
	# the options in text s, with program p unless the text names one
	function scan(s, p,   n, w, i, j, b, o) {
		n = split(s, w, /[ \t]+/)
		for (i = 1; i <= n; i++) {
			b = prog_of(w[i])
			if (b != "" && w[i] !~ /^--/) {
				p = b
				if (b == "ppslab")
					for (j = i + 1; j <= n; j++) {
						if (w[j] ~ /^-/) continue
						if (is_cmd(w[j])) { p = "ppslab " w[j]; i = j }
						break
					}
				continue
			}
			if (w[i] ~ /^--[a-z][a-z0-9-]*/) {
				o = w[i]; sub(/^--/, "", o); sub(/[^a-z0-9-].*$/, "", o); sub(/-+$/, "", o)
				print NR "\t" (p == "" ? "?" : p) "\t--" o
			}
		}
	}
	BEGIN { cur = def }
	/^```/ { fence = !fence; next }
	fence || /^    / { scan($0, cur); next }
	/^#+ / {
		h = $0; gsub(/`/, "", h); n = split(h, w, /[ :,()]+/)
		for (i = 2; i <= n; i++) if ((b = prog_of(w[i])) != "") {
			cur = b
			if (b == "ppslab" && is_cmd(w[i + 1])) cur = "ppslab " w[i + 1]
			break
		}
		next
	}
	{
		s = $0
		while (match(s, /`[^`]+`/)) {
			scan(substr(s, RSTART + 1, RLENGTH - 2), cur)
			s = substr(s, RSTART + RLENGTH)
		}
	}' "$1"
}

# The long options PROGRAM's --help defines, one a line ("ppslab table" runs the command).
doc_help_opts() {
	# shellcheck disable=SC2086
	"${PPSLAB_BIN:?}/${1%% *}" ${1#"${1%% *}"} --help 2>/dev/null |
		sed -nE 's/^ +(-[A-Za-z0-9], )?(--[a-z0-9][a-z0-9-]*).*/\2/p'
}

# doc_opts_check FILE [DEFAULT]: prints "FILE:LINE: PROGRAM has no option --x" for each
# option no program defines; returns 1 if there is any, 0 otherwise.
doc_opts_check() {
	local f=$1 line prog opt bad=0 d
	d=$(mktemp -d /tmp/ppslab-docopts.XXXXXX)
	while IFS=$'\t' read -r line prog opt; do
		if [ "$prog" = "?" ]; then
			echo "${f#"${PPSLAB_TOP:-}/"}:$line: $opt: no program named before it"
			bad=1
			continue
		fi
		local k=${prog// /_}
		[ -f "$d/$k" ] || doc_help_opts "$prog" >"$d/$k"
		if ! grep -qxF -- "$opt" "$d/$k"; then
			echo "${f#"${PPSLAB_TOP:-}/"}:$line: $prog has no option $opt"
			bad=1
		fi
	done < <(doc_opt_refs "$f" "${2:-}")
	rm -rf "$d"
	return $bad
}
