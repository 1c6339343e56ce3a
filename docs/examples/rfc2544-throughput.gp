# Written by `ppslab plot` from rfc2544-throughput.json. Restyle freely and re-run from this directory:
#   gnuplot rfc2544-throughput.gp
set terminal pngcairo size 900,571 noenhanced font 'DejaVu Sans,10'
if (!exists('ppslab_output')) ppslab_output = 'rfc2544-throughput.png'
set output ppslab_output
set encoding utf8
set label 1000 'Throughput vs frame size (RFC 2544 §26.1)' at screen 0.5, screen 0.97758 center font ',11'
set label 1001 'DUT: Debian GNU/Linux 12 (bookworm) (6.18.44-fc-v1272), AMD EPYC, 2 cores, veth ×2 10000 Mb/s, ppslab-rut 0.1.0' at screen 0.5, screen 0.94956 center font ',9'
set label 1002 '7 flagged cells (framed markers): a repetition failed a consistency check or missed its offered load (see the table)' at screen 0.5, screen 0.92434 center font ',9'
set label 1003 '7 cells: offered load missed its target: gen stream 1: rate error -60.278 %, shortfall -53.613 %; tolerance 0.500 % (7 of 17 trials)' at screen 0.5, screen 0.89912 center font ',9'
set label 1004 '7 cells: forwarded more than offered: forwarded 93388 pps > offered 83304 pps + 0.500 % pacing + 68 pps resolution (83788 pps);' at screen 0.5, screen 0.87391 center font ',9'
set label 1005 'a router cannot forward more than it is o...' at screen 0.5, screen 0.84869 center font ',9'
set label 1006 'PDR = NDR at 6 of 7 points (open markers)' at screen 0.5, screen 0.82347 center font ',9'
set label 1007 'the rig''s own ceiling, 223 kpps, is above the plotted range' at screen 0.5, screen 0.79825 center font ',9'
set label 1008 'the 10 GbE line rate (14.9 Mpps at 64 B to 813 kpps at 1518 B) is above the plotted range' at screen 0.5, screen 0.77303 center font ',9'
set label 999 'rfc2544-throughput.json, run rfc2544-throughput-2026-12-04T21:51:24Z-066f, 2026-12-04' at screen 0.99333, screen 0.01996 right font ',8' tc 'gray40'
set xlabel 'frame size (bytes, with FCS)'
set ylabel 'throughput (frames/s)'
set grid lc 'gray85'
set border 3
set xtics nomirror
set ytics nomirror
set logscale x
set format y '%.1s%c'
set xrange [49.23076923:1973.4]
set yrange [0:104498.64]
# a 0 on a log axis is drawn at X0 or Y0, apart from the rest
X0 = 0
Y0 = 0
zx(v) = v
zy(v) = v
set xtics ('64' 64, '128' 128, '256' 256, '512' 512, '1024' 1024, '1280' 1280, '1518' 1518)
link_bps = 10000000000
# RFC 2544 §26.1: the theoretical maximum counts 20 bytes of preamble and gap
maxfps(x) = link_bps / ((x + 20) * 8)
set lmargin at screen 0.10489
set rmargin at screen 0.97600
set tmargin at screen 0.73940
set bmargin at screen 0.12890
unset title
set key top left opaque box lc 'gray80' samplen 2.5 spacing 0.95
plot 'rfc2544-throughput.dat' index 0 u (zx($1)):(zy($2)):(zy($3)):(zy($4)) w yerrorlines pt 7 ps 1.1 lw 1.5 dt 1 lc rgb '#9400d3' title 'NDR throughput (packets/s)', \
     '' index 1 u (zx($1)):(zy($2)):(zy($3)):(zy($4)) w yerrorlines pt 4 ps 2.2 lw 1.5 dt 2 lc rgb '#009e73' title 'PDR throughput (packets/s)', \
     '' index 2 u (zx($1)):(zy($2)) w p pt 4 ps 2.4 lw 2 lc rgb '#b00020' notitle, \
     NaN w p pt 4 ps 1.3 lw 2 lc rgb '#b00020' title 'flagged (see table)'
