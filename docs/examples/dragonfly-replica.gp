# Written by `ppslab plot` from dragonfly-replica.json. Restyle freely and re-run from this directory:
#   gnuplot dragonfly-replica.gp
set terminal pngcairo size 900,540 noenhanced font 'DejaVu Sans,10'
if (!exists('ppslab_output')) ppslab_output = 'dragonfly-replica.png'
set output ppslab_output
set encoding utf8
set label 1000 'Forwarded rate vs polling clock' at screen 0.5, screen 0.97630 center font ',11'
set label 1001 'DUT: Debian GNU/Linux 12 (bookworm) (6.18.44-fc-v1272), AMD EPYC, 2 cores, veth ×2 10000 Mb/s, ppslab-rut 0.1.0' at screen 0.5, screen 0.94667 center font ',9'
set label 1002 '13 flagged cells (framed markers): a repetition failed a consistency check or missed its offered load (see the table)' at screen 0.5, screen 0.92000 center font ',9'
set label 1003 '2 cells: a sink saw too little of the traffic: sink[0]: no test frame counted while 200000 were sent' at screen 0.5, screen 0.89333 center font ',9'
set label 1004 '5 cells: offered load missed its target: gen stream 1: rate error +1.382 %, shortfall +0.000 %; tolerance 0.500 %' at screen 0.5, screen 0.86667 center font ',9'
set label 1005 '11 cells: poll clock lost ticks: 60 of 3027 deadlines passed without a tick (1.98 % > 1 %): the host delayed the forwarding thread' at screen 0.5, screen 0.84000 center font ',9'
set label 1006 'pale bands: the polling bound, pollhz × burst_max frames/s per receiving port' at screen 0.5, screen 0.81333 center font ',9'
set label 1007 'the rig''s own ceiling, 220 kpps, is above the plotted range' at screen 0.5, screen 0.78667 center font ',9'
set label 999 'dragonfly-replica.json, run dragonfly-replica-2026-12-04T22:02:53Z-4300, 2026-12-04' at screen 0.99333, screen 0.02111 right font ',8' tc 'gray40'
set xlabel 'polling clock kern.polling.pollhz (Hz)'
set ylabel 'forwarded rate (packets/s)'
set grid lc 'gray85'
set border 3
set xtics nomirror
set ytics nomirror
set format y '%.1s%c'
set xrange [20:6230]
set yrange [0:180690.563]
# a 0 on a log axis is drawn at X0 or Y0, apart from the rest
X0 = 0
Y0 = 0
zx(v) = v
zy(v) = v
set xtics ('250' 250, '500' 500, '1000' 1000, '2000' 2000, '3000' 3000, '4000' 4000, '5000' 5000, '6000' 6000)
# the offered load of every cell
OFFERED = 100000
set label 998 'offered load 100 kpps' at graph 0.99, first OFFERED right offset 0,0.7 tc 'gray25'
set lmargin at screen 0.10489
set rmargin at screen 0.97600
set tmargin at screen 0.75111
set bmargin at screen 0.13630
unset title
set key top left opaque box lc 'gray80' samplen 2.5 spacing 0.95
plot 'dragonfly-replica.dat' index 0 u (zx($1)):(zy($6)) w l lw 7 lc rgb '#a09400d3' title 'pollhz × burst_max, kernel=dragonfly-1.8', \
     '' index 1 u (zx($1)):(zy($6)) w l lw 7 lc rgb '#a0009e73' title 'pollhz × burst_max, kernel=dragonfly-2.0', \
     '' index 0 u (zx($1)):(zy($2)):(zy($3)):(zy($4)) w yerrorlines pt 7 ps 1.1 lw 1.5 dt 1 lc rgb '#9400d3' title 'kernel=dragonfly-1.8', \
     '' index 1 u (zx($1)):(zy($2)):(zy($3)):(zy($4)) w yerrorlines pt 4 ps 2.2 lw 1.5 dt 2 lc rgb '#009e73' title 'kernel=dragonfly-2.0', \
     '' index 2 u (zx($1)):(zy($2)) w p pt 6 ps 3.2 lw 2 lc rgb '#9400d3' notitle, \
     NaN w p pt 6 ps 1.3 lw 2 lc rgb '#9400d3' title 'kernel=dragonfly-1.8 leaves the bound at pollhz=3000', \
     '' index 3 u (zx($1)):(zy($2)) w p pt 6 ps 3.2 lw 2 lc rgb '#009e73' notitle, \
     NaN w p pt 6 ps 1.3 lw 2 lc rgb '#009e73' title 'kernel=dragonfly-2.0 leaves the bound at pollhz=2000', \
     '' index 4 u (zx($1)):(zy($2)) w p pt 4 ps 2.4 lw 2 lc rgb '#b00020' notitle, \
     NaN w p pt 4 ps 1.3 lw 2 lc rgb '#b00020' title 'flagged (see table)', \
     OFFERED w l dt 3 lw 1.5 lc 'gray25' title 'offered load 100 kpps'
