# SPDX-License-Identifier: BSD-2-Clause
# ppslab.bash — bash completion for ppslab, ppslab-gen, ppslab-sink and ppslab-rut.
#
# Options are read from each program's own --help when completing, so they never go
# stale: `ppslab --help` lists the commands, `ppslab COMMAND --help` and `ppslab-gen
# --help` the options. Values: interface names (/sys/class/net, or ifconfig -l on the
# BSDs) after the port options, optionally as BACKEND:IF; files after the options that
# take one; profile names (profiles/*.json here and in the installed share directory)
# after `ppslab run`, axis names after its --set (from the hidden `ppslab --list-axes`,
# the registry's); the fixed words of `ppslab trend`'s --order, --fail-on, --format
# and the usual --label keys. `make install` puts this file in
# PREFIX/share/bash-completion/completions as ppslab (ppslab-gen, ppslab-sink and
# ppslab-rut link to it) and fills in the share directory below.

_ppslab_share_dir=@PPSLAB_SHARE_DIR@

# Long options that PROGRAM [COMMAND] --help defines.
_ppslab_opts()
{
	"$@" --help 2>/dev/null |
		sed -nE 's/^ +(-[A-Za-z0-9], )?(--[a-z0-9][a-z0-9-]*).*/\2/p'
}

# The commands `ppslab --help` lists.
_ppslab_cmds()
{
	"$1" --help 2>/dev/null |
		awk '/^commands:/ { on = 1; next } on && /^$/ { exit } on { print $1 }'
}

_ppslab_ifaces()
{
	if [ -d /sys/class/net ]; then
		command ls /sys/class/net 2>/dev/null
	elif command -v ifconfig >/dev/null 2>&1; then
		ifconfig -l 2>/dev/null | tr ' ' '\n'
	fi
}

# Profile names: profiles/*.json in the current directory and in the share directory.
_ppslab_profiles()
{
	local d f dirs=(profiles)
	case $_ppslab_share_dir in @*) dirs+=(/usr/local/share/ppslab/profiles /usr/share/ppslab/profiles) ;;
	*) dirs+=("$_ppslab_share_dir/profiles") ;; esac
	for d in "${dirs[@]}"; do
		for f in "$d"/*.json; do
			[ -e "$f" ] || continue
			f=${f##*/}
			echo "${f%.json}"
		done
	done
}

# Sets COMPREPLY to the words of LIST (newline separated) that start with CUR.
_ppslab_words()   # LIST CUR
{
	local IFS=$'\n'
	COMPREPLY=($(compgen -W "$1" -- "$2"))
}

_ppslab_files()   # CUR
{
	local IFS=$'\n'
	compopt -o filenames 2>/dev/null
	COMPREPLY=($(compgen -f -- "$1"))
}

# An interface, or BACKEND:IF. With ':' in COMP_WORDBREAKS (bash's default) the words
# arrive as BACKEND ":" IF; without it as one word "BACKEND:IF".
_ppslab_port()   # CUR
{
	local cur=$1 ifs
	ifs=$(_ppslab_ifaces)
	case $cur in
	*:*) _ppslab_words "$(printf '%s\n' $ifs | sed "s|^|${cur%%:*}:|")" "$cur" ;;
	*) _ppslab_words "$ifs"$'\n'"afpacket:"$'\n'"pcap:"$'\n'"libnet:"$'\n'"xdp:"$'\n'"udp:" "$cur"
	   [ ${#COMPREPLY[@]} -gt 0 ] && [[ ${COMPREPLY[0]} == *: ]] && compopt -o nospace 2>/dev/null ;;
	esac
}

_ppslab_complete()
{
	local prog=${COMP_WORDS[0]} cword=$COMP_CWORD
	local cur=${COMP_WORDS[cword]} prev=${COMP_WORDS[cword-1]:-}
	local cmd="" i w pre=""
	COMPREPLY=()

	# BACKEND:IF split at the colon: "-i" "pcap" ":" "et" (or "-i" "pcap" ":"). The
	# words before the current one (pre) are put together with it, and taken off the
	# replies again at the end, since bash replaces only the current word.
	if [ "$cur" = ":" ] && [ $cword -ge 2 ]; then
		pre=${COMP_WORDS[cword-1]}; cur="$pre:"; cword=$((cword - 1))
		prev=${COMP_WORDS[cword-1]:-}
	elif [ "$prev" = ":" ] && [ $cword -ge 3 ]; then
		pre="${COMP_WORDS[cword-2]}:"; cur="$pre$cur"; cword=$((cword - 2))
		prev=${COMP_WORDS[cword-1]:-}
	fi
	_ppslab_complete1 "$prog" "$cword" "$cur" "$prev"
	if [ -n "$pre" ]; then
		for i in "${!COMPREPLY[@]}"; do COMPREPLY[i]=${COMPREPLY[i]#"$pre"}; done
	fi
	return 0
}

_ppslab_complete1()   # PROG CWORD CUR PREV
{
	local prog=$1 cword=$2 cur=$3 prev=$4 cmd="" i w
	local base=${prog##*/}

	if [ "$base" = ppslab ]; then
		# The command is the first word that is not a global option.
		for ((i = 1; i < cword; i++)); do
			w=${COMP_WORDS[i]}
			case $w in -*) ;; *) cmd=$w; break ;; esac
		done
		if [ -z "$cmd" ]; then
			case $cur in
			-*) _ppslab_words "$(_ppslab_opts "$prog")" "$cur" ;;
			*) _ppslab_words "$(_ppslab_cmds "$prog")" "$cur" ;;
			esac
			return 0
		fi
	fi

	case "$base${cmd:+ $cmd}:$prev" in
	ppslab-gen:-i | ppslab-gen:--iface | ppslab-sink:-i | ppslab-sink:--iface | \
	ppslab-rut:-i | ppslab-rut:--in | ppslab-rut:-o | ppslab-rut:--out)
		_ppslab_port "$cur"; return 0 ;;
	ppslab-rut:-f | ppslab-rut:--rules | ppslab-rut:--check-rules | ppslab-rut:--routes | \
	ppslab-gen:--replay | ppslab-sink:-E | ppslab-sink:--expect-from | \
	"ppslab compare:-o" | "ppslab compare:--output" | \
	"ppslab report:--compare" | "ppslab run:-o" | "ppslab run:--output")
		_ppslab_files "$cur"; return 0 ;;
	"ppslab report:-o" | "ppslab report:--output")
		compopt -o dirnames 2>/dev/null; COMPREPLY=($(compgen -d -- "$cur")); return 0 ;;
	ppslab-rut:--kernel)   # the names its --help gives (lib/pollkern.c's, the kernel axis')
		_ppslab_words "$("$prog" --help 2>/dev/null | sed -nE 's/^ +--kernel NAME +[^:]*: //p' |
			sed -E 's/ \(default\)//g; s/,? or /, /g; s/, /\n/g')" "$cur"; return 0 ;;
	ppslab-rut:--range-policy)
		_ppslab_words $'einval\nclamp\nround' "$cur"; return 0 ;;
	"ppslab trend:--order")
		_ppslab_words $'label\ngiven' "$cur"; return 0 ;;
	"ppslab trend:--fail-on")
		_ppslab_words $'regression\nprogression\nmissing' "$cur"; return 0 ;;
	"ppslab trend:-f" | "ppslab trend:--format")
		_ppslab_words $'text\nmd\ncsv' "$cur"; return 0 ;;
	"ppslab trend:-l" | "ppslab trend:--label")
		_ppslab_words $'created\nfile\nrun_id\nenvironment.dut.os.version\nenvironment.dut.os.kernel\nprofile.description' "$cur"
		return 0 ;;
	"ppslab lab:--ns")
		_ppslab_words $'gen\nrut\nsink' "$cur"; return 0 ;;
	"ppslab lab:"*)
		case $cur in -*) ;; *)
			_ppslab_words $'up\ndown\nstatus\nshield\non\noff' "$cur"; return 0 ;; esac ;;
	"ppslab run:-s" | "ppslab run:--set")   # an axis (ppslab --list-axes: lib/axes.c's)
		case $cur in *=*) return 0 ;; esac
		_ppslab_words "$("$prog" --list-axes 2>/dev/null | sed 's/$/=/')" "$cur"
		compopt -o nospace 2>/dev/null; return 0 ;;
	"ppslab run:"*)
		case $cur in -*) ;; *)
			_ppslab_words "$(_ppslab_profiles)" "$cur"
			local IFS=$'\n'
			COMPREPLY+=($(compgen -f -X '!*.json' -- "$cur"))
			return 0 ;;
		esac ;;
	"ppslab "*":"*)
		case $cur in -*) ;; *) _ppslab_files "$cur"; return 0 ;; esac ;;
	esac

	case $cur in
	-*) if [ -n "$cmd" ]; then
		_ppslab_words "$(_ppslab_opts "$prog" "$cmd")" "$cur"
	    else
		_ppslab_words "$(_ppslab_opts "$prog")" "$cur"
	    fi ;;
	esac
	return 0
}

complete -F _ppslab_complete ppslab ppslab-gen ppslab-sink ppslab-rut
