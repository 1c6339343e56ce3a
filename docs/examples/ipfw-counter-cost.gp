# Written by `ppslab plot` from ipfw-counter-cost.json. Restyle freely and re-run from this directory:
#   gnuplot ipfw-counter-cost.gp
set terminal pngcairo size 1000,1398 noenhanced font 'DejaVu Sans,10'
if (!exists('ppslab_output')) ppslab_output = 'ipfw-counter-cost.png'
set output ppslab_output
set encoding utf8
set label 1000 'Forwarded rate vs firewall rules' at screen 0.5, screen 0.99084 center font ',11'
set label 1001 'DUT: Debian GNU/Linux 12 (bookworm) (6.18.44-fc-v1272), AMD EPYC, 2 cores, veth ×2 10000 Mb/s, ppslab-rut 0.1.0' at screen 0.5, screen 0.97940 center font ',9'
set label 1002 '7 flagged cells (framed markers): a repetition failed a consistency check or missed its offered load (see the table)' at screen 0.5, screen 0.96910 center font ',9'
set label 1003 '7 cells: forwarded more than offered: forwarded 93645 pps > offered 91972 pps + 0.500 % pacing + 11 pps resolution (92443 pps);' at screen 0.5, screen 0.95880 center font ',9'
set label 1004 'a router cannot forward more than it is o...' at screen 0.5, screen 0.94850 center font ',9'
set label 1005 'counters=shared in firewall=off, update_counters=1: no rule cost visible (a fit of 1/(a + b·N) gives b = -1.21e+03 ns per rule, R² = 0.17;' at screen 0.5, screen 0.93820 center font ',9'
set label 1006 'drawn only for b > 0 and R² ≥ 0.7)' at screen 0.5, screen 0.92790 center font ',9'
set label 1007 'counters=percpu in firewall=off, update_counters=1: no rule cost visible (a fit of 1/(a + b·N) gives b = 1.07e+03 ns per rule, R² = 0.51;' at screen 0.5, screen 0.91760 center font ',9'
set label 1008 'drawn only for b > 0 and R² ≥ 0.7)' at screen 0.5, screen 0.90730 center font ',9'
set label 1009 'counters=shared in firewall=off, update_counters=0: no rule cost visible (a fit of 1/(a + b·N) gives b = -2.85e+03 ns per rule, R² = 0.55;' at screen 0.5, screen 0.89700 center font ',9'
set label 1010 'drawn only for b > 0 and R² ≥ 0.7)' at screen 0.5, screen 0.88670 center font ',9'
set label 1011 'counters=percpu in firewall=off, update_counters=0: no rule cost visible (a fit of 1/(a + b·N) gives b = 949 ns per rule, R² = 0.14;' at screen 0.5, screen 0.87639 center font ',9'
set label 1012 'drawn only for b > 0 and R² ≥ 0.7)' at screen 0.5, screen 0.86609 center font ',9'
set label 1013 'counters=percpu in firewall=on, update_counters=1: no rule cost visible (a fit of 1/(a + b·N) gives b = 1.02e+03 ns per rule, R² = 0.11;' at screen 0.5, screen 0.85579 center font ',9'
set label 1014 'drawn only for b > 0 and R² ≥ 0.7)' at screen 0.5, screen 0.84549 center font ',9'
set label 1015 'counters=shared in firewall=on, update_counters=0: no rule cost visible (a fit of 1/(a + b·N) gives b = -3.04e+03 ns per rule, R² = 0.27;' at screen 0.5, screen 0.83519 center font ',9'
set label 1016 'drawn only for b > 0 and R² ≥ 0.7)' at screen 0.5, screen 0.82489 center font ',9'
set label 1017 'counters=percpu in firewall=on, update_counters=0: no rule cost visible (a fit of 1/(a + b·N) gives b = 2.07e+03 ns per rule, R² = 0.22;' at screen 0.5, screen 0.81459 center font ',9'
set label 1018 'drawn only for b > 0 and R² ≥ 0.7)' at screen 0.5, screen 0.80429 center font ',9'
set label 999 'ipfw-counter-cost.json, run ipfw-counter-cost-2026-12-04T21:42:04Z-5057, 2026-12-04' at screen 0.99400, screen 0.00815 right font ',8' tc 'gray40'
set label 1019 'firewall rules' at screen 0.53640, screen 0.02415 center
set label 1020 'forwarded rate (packets/s)' at screen 0.01200, screen 0.39485 center rotate by 90
set multiplot
# the key shared by the panels
set lmargin at screen 0.01
set rmargin at screen 0.99
set tmargin at screen 0.79485
set bmargin at screen 0.76567
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
plot NaN w linespoints pt 7 ps 1.1 lw 1.5 dt 1 lc rgb '#9400d3' title 'counters=shared', \
     NaN w linespoints pt 5 ps 1.1 lw 1.5 dt 2 lc rgb '#009e73' title 'counters=percpu', \
     NaN w l lw 2 dt (6,3) lc rgb '#9400d3' title 'fit 1/(a + b·N), counters=shared', \
     NaN w p pt 4 ps 1.3 lw 2 lc rgb '#b00020' title 'flagged (see table)', \
     NaN w l dt 4 lw 1.5 lc 'gray50' title 'rig ceiling 295 kpps'
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
unset label 1013
unset label 1014
unset label 1015
unset label 1016
unset label 1017
unset label 1018
unset label 1019
unset label 1020
unset label 999

# the panels
unset key
set xlabel 'firewall rules'
set ylabel 'forwarded rate (packets/s)'
set grid lc 'gray85'
set border 3
set xtics nomirror
set ytics nomirror
set format y '%.1s%c'
set xrange [0:3.12]
set yrange [0:318181.3877]
# a 0 on a log axis is drawn at X0 or Y0, apart from the rest
X0 = 0
Y0 = 0
zx(v) = v
zy(v) = v
set xtics ('0' 0, '1' 1, '2' 2, '3' 3)
CEILING = 294612.396
set lmargin at screen 0.09440
set rmargin at screen 0.49680
set tmargin at screen 0.71702
set bmargin at screen 0.41202
set title 'firewall=off, update_counters=1'."\n".' '."\n".' ' offset 0,-0.3
set xlabel ''
set ylabel ''
set format y '%.1s%c'
plot 'ipfw-counter-cost.dat' index 0 u (zx($1)):(zy($2)):(zy($3)):(zy($4)) w yerrorlines pt 7 ps 1.1 lw 1.5 dt 1 lc rgb '#9400d3' notitle, \
     '' index 1 u (zx($1)):(zy($2)):(zy($3)):(zy($4)) w yerrorlines pt 5 ps 1.1 lw 1.5 dt 2 lc rgb '#009e73' notitle, \
     '' index 9 u (zx($1)):(zy($2)) w p pt 4 ps 2.4 lw 2 lc rgb '#b00020' notitle, \
     CEILING w l dt 4 lw 1.5 lc 'gray50' notitle
set lmargin at screen 0.57600
set rmargin at screen 0.97840
set tmargin at screen 0.71702
set bmargin at screen 0.41202
set title 'firewall=off, update_counters=0'."\n".' '."\n".' ' offset 0,-0.3
set xlabel ''
set ylabel ''
set format y ''
plot 'ipfw-counter-cost.dat' index 2 u (zx($1)):(zy($2)):(zy($3)):(zy($4)) w yerrorlines pt 7 ps 1.1 lw 1.5 dt 1 lc rgb '#9400d3' notitle, \
     '' index 3 u (zx($1)):(zy($2)):(zy($3)):(zy($4)) w yerrorlines pt 5 ps 1.1 lw 1.5 dt 2 lc rgb '#009e73' notitle, \
     '' index 10 u (zx($1)):(zy($2)) w p pt 4 ps 2.4 lw 2 lc rgb '#b00020' notitle, \
     CEILING w l dt 4 lw 1.5 lc 'gray50' notitle
set lmargin at screen 0.09440
set rmargin at screen 0.49680
set tmargin at screen 0.35765
set bmargin at screen 0.05265
set title 'firewall=on, update_counters=1'."\n".'counters=shared: b = 3069 ns/rule/frame,'."\n".'a = 9.78 µs, R² = 0.81' offset 0,-0.3
set xlabel ''
set ylabel ''
set format y '%.1s%c'
plot 'ipfw-counter-cost.dat' index 4 u (zx($1)):(zy($2)):(zy($3)):(zy($4)) w yerrorlines pt 7 ps 1.1 lw 1.5 dt 1 lc rgb '#9400d3' notitle, \
     '' index 5 u (zx($1)):(zy($2)):(zy($3)):(zy($4)) w yerrorlines pt 5 ps 1.1 lw 1.5 dt 2 lc rgb '#009e73' notitle, \
     '' index 8 u (zx($1)):(zy($2)) w l lw 2 dt (6,3) lc rgb '#9400d3' notitle, \
     CEILING w l dt 4 lw 1.5 lc 'gray50' notitle
set lmargin at screen 0.57600
set rmargin at screen 0.97840
set tmargin at screen 0.35765
set bmargin at screen 0.05265
set title 'firewall=on, update_counters=0'."\n".' '."\n".' ' offset 0,-0.3
set xlabel ''
set ylabel ''
set format y ''
plot 'ipfw-counter-cost.dat' index 6 u (zx($1)):(zy($2)):(zy($3)):(zy($4)) w yerrorlines pt 7 ps 1.1 lw 1.5 dt 1 lc rgb '#9400d3' notitle, \
     '' index 7 u (zx($1)):(zy($2)):(zy($3)):(zy($4)) w yerrorlines pt 5 ps 1.1 lw 1.5 dt 2 lc rgb '#009e73' notitle, \
     '' index 11 u (zx($1)):(zy($2)) w p pt 4 ps 2.4 lw 2 lc rgb '#b00020' notitle, \
     CEILING w l dt 4 lw 1.5 lc 'gray50' notitle
unset multiplot
