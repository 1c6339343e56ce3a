# Written by `ppslab plot` from polling-vs-interrupt.json. Restyle freely and re-run from this directory:
#   gnuplot polling-vs-interrupt.gp
set terminal pngcairo size 1000,793 noenhanced font 'DejaVu Sans,10'
if (!exists('ppslab_output')) ppslab_output = 'polling-vs-interrupt.png'
set output ppslab_output
set encoding utf8
set label 1000 'Maximum forwarding rate vs burst_max' at screen 0.5, screen 0.98386 center font ',11'
set label 1001 'DUT: Debian GNU/Linux 12 (bookworm) (6.18.44-fc-v1272), AMD EPYC, 2 cores, veth ×2 10000 Mb/s, ppslab-rut 0.1.0' at screen 0.5, screen 0.96368 center font ',9'
set label 1002 '8 flagged cells (framed markers): a repetition failed a consistency check or missed its offered load (see the table)' at screen 0.5, screen 0.94552 center font ',9'
set label 1003 '5 cells: forwarded more than offered: forwarded 21733 pps > offered 19999 pps + 0.500 % pacing + 7 pps resolution (20106 pps);' at screen 0.5, screen 0.92736 center font ',9'
set label 1004 'a router cannot forward more than it is of...' at screen 0.5, screen 0.90921 center font ',9'
set label 1005 '4 cells: poll clock lost ticks: 626 of 3447 deadlines passed without a tick (18.16 % > 1 %): the host delayed the forwarding thread (3 of 4 trials)' at screen 0.5, screen 0.89105 center font ',9'
set label 1006 '7 cells: offered load missed its target: gen stream 1: rate error +1.062 %, shortfall +0.000 %; tolerance 0.500 % (2 of 4 trials)' at screen 0.5, screen 0.87289 center font ',9'
set label 1007 '3 cells: at the rig''s own ceiling (125011 pps): the sender or sink, not the router, may be the limit' at screen 0.5, screen 0.85473 center font ',9'
set label 1008 'pale bands: the polling bound, pollhz × burst_max frames/s per receiving port' at screen 0.5, screen 0.83657 center font ',9'
set label 999 'polling-vs-interrupt.json, run polling-vs-interrupt-2026-12-04T21:44:31Z-2252, 2026-12-04' at screen 0.99400, screen 0.01438 right font ',8' tc 'gray40'
set label 1009 'kern.polling.burst_max (frames)' at screen 0.53640, screen 0.04257 center
set label 1010 'maximum forwarding rate (packets/s)' at screen 0.01200, screen 0.40542 center rotate by 90
set multiplot
# the key shared by the panels
set lmargin at screen 0.01
set rmargin at screen 0.99
set tmargin at screen 0.81992
set bmargin at screen 0.76847
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
plot NaN w l lw 7 lc rgb '#a09400d3' title 'pollhz × burst_max, mode=poll', \
     NaN w linespoints pt 7 ps 1.1 lw 1.5 dt 1 lc rgb '#9400d3' title 'mode=poll', \
     NaN w linespoints pt 5 ps 1.1 lw 1.5 dt 2 lc rgb '#009e73' title 'mode=intr', \
     NaN w p pt 6 ps 1.3 lw 2 lc rgb '#9400d3' title 'mode=poll leaves the bound', \
     NaN w p pt 4 ps 1.3 lw 2 lc rgb '#b00020' title 'flagged (see table)', \
     NaN w l dt 4 lw 1.5 lc 'gray50' title 'rig ceiling 125 kpps'
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
unset label 999

# the panels
unset key
set xlabel 'kern.polling.burst_max (frames)'
set ylabel 'maximum forwarding rate (packets/s)'
set grid lc 'gray85'
set border 3
set xtics nomirror
set ytics nomirror
set format y '%.1s%c'
set xrange [14.8:155.2]
set yrange [0:324000]
# a 0 on a log axis is drawn at X0 or Y0, apart from the rest
X0 = 0
Y0 = 0
zx(v) = v
zy(v) = v
set xtics ('20' 20, '150' 150)
CEILING = 125010.6337
set lmargin at screen 0.09440
set rmargin at screen 0.49680
set tmargin at screen 0.70290
set bmargin at screen 0.09281
set title 'idle_poll=0'."\n".'mode=poll: leaves the bound at burst_max=150' offset 0,-0.3
set xlabel ''
set ylabel ''
set format y '%.1s%c'
plot 'polling-vs-interrupt.dat' index 0 u (zx($1)):(zy($6)) w l lw 7 lc rgb '#a09400d3' notitle, \
     '' index 0 u (zx($1)):(zy($2)):(zy($3)):(zy($4)) w yerrorlines pt 7 ps 1.1 lw 1.5 dt 1 lc rgb '#9400d3' notitle, \
     '' index 1 u (zx($1)):(zy($2)):(zy($3)):(zy($4)) w yerrorlines pt 5 ps 1.1 lw 1.5 dt 2 lc rgb '#009e73' notitle, \
     '' index 4 u (zx($1)):(zy($2)) w p pt 6 ps 3.2 lw 2 lc rgb '#9400d3' notitle, \
     '' index 5 u (zx($1)):(zy($2)) w p pt 4 ps 2.4 lw 2 lc rgb '#b00020' notitle, \
     CEILING w l dt 4 lw 1.5 lc 'gray50' notitle
set lmargin at screen 0.57600
set rmargin at screen 0.97840
set tmargin at screen 0.70290
set bmargin at screen 0.09281
set title 'idle_poll=1'."\n".' ' offset 0,-0.3
set xlabel ''
set ylabel ''
set format y ''
plot 'polling-vs-interrupt.dat' index 2 u (zx($1)):(zy($2)):(zy($3)):(zy($4)) w yerrorlines pt 7 ps 1.1 lw 1.5 dt 1 lc rgb '#9400d3' notitle, \
     '' index 3 u (zx($1)):(zy($2)):(zy($3)):(zy($4)) w yerrorlines pt 5 ps 1.1 lw 1.5 dt 2 lc rgb '#009e73' notitle, \
     '' index 6 u (zx($1)):(zy($2)) w p pt 4 ps 2.4 lw 2 lc rgb '#b00020' notitle, \
     CEILING w l dt 4 lw 1.5 lc 'gray50' notitle
unset multiplot
