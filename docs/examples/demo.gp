# Written by `ppslab plot` from demo.json. Restyle freely and re-run from this directory:
#   gnuplot demo.gp
set terminal pngcairo size 1000,642 noenhanced font 'DejaVu Sans,10'
if (!exists('ppslab_output')) ppslab_output = 'demo.png'
set output ppslab_output
set encoding utf8
set label 1000 'Forwarded rate vs polling clock' at screen 0.5, screen 0.98006 center font ',11'
set label 1001 'DUT: Debian GNU/Linux 12 (bookworm) (6.18.44-fc-v1272), AMD EPYC, 2 cores, veth ×2 10000 Mb/s, ppslab-rut 0.1.0' at screen 0.5, screen 0.95514 center font ',9'
set label 1002 '1 flagged cell (framed markers): a repetition failed a consistency check or missed its offered load (see the table)' at screen 0.5, screen 0.93271 center font ',9'
set label 1003 '1 cell: poll clock lost ticks: 79 of 5758 deadlines passed without a tick (1.37 % > 1 %): the host delayed the forwarding thread' at screen 0.5, screen 0.91028 center font ',9'
set label 1004 'pale bands: the polling bound, pollhz × burst_max frames/s per receiving port' at screen 0.5, screen 0.88785 center font ',9'
set label 1005 'the rig''s own ceiling, 365 kpps, is above the plotted range' at screen 0.5, screen 0.86542 center font ',9'
set label 999 'demo.json, run demo-2026-12-04T21:39:59Z-0225, 2026-12-04' at screen 0.99400, screen 0.01776 right font ',8' tc 'gray40'
set label 1006 'polling clock kern.polling.pollhz (Hz)' at screen 0.53640, screen 0.05259 center
set label 1007 'forwarded rate (packets/s)' at screen 0.01200, screen 0.41682 center rotate by 90
set multiplot
# the key shared by the panels
set lmargin at screen 0.01
set rmargin at screen 0.99
set tmargin at screen 0.84486
set bmargin at screen 0.78131
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
plot NaN w l lw 7 lc rgb '#a09400d3' title 'pollhz × burst_max, burst_max=20', \
     NaN w l lw 7 lc rgb '#a0009e73' title 'pollhz × burst_max, burst_max=50', \
     NaN w linespoints pt 7 ps 1.1 lw 1.5 dt 1 lc rgb '#9400d3' title 'burst_max=20', \
     NaN w linespoints pt 5 ps 1.1 lw 1.5 dt 2 lc rgb '#009e73' title 'burst_max=50', \
     NaN w p pt 4 ps 1.3 lw 2 lc rgb '#b00020' title 'flagged (see table)', \
     NaN w l dt 3 lw 1.5 lc 'gray25' title 'offered load 60 kpps'
unset label 1000
unset label 1001
unset label 1002
unset label 1003
unset label 1004
unset label 1005
unset label 1006
unset label 1007
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
set xrange [960:2040]
set yrange [0:108000]
# a 0 on a log axis is drawn at X0 or Y0, apart from the rest
X0 = 0
Y0 = 0
zx(v) = v
zy(v) = v
set xtics ('1000' 1000, '2000' 2000)
# the offered load of every cell
OFFERED = 60000
set label 998 'offered load 60 kpps' at graph 0.99, first OFFERED right offset 0,0.7 tc 'gray25'
set lmargin at screen 0.09440
set rmargin at screen 0.49680
set tmargin at screen 0.72523
set bmargin at screen 0.11464
set title 'rules=0' offset 0,-0.3
set xlabel ''
set ylabel ''
set format y '%.1s%c'
plot 'demo.dat' index 0 u (zx($1)):(zy($6)) w l lw 7 lc rgb '#a09400d3' notitle, \
     '' index 1 u (zx($1)):(zy($6)) w l lw 7 lc rgb '#a0009e73' notitle, \
     '' index 0 u (zx($1)):(zy($2)):(zy($3)):(zy($4)) w yerrorlines pt 7 ps 1.1 lw 1.5 dt 1 lc rgb '#9400d3' notitle, \
     '' index 1 u (zx($1)):(zy($2)):(zy($3)):(zy($4)) w yerrorlines pt 5 ps 1.1 lw 1.5 dt 2 lc rgb '#009e73' notitle, \
     OFFERED w l dt 3 lw 1.5 lc 'gray25' notitle
set lmargin at screen 0.57600
set rmargin at screen 0.97840
set tmargin at screen 0.72523
set bmargin at screen 0.11464
set title 'rules=10' offset 0,-0.3
set xlabel ''
set ylabel ''
set format y ''
plot 'demo.dat' index 2 u (zx($1)):(zy($6)) w l lw 7 lc rgb '#a09400d3' notitle, \
     '' index 3 u (zx($1)):(zy($6)) w l lw 7 lc rgb '#a0009e73' notitle, \
     '' index 2 u (zx($1)):(zy($2)):(zy($3)):(zy($4)) w yerrorlines pt 7 ps 1.1 lw 1.5 dt 1 lc rgb '#9400d3' notitle, \
     '' index 3 u (zx($1)):(zy($2)):(zy($3)):(zy($4)) w yerrorlines pt 5 ps 1.1 lw 1.5 dt 2 lc rgb '#009e73' notitle, \
     '' index 4 u (zx($1)):(zy($2)) w p pt 4 ps 2.4 lw 2 lc rgb '#b00020' notitle, \
     OFFERED w l dt 3 lw 1.5 lc 'gray25' notitle
unset multiplot
