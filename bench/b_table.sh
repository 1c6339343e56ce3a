# SPDX-License-Identifier: BSD-2-Clause
# b_table.sh — `ppslab table` on large results files: 4,000 and 20,000 cells (two
# repetitions each, two axes), wall and CPU time and peak memory per run. A pivot places every
# cell in one pass over the cells (value indices, sorting), so the time grows linearly;
# it took 12 s for 4,000 cells and over 60 s for 20,000 when each table slot scanned
# every cell.
table_file() {   # table_file NA NB OUT: NA × NB cells, 2 repetitions each
	jq -cn --argjson na "$1" --argjson nb "$2" '{ schema: "ppslab/result",
	  schema_version: "1.0.0", run_id: "bench-table", complete: true,
	  matrix: { axes: { pollhz: [range($na) | 1000 + .], burst_max: [range($nb) | 1 + .] },
	            repetitions: 2 },
	  cases: [range($na) as $a | range($nb) as $b | range(1; 3) as $r |
	    { case_id: "pollhz=\(1000 + $a)/burst_max=\(1 + $b)", rep: $r, status: "ok",
	      params: { pollhz: (1000 + $a), burst_max: (1 + $b) },
	      metrics: { fwd_pps: (1000 + $a * $b + $r), rx_pps: 5 } }] }' >"$3"
}
for size in "40 100" "100 200"; do
	set -- $size
	cells=$(($1 * $2))
	f=$BENCH_OUT/table-$cells.json
	table_file "$1" "$2" "$f"
	for rep in $(seq 1 "$BENCH_REPS"); do
		timer=()   # peak memory too where GNU time is installed
		[ -x /usr/bin/time ] && timer=(/usr/bin/time -f "%M %U %S" -o "$BENCH_OUT/table.mem")
		t0=$(date +%s%N)
		"${timer[@]}" "$B/ppslab" table "$f" >/dev/null ||
			{ echo "table: ppslab table failed on $cells cells"; continue; }
		t1=$(date +%s%N)
		record table "ppslab table, $cells cells ($(du -k "$f" | cut -f1) KiB file)" ms "$rep" \
			$(((t1 - t0) / 1000000))
		[ ${#timer[@]} -gt 0 ] || continue
		read -r kib usr sys < <(tail -1 "$BENCH_OUT/table.mem")
		# CPU time: what the work costs, whatever else the machine is doing
		record table "ppslab table, $cells cells: CPU (user + system)" ms "$rep" \
			"$(awk -v u="$usr" -v s="$sys" 'BEGIN { printf "%d", (u + s) * 1000 }')"
		record table "ppslab table, $cells cells: peak memory" kib "$rep" "$kib"
	done
done
