# Written by `ppslab plot` from dragonfly-hz-sweep.json. Restyle freely and re-run from this directory:
#   gnuplot dragonfly-hz-sweep.gp
set terminal pngcairo size 1000,908 noenhanced font 'DejaVu Sans,10'
if (!exists('ppslab_output')) ppslab_output = 'dragonfly-hz-sweep.png'
set output ppslab_output
set encoding utf8
set label 1000 'Forwarded rate vs polling clock' at screen 0.5, screen 0.98590 center font ',11'
set label 1001 'DUT: Debian GNU/Linux 12 (bookworm) (6.18.44-fc-v1272), AMD EPYC, 2 cores, veth ×2 10000 Mb/s, ppslab-rut 0.1.0' at screen 0.5, screen 0.96828 center font ',9'
set label 1002 '17 flagged cells (framed markers): a repetition failed a consistency check or missed its offered load (see the table)' at screen 0.5, screen 0.95242 center font ',9'
set label 1003 '15 cells: offered load missed its target: gen stream 1: rate error -1.363 %, shortfall +0.000 %; gen stream 2: rate error +0.016 %, shortfall +0.000 %;' at screen 0.5, screen 0.93656 center font ',9'
set label 1004 'tolerance 0.500 %' at screen 0.5, screen 0.92070 center font ',9'
set label 1005 '15 cells: poll clock lost ticks: 143 of 3590 deadlines passed without a tick (3.98 % > 1 %): the host delayed the forwarding thread' at screen 0.5, screen 0.90485 center font ',9'
set label 1006 '1 cell: sink dropped or damaged frames: sink[0]: err_pkts 0, ring_drops 14337' at screen 0.5, screen 0.88899 center font ',9'
set label 1007 '2 cells: forwarded more than offered: forwarded 109465 pps > offered 106653 pps + 0.500 % pacing + 8 pps resolution (107194 pps);' at screen 0.5, screen 0.87313 center font ',9'
set label 1008 'a router cannot forward more than it is...' at screen 0.5, screen 0.85727 center font ',9'
set label 1009 'pale bands: the polling bound, pollhz × burst_max frames/s per receiving port' at screen 0.5, screen 0.84141 center font ',9'
set label 1010 'the rig''s own ceiling, 556 kpps, is above the plotted range' at screen 0.5, screen 0.82555 center font ',9'
set label 999 'dragonfly-hz-sweep.json, run dragonfly-hz-sweep-2026-12-04T21:40:29Z-0da7, 2026-12-04' at screen 0.99400, screen 0.01256 right font ',8' tc 'gray40'
set label 1011 'polling clock kern.polling.pollhz (Hz)' at screen 0.53640, screen 0.03718 center
set label 1012 'forwarded rate (packets/s)' at screen 0.01200, screen 0.40154 center rotate by 90
set multiplot
# the key shared by the panels
set lmargin at screen 0.01
set rmargin at screen 0.99
set tmargin at screen 0.81101
set bmargin at screen 0.76608
unset border
unset tics
unset xlabel
unset ylabel
unset title
unset grid
unset arrow
unset logscale
set xrange [0:1]
set yrange [0:1]
set key center center horizontal opaque box lc 'gray80' samplen 2.5 width -1 font ',9'
plot NaN w l lw 7 lc rgb '#a09400d3' title 'pollhz × burst_max, direction=uni', \
     NaN w l lw 7 lc rgb '#a0009e73' title 'pollhz × burst_max, direction=bi', \
     NaN w linespoints pt 7 ps 1.1 lw 1.5 dt 1 lc rgb '#9400d3' title 'direction=uni', \
     NaN w linespoints pt 5 ps 1.1 lw 1.5 dt 2 lc rgb '#009e73' title 'direction=bi', \
     NaN w p pt 6 ps 1.3 lw 2 lc rgb '#9400d3' title 'direction=uni leaves the bound', \
     NaN w p pt 6 ps 1.3 lw 2 lc rgb '#009e73' title 'direction=bi leaves the bound', \
     NaN w p pt 4 ps 1.3 lw 2 lc rgb '#b00020' title 'flagged (see table)', \
     NaN w l dt 3 lw 1.5 lc 'gray25' title 'offered load 300 kpps'
unset label 1000
unset label 1001
unset label 1002
unset label 1003
unset label 1004
unset label 1005
unset label 1006
unset label 1007
unset label 1008
unset label 1009
unset label 1010
unset label 1011
unset label 1012
unset label 999

# the panels
unset key
set xlabel 'polling clock kern.polling.pollhz (Hz)'
set ylabel 'forwarded rate (packets/s)'
set grid lc 'gray85'
set border 3
set xtics nomirror
set ytics nomirror
set format y '%.1s%c'
set xrange [100:4150]
set yrange [0:486000]
# a 0 on a log axis is drawn at X0 or Y0, apart from the rest
X0 = 0
Y0 = 0
zx(v) = v
zy(v) = v
set xtics ('250' 250, '1000' 1000, '2000' 2000, '3000' 3000, '4000' 4000)
# the offered load of every cell
OFFERED = 300000
set label 998 'offered load 300 kpps' at graph 0.99, first OFFERED right offset 0,0.7 tc 'gray25'
set lmargin at screen 0.09440
set rmargin at screen 0.49680
set tmargin at screen 0.69119
set bmargin at screen 0.08106
set title 'firewall=off'."\n".'direction=uni: leaves the bound at pollhz=2000'."\n".'direction=bi: leaves the bound at pollhz=1000' offset 0,-0.3
set xlabel ''
set ylabel ''
set format y '%.1s%c'
plot 'dragonfly-hz-sweep.dat' index 0 u (zx($1)):(zy($6)) w l lw 7 lc rgb '#a09400d3' notitle, \
     '' index 1 u (zx($1)):(zy($6)) w l lw 7 lc rgb '#a0009e73' notitle, \
     '' index 0 u (zx($1)):(zy($2)):(zy($3)):(zy($4)) w yerrorlines pt 7 ps 1.1 lw 1.5 dt 1 lc rgb '#9400d3' notitle, \
     '' index 1 u (zx($1)):(zy($2)):(zy($3)):(zy($4)) w yerrorlines pt 5 ps 1.1 lw 1.5 dt 2 lc rgb '#009e73' notitle, \
     '' index 4 u (zx($1)):(zy($2)) w p pt 6 ps 3.2 lw 2 lc rgb '#9400d3' notitle, \
     '' index 5 u (zx($1)):(zy($2)) w p pt 6 ps 3.2 lw 2 lc rgb '#009e73' notitle, \
     '' index 8 u (zx($1)):(zy($2)) w p pt 4 ps 2.4 lw 2 lc rgb '#b00020' notitle, \
     OFFERED w l dt 3 lw 1.5 lc 'gray25' notitle
set lmargin at screen 0.57600
set rmargin at screen 0.97840
set tmargin at screen 0.69119
set bmargin at screen 0.08106
set title 'firewall=on'."\n".'direction=uni: leaves the bound at pollhz=1000'."\n".'direction=bi: leaves the bound at pollhz=2000' offset 0,-0.3
set xlabel ''
set ylabel ''
set format y ''
plot 'dragonfly-hz-sweep.dat' index 2 u (zx($1)):(zy($6)) w l lw 7 lc rgb '#a09400d3' notitle, \
     '' index 3 u (zx($1)):(zy($6)) w l lw 7 lc rgb '#a0009e73' notitle, \
     '' index 2 u (zx($1)):(zy($2)):(zy($3)):(zy($4)) w yerrorlines pt 7 ps 1.1 lw 1.5 dt 1 lc rgb '#9400d3' notitle, \
     '' index 3 u (zx($1)):(zy($2)):(zy($3)):(zy($4)) w yerrorlines pt 5 ps 1.1 lw 1.5 dt 2 lc rgb '#009e73' notitle, \
     '' index 6 u (zx($1)):(zy($2)) w p pt 6 ps 3.2 lw 2 lc rgb '#9400d3' notitle, \
     '' index 7 u (zx($1)):(zy($2)) w p pt 6 ps 3.2 lw 2 lc rgb '#009e73' notitle, \
     '' index 9 u (zx($1)):(zy($2)) w p pt 4 ps 2.4 lw 2 lc rgb '#b00020' notitle, \
     OFFERED w l dt 3 lw 1.5 lc 'gray25' notitle
unset multiplot
