#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# mkfixtures.sh — writes the realistic results files the table/plot/compare tests read,
# deterministically (Park–Miller random numbers in awk, no other tools). The files are
# committed; run this only to change them:  sh tests/data/mkfixtures.sh tests/data
#
#   sweep.json          pollhz × burst_max × rules, 3 repetitions, ppslab-rut on Linux
#   hz-dragonfly.json   the table of the 2006 DragonFly polling HZ sweep (docs/glossary.md):
#                       pollhz × dir (uni/bi), DragonFly, medians
#                       equal to the numbers Mike Tancsa posted
#   hz-freebsd7.json    the same on FreeBSD 7 (pollhz 4000 and "NP", non-polling)
#   framesize.json      an RFC 2544 frame-size run (NDR/PDR), 1 GbE
#   ladder.json         an offered-load ladder (forwarding rate and loss vs load)
#   rules.json          forwarding rate vs 0..20,000 firewall rules made from the rule-cost
#                       model 1/(a + b*N), a = 1.5 us, b = 1.3 ns per rule per frame
#                       (+-0.2 % noise), with a forwarder counter spanning four decades
#                       and the rig's ceiling far above (plot rules: log x with 0, the fit,
#                       a log y axis, a reference noted as out of range)
#   fs10g.json          NDR equal to PDR per frame size, far below a 10 GbE line rate
#                       (plot rules: identical series, a reference clipped with a note)
#   hz-sweep.json       pollhz x direction, burst_max 150 as a fixed parameter: the rate
#                       follows pollhz x burst_max, then leaves it at the CPU's limit,
#                       the rig's ceiling just above (plot rules: the polling bound, where
#                       the measurement leaves it, the ceiling drawn as a line)
#   trend/build-1NN.json  six nightly runs for `ppslab trend`: FreeBSD 13.8 ... 14.2,
#                       named and created in an order that is not the versions' (13.10
#                       came out after 14.1); pollhz=1000 drops 20 % from 14.0 on,
#                       pollhz=2000 gains 15 % in 14.2, pollhz=3000 exists from 13.10 on
#   trend-os.json       the same six versions as an `os` axis of one file, listed out
#                       of order, one repetition per cell
set -eu
out=${1:-$(dirname "$0")}
mkdir -p "$out/trend"

awk -v out="$out" '
function rnd() { seed = (seed * 16807) % 2147483647; return seed / 2147483647 }
# roughly normal, mean 0, stdev 1 (sum of four uniforms)
function gauss(   s, i) { s = 0; for (i = 0; i < 4; i++) s += rnd(); return (s - 2) * 1.732 }
function env(f, os, ver, kern, cpu, nic, drv, speed, tun, router) {
	printf " \"environment\": {\n  \"topology\": \"three boxes\",\n  \"addressing\": [\"198.18.0.0/15\"],\n", f > f
	printf "  \"dut\": { \"hostname\": \"r2\", \"os\": { \"name\": \"%s\", \"version\": \"%s\", \"kernel\": \"%s\" },\n", os, ver, kern > f
	printf "          \"cpu\": { \"model\": \"%s\", \"cores\": 2 }, \"mem_mb\": 2048,\n", cpu > f
	printf "          \"nics\": [{ \"name\": \"%s0\", \"driver\": \"%s\", \"speed_mbps\": %s }, { \"name\": \"%s1\", \"driver\": \"%s\", \"speed_mbps\": %s }],\n", drv, drv, speed, drv, drv, speed > f
	printf "          \"tunables\": { %s }, \"router\": \"%s\" },\n", tun, router > f
	printf "  \"sender\": { \"hostname\": \"gen1\", \"os\": { \"name\": \"Linux\", \"version\": \"Debian 12\", \"kernel\": \"6.1.0\" } },\n" > f
	printf "  \"sink\": { \"hostname\": \"sink1\", \"os\": { \"name\": \"Linux\", \"version\": \"Debian 12\", \"kernel\": \"6.1.0\" } }\n },\n" > f
}
function head(f, id, created) {
	printf "{\n \"schema\": \"ppslab/result\",\n \"schema_version\": \"1.0.0\",\n" > f
	printf " \"run_id\": \"%s\",\n \"created_utc\": \"%s\",\n \"updated_utc\": \"%s\",\n \"complete\": true,\n", id, created, created > f
	printf " \"tool\": { \"name\": \"ppslab\", \"version\": \"0.1.0\", \"cmdline\": \"ppslab run (fixture from tests/data/mkfixtures.sh)\" },\n" > f
}
function method(f, trial, dir, fs, extra) {
	printf " \"method\": { \"trial\": \"%s\", \"warmup_s\": 1, \"trial_s\": 10, \"settle_s\": 1, \"direction\": \"%s\",\n", trial, dir > f
	printf "   \"frame_size\": %s, \"l1_overhead_bytes\": 20,%s\n", fs, extra > f
	printf "   \"rfc2544_deviations\": [\"10 s trials instead of 60 s\"] },\n" > f
}
function fmtv(v) { return v == "" ? "null" : sprintf("%.0f", v) }
function fmtf(v, d) { return v == "" ? "null" : sprintf("%." d "f", v) }

BEGIN {
	seed = 20061126

	# ---- sweep.json: polling clock x burst limit x rule count on ppslab-rut ----------
	f = out "/sweep.json"
	head(f, "sweep-2026-11-30T10:00:00Z-a1b2c3", "2026-11-30T10:00:00Z")
	env(f, "Linux", "Debian 12", "6.1.0-13-amd64", "Intel Xeon E5-2620 v4 @ 2.10GHz", "", "veth", "null",
	    "\"kern.polling.each_burst\": 5, \"kern.polling.user_frac\": 50, \"net.inet.ip.fw.update_counters\": 1",
	    "ppslab-rut 0.1.0")
	method(f, "fixed", "uni", 64, " \"offered_pps\": 700000,")
	printf " \"matrix\": { \"axes\": { \"pollhz\": [1000, 2000, 3000, 4000, 5000], \"burst_max\": [50, 150], \"rules\": [0, 10] },\n   \"repetitions\": 3, \"order\": \"random\", \"seed\": 42 },\n \"cases\": [\n" > f
	split("1000 2000 3000 4000 5000", hz, " "); split("50 150", bm, " "); split("0 10", ru, " ")
	n = 0
	for (i = 1; i <= 5; i++) for (j = 1; j <= 2; j++) for (k = 1; k <= 2; k++) for (r = 1; r <= 3; r++) {
		ceil = hz[i] * bm[j]; cpu = 560000 / (1 + 0.025 * ru[k])
		fwd = (ceil < cpu ? ceil * 0.998 : cpu) * (1 + 0.003 * gauss())
		if (fwd > 700000) fwd = 700000
		off = 700000 * (1 - 0.0002 * rnd())
		loss = (off - fwd) * 100 / off
		lat = (ceil < cpu ? 1e9 / hz[i] * 1.5 : 900000) * (1 + 0.05 * gauss())
		st = "ok"; flags = "[]"
		if (i == 2 && j == 2 && k == 1 && r == 2) { st = "flagged"; flags = "[\"offered load 3.1% below intended\"]" }
		printf "%s  { \"case_id\": \"pollhz=%d/burst_max=%d/rules=%d\", \"rep\": %d,\n", (n++ ? ",\n" : ""), hz[i], bm[j], ru[k], r > f
		printf "    \"params\": { \"pollhz\": %d, \"burst_max\": %d, \"rules\": %d }, \"status\": \"%s\", \"flags\": %s,\n", hz[i], bm[j], ru[k], st, flags > f
		printf "    \"start_utc\": \"2026-11-30T10:%02d:00Z\", \"end_utc\": \"2026-11-30T10:%02d:12Z\",\n", n % 60, n % 60 > f
		printf "    \"metrics\": { \"fwd_pps\": %s, \"offered_pps\": %s, \"loss_pct\": %s, \"lat_p50_ns\": %s, \"lat_p99_ns\": %s,\n", fmtv(fwd), fmtv(off), fmtf(loss, 3), fmtv(lat / 3), fmtv(lat) > f
		printf "      \"cpu_s\": %s, \"rut.burst\": %d, \"rut.lost_polls\": %d", fmtf(9.5 + 0.4 * rnd(), 2), (ceil < cpu ? bm[j] : bm[j] * 0.7), int(40 * rnd()) > f
		if (ru[k] > 0) printf ", \"rut.rule_hits.%d\": %s", ru[k] * 100, fmtv(fwd * 10) > f
		printf " } }" > f
	}
	printf "\n ]\n}\n" > f
	close(f)

	# ---- the 2006 DragonFly sweep: DragonFly and FreeBSD 7 HZ tables -----------------
	for (osn = 1; osn <= 2; osn++) {
		if (osn == 1) {
			f = out "/hz-dragonfly.json"; nz = 4
			split("3000 4000 5000 6000", Z, " ")
			split("450072 588514 592655 593966", U, " ")
			split("349696 391615 344472 353047", A, " ")
			split("349814 391753 360468 352177", B, " ")
			head(f, "dragonfly-2006-11-26", "2006-11-26T23:00:35Z")
			env(f, "DragonFly", "1.7-DEVELOPMENT", "GENERIC", "Intel Pentium D 3.4GHz", "", "em", 1000,
			    "\"kern.polling.each_burst\": 5, \"kern.polling.burst_max\": 150, \"kern.polling.user_frac\": 50, \"net.inet.ip.fastforwarding\": 1",
			    "DragonFly kernel, polling, fastfwd")
			axes = "\"pollhz\": [3000, 4000, 5000, 6000], \"dir\": [\"uni\", \"bi\"]"
		} else {
			f = out "/hz-freebsd7.json"; nz = 2
			split("4000 NP", Z, " ")
			split("582652 590068", U, " ")
			split("288532 312334", A, " ")
			split("290964 320538", B, " ")
			head(f, "freebsd7-2006-11-26", "2006-11-26T23:30:00Z")
			env(f, "FreeBSD", "7.0-CURRENT", "GENERIC+DEVICE_POLLING", "Intel Pentium D 3.4GHz", "", "em", 1000,
			    "\"kern.hz\": 4000, \"kern.polling.burst_max\": 150, \"net.inet.ip.fastforwarding\": 1",
			    "FreeBSD kernel, polling")
			axes = "\"pollhz\": [4000, \"NP\"], \"dir\": [\"uni\", \"bi\"]"
		}
		method(f, "fixed", "uni | bi", 64, "")
		printf " \"matrix\": { \"axes\": { %s }, \"repetitions\": 3 },\n \"cases\": [\n", axes > f
		n = 0
		for (i = 1; i <= nz; i++) for (d = 1; d <= 2; d++) for (r = 1; r <= 3; r++) {
			# three repetitions whose median is the posted number
			dv = (r == 1 ? 0 : (r == 2 ? -1 : 1)) * (150 + int(600 * rnd()))
			zq = (Z[i] == "NP" ? "\"NP\"" : Z[i])
			printf "%s  { \"case_id\": \"pollhz=%s/dir=%s\", \"rep\": %d,\n", (n++ ? ",\n" : ""), Z[i], (d == 1 ? "uni" : "bi"), r > f
			if (d == 1) {
				printf "    \"params\": { \"pollhz\": %s, \"dir\": \"uni\" }, \"status\": \"ok\",\n", zq > f
				printf "    \"metrics\": { \"fwd_pps\": %d, \"fwd_pps_a\": %d, \"fwd_pps_b\": null, \"offered_pps\": 1488000, \"loss_pct\": %s } }", U[i] + dv, U[i] + dv, fmtf((1488000 - U[i] - dv) * 100 / 1488000, 3) > f
			} else {
				db = (r == 1 ? 0 : (r == 2 ? 1 : -1)) * (100 + int(500 * rnd()))
				printf "    \"params\": { \"dir\": \"bi\", \"pollhz\": %s }, \"status\": \"ok\",\n", zq > f
				printf "    \"metrics\": { \"fwd_pps\": %d, \"fwd_pps_a\": %d, \"fwd_pps_b\": %d, \"offered_pps\": 2976000, \"loss_pct\": %s } }", A[i] + dv + B[i] + db, A[i] + dv, B[i] + db, fmtf((2976000 - A[i] - B[i] - dv - db) * 100 / 2976000, 3) > f
			}
		}
		printf "\n ]\n}\n" > f
		close(f)
	}

	# ---- framesize.json: RFC 2544 throughput per frame size on 1 GbE -----------------
	f = out "/framesize.json"
	head(f, "framesize-2026-11-30T12:00:00Z-d4e5f6", "2026-11-30T12:00:00Z")
	env(f, "FreeBSD", "14.1-RELEASE", "GENERIC", "Intel Atom C3558 @ 2.20GHz", "", "igb", 1000,
	    "\"kern.hz\": 1000, \"net.inet.ip.fw.enable\": 0", "FreeBSD 14.1 kernel forwarding")
	method(f, "mlr", "uni", "\"per case\"", " \"goals\": [{ \"name\": \"NDR\", \"loss_ratio\": 0, \"exceed_ratio\": 0.5, \"width\": 0.005 }, { \"name\": \"PDR\", \"loss_ratio\": 0.005, \"exceed_ratio\": 0.5, \"width\": 0.005 }],")
	printf " \"matrix\": { \"axes\": { \"frame_size\": [64, 128, 256, 512, 1024, 1280, 1518] }, \"repetitions\": 3 },\n \"cases\": [\n" > f
	split("64 128 256 512 1024 1280 1518", FS_, " ")
	n = 0
	for (i = 1; i <= 7; i++) for (r = 1; r <= 3; r++) {
		line = 1e9 / ((FS_[i] + 20) * 8)
		lim = 610000 * (1 + 0.004 * gauss())
		ndr = (line * 0.995 < lim ? line * 0.995 : lim)
		pdr = (line < lim * 1.03 ? line : lim * 1.03)
		printf "%s  { \"case_id\": \"frame_size=%d\", \"rep\": %d, \"params\": { \"frame_size\": %d }, \"status\": \"ok\",\n", (n++ ? ",\n" : ""), FS_[i], r, FS_[i] > f
		printf "    \"results\": { \"NDR\": { \"regular\": true, \"ct_pps\": %s }, \"PDR\": { \"regular\": true, \"ct_pps\": %s } },\n", fmtv(ndr), fmtv(pdr) > f
		printf "    \"metrics\": { \"ndr_pps\": %s, \"pdr_pps\": %s, \"fwd_pps\": %s, \"lat_p99_ns\": %s } }", fmtv(ndr), fmtv(pdr), fmtv(pdr), fmtv(30000 + FS_[i] * 12 * (1 + 0.05 * gauss())) > f
	}
	printf "\n ]\n}\n" > f
	close(f)

	# ---- ladder.json: forwarding rate and loss vs offered load (RFC 2285/2889) -------
	f = out "/ladder.json"
	head(f, "ladder-2026-11-30T13:00:00Z-0a0b0c", "2026-11-30T13:00:00Z")
	env(f, "Linux", "Debian 12", "6.1.0-13-amd64", "Intel Xeon E5-2620 v4 @ 2.10GHz", "", "veth", "null",
	    "\"kern.polling.pollhz\": 4000, \"kern.polling.burst_max\": 150", "ppslab-rut 0.1.0")
	method(f, "ladder", "uni", 64, "")
	printf " \"matrix\": { \"axes\": { \"load_pps\": [100000, 200000, 300000, 400000, 500000, 600000, 700000, 800000, 900000, 1000000] }, \"repetitions\": 3 },\n \"cases\": [\n" > f
	n = 0
	for (i = 1; i <= 10; i++) for (r = 1; r <= 3; r++) {
		load = i * 100000
		off = load * (1 - 0.001 * rnd()); if (load > 850000) off = 850000 * (1 + 0.002 * gauss())
		mfr = 560000 * (1 + 0.003 * gauss())
		# overload: beyond the knee the forwarder spends more time dropping (livelock-ish)
		fr = (off < mfr ? off : mfr - (off - mfr) * 0.25)
		printf "%s  { \"case_id\": \"load_pps=%d\", \"rep\": %d, \"params\": { \"load_pps\": %d }, \"status\": \"ok\",\n", (n++ ? ",\n" : ""), load, r, load > f
		printf "    \"results\": { \"FR\": { \"offered_pps\": %s, \"fwd_pps\": %s } },\n", fmtv(off), fmtv(fr) > f
		printf "    \"metrics\": { \"offered_pps\": %s, \"fwd_pps\": %s, \"loss_pct\": %s } }", fmtv(off), fmtv(fr), fmtf((off - fr) * 100 / off, 3) > f
	}
	printf "\n ]\n}\n" > f
	close(f)
	# ---- rules.json: the rule-cost model, known a and b ------------------------------
	f = out "/rules.json"
	head(f, "rules-2026-11-30T14:00:00Z-1e2f3a", "2026-11-30T14:00:00Z")
	env(f, "Linux", "Debian 12", "6.1.0-13-amd64", "Intel Xeon E5-2620 v4 @ 2.10GHz", "", "veth", 10000,
	    "\"net.inet.ip.fw.update_counters\": 1", "ppslab-rut 0.1.0")
	method(f, "fixed", "uni", 64, " \"offered_pps\": \"max\",")
	printf " \"rig\": { \"direct_pps\": 1629406, \"ceiling_pps\": 1629406 },\n" > f
	printf " \"profile\": { \"params\": { \"mode\": \"busy\", \"firewall\": \"on\", \"rules_kind\": \"nomatch\" } },\n" > f
	printf " \"matrix\": { \"axes\": { \"rules\": [0, 100, 1000, 5000, 10000, 20000] }, \"repetitions\": 3 },\n \"cases\": [\n" > f
	split("0 100 1000 5000 10000 20000", RU, " ")
	n = 0
	for (i = 1; i <= 6; i++) for (r = 1; r <= 3; r++) {
		fwd = 1 / (1.5e-6 + 1.3e-9 * RU[i]) * (1 + 0.002 * (r - 2))
		lost = (RU[i] == 0 ? 0 : RU[i] * RU[i] / 40000 + r)
		printf "%s  { \"case_id\": \"rules=%d\", \"rep\": %d, \"params\": { \"rules\": %d }, \"status\": \"ok\",\n", (n++ ? ",\n" : ""), RU[i], r, RU[i] > f
		printf "    \"metrics\": { \"fwd_pps\": %s, \"cpu_s\": %s, \"rut.lost_polls\": %d } }", fmtf(fwd, 3), fmtf(9.5 + 0.01 * r, 2), lost > f
	}
	printf "\n ]\n}\n" > f
	close(f)

	# ---- fs10g.json: NDR = PDR, far below the 10 GbE line rate ------------------------
	f = out "/fs10g.json"
	head(f, "fs10g-2026-11-30T15:00:00Z-4b5c6d", "2026-11-30T15:00:00Z")
	env(f, "Linux", "Debian 12", "6.1.0-13-amd64", "Intel Xeon E5-2620 v4 @ 2.10GHz", "", "veth", 10000,
	    "\"net.inet.ip.fw.enable\": 0", "ppslab-rut 0.1.0")
	method(f, "mlr", "uni", "\"per case\"", " \"goals\": [{ \"name\": \"NDR\", \"loss_ratio\": 0, \"exceed_ratio\": 0.5, \"width\": 0.005 }, { \"name\": \"PDR\", \"loss_ratio\": 0.005, \"exceed_ratio\": 0.5, \"width\": 0.005 }],")
	printf " \"matrix\": { \"axes\": { \"size\": [64, 128, 256, 512, 1024, 1280, 1518] }, \"repetitions\": 1 },\n \"cases\": [\n" > f
	split("64 128 256 512 1024 1280 1518", SZ, " ")
	split("498000 476000 401000 322000 230000 198000 151000", ND, " ")
	n = 0
	for (i = 1; i <= 7; i++) {
		printf "%s  { \"case_id\": \"size=%d\", \"rep\": 1, \"params\": { \"size\": %d }, \"status\": \"ok\",\n", (n++ ? ",\n" : ""), SZ[i], SZ[i] > f
		printf "    \"metrics\": { \"ndr_pps\": %d, \"pdr_pps\": %d } }", ND[i], ND[i] > f
	}
	printf "\n ]\n}\n" > f
	close(f)

	# ---- hz-sweep.json: the polling bound and where the rate leaves it ----------------
	f = out "/hz-sweep.json"
	head(f, "hz-sweep-2026-11-30T16:00:00Z-7a8b9c", "2026-11-30T16:00:00Z")
	env(f, "Linux", "Debian 12", "6.1.0-13-amd64", "Intel Xeon E5-2620 v4 @ 2.10GHz", "", "veth", 10000,
	    "\"kern.polling.each_burst\": 5", "ppslab-rut 0.1.0")
	method(f, "fixed", "uni | bi", 64, "")
	printf " \"rig\": { \"direct_pps\": 310000, \"ceiling_pps\": 310000 },\n" > f
	printf " \"profile\": { \"params\": { \"mode\": \"poll\", \"burst_max\": 150, \"offered\": \"300k\" } },\n" > f
	printf " \"matrix\": { \"axes\": { \"pollhz\": [250, 500, 1000, 2000, 3000, 4000], \"direction\": [\"uni\", \"bi\"] }, \"repetitions\": 1 },\n \"cases\": [\n" > f
	split("250 500 1000 2000 3000 4000", HZ_, " ")
	n = 0
	for (i = 1; i <= 6; i++) for (d = 1; d <= 2; d++) {
		bound = HZ_[i] * 150 * d
		fwd = (bound < 265000 ? bound * 0.999 : 265000 * (1 - 0.01 * i))
		printf "%s  { \"case_id\": \"pollhz=%d/direction=%s\", \"rep\": 1, \"params\": { \"pollhz\": %d, \"direction\": \"%s\" }, \"status\": \"ok\",\n", (n++ ? ",\n" : ""), HZ_[i], (d == 1 ? "uni" : "bi"), HZ_[i], (d == 1 ? "uni" : "bi") > f
		printf "    \"metrics\": { \"fwd_pps\": %s } }", fmtv(fwd) > f
	}
	printf "\n ]\n}\n" > f
	close(f)

	# ---- trend/: one file per version; trend-os.json: the versions as an axis ----------
	seed = 22
	split("13.8 13.9 14.0 14.1 13.10 14.2", V, " ")   # in the order they were built
	for (b = 1; b <= 6; b++) {
		f = out "/trend/build-" (100 + b) ".json"
		head(f, "nightly-" (100 + b), sprintf("2026-12-%02dT02:00:00Z", b))
		env(f, "FreeBSD", V[b] "-RELEASE", "GENERIC", "Intel Atom C3558 @ 2.20GHz", "", "igb", 1000,
		    "\"kern.hz\": 1000, \"kern.polling.burst_max\": 150", "FreeBSD " V[b] " kernel, polling")
		method(f, "fixed", "uni", 64, " \"offered_pps\": 1488000,")
		np = (V[b] == "13.8" || V[b] == "13.9") ? 2 : 3
		printf " \"matrix\": { \"axes\": { \"pollhz\": [1000, 2000%s] }, \"repetitions\": 3 },\n \"cases\": [\n", (np == 3 ? ", 3000" : "") > f
		n = 0
		for (i = 1; i <= np; i++) {
			lvl = trend_level(V[b], i * 1000) * (1 + 0.004 * gauss())
			for (r = 1; r <= 3; r++) {
				fwd = lvl * (1 + 0.003 * gauss())
				st = (V[b] == "14.1" && i == 2 && r == 2) ? "flagged" : "ok"
				printf "%s  { \"case_id\": \"pollhz=%d\", \"rep\": %d, \"params\": { \"pollhz\": %d }, \"status\": \"%s\",\n", (n++ ? ",\n" : ""), i * 1000, r, i * 1000, st > f
				printf "    \"metrics\": { \"fwd_pps\": %s, \"offered_pps\": 1488000, \"loss_pct\": %s } }", fmtv(fwd), fmtf((1488000 - fwd) * 100 / 1488000, 3) > f
			}
		}
		printf "\n ]\n}\n" > f
		close(f)
	}
	f = out "/trend-os.json"
	head(f, "os-ladder-2026-12-07", "2026-12-07T09:00:00Z")
	env(f, "FreeBSD", "boot environments", "GENERIC", "Intel Atom C3558 @ 2.20GHz", "", "igb", 1000,
	    "\"kern.hz\": 1000", "FreeBSD kernels by boot environment")
	method(f, "fixed", "uni", 64, " \"offered_pps\": 1488000,")
	split("14.0 13.10 13.8 14.2 13.9 14.1", W, " ")
	printf " \"matrix\": { \"axes\": { \"os\": [\"%s\", \"%s\", \"%s\", \"%s\", \"%s\", \"%s\"], \"pollhz\": [1000, 2000] }, \"repetitions\": 1 },\n \"cases\": [\n", W[1], W[2], W[3], W[4], W[5], W[6] > f
	n = 0
	for (b = 1; b <= 6; b++) for (i = 1; i <= 2; i++) {
		fwd = trend_level(W[b], i * 1000) * (1 + 0.004 * gauss())
		printf "%s  { \"case_id\": \"os=%s/pollhz=%d\", \"rep\": 1, \"params\": { \"os\": \"%s\", \"pollhz\": %d }, \"status\": \"ok\",\n", (n++ ? ",\n" : ""), W[b], i * 1000, W[b], i * 1000 > f
		printf "    \"metrics\": { \"fwd_pps\": %s, \"offered_pps\": 1488000 } }", fmtv(fwd) > f
	}
	printf "\n ]\n}\n" > f
	close(f)
}
# the planted levels: pollhz=1000 loses 20 % from 14.0, pollhz=2000 gains 15 % in 14.2,
# pollhz=3000 is flat
function trend_level(ver, hz) {
	if (hz == 1000) return (ver ~ /^14/ ? 120000 : 150000)
	if (hz == 2000) return (ver == "14.2" ? 345000 : 300000)
	return 450000
}'
