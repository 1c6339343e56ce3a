# Written by `ppslab plot` from /tmp/plots-keep2/ipfw-counter-cost.json. Restyle freely and re-run from this directory:
#   gnuplot ipfw-counter-cost.gp
set terminal pngcairo size 1000,460 noenhanced font 'DejaVu Sans,10'
set output 'ipfw-counter-cost.png'
set encoding utf8
set label 1000 'fwd_pps vs rules' at screen 0.5, screen 0.97217 center font ',11'
set label 1001 'DUT: Debian GNU/Linux 12 (bookworm) (6.18.44-fc-v857), AMD EPYC, 2 cores, veth ×2 10000 Mb/s, ppslab-rut 0.1.0' at screen 0.5, screen 0.93739 center font ',9'
set label 999 'ipfw-counter-cost.json, run ipfw-counter-cost-2026-12-02T05:15:39Z-0d48, 2026-12-02' at screen 0.99400, screen 0.02478 right font ',8' tc 'gray40'
set label 1002 'firewall rules' at screen 0.53640, screen 0.07339 center
set label 1003 'forwarded rate (packets/s)' at screen 0.01200, screen 0.44652 center rotate by 90
set multiplot
# the key shared by the panels
set lmargin at screen 0.01
set rmargin at screen 0.99
set tmargin at screen 0.90870
set bmargin at screen 0.82000
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
plot NaN w linespoints pt 7 ps 1.1 lw 1.5 dt 1 lc rgb '#9400d3' title 'update_counters=1', \
     NaN w linespoints pt 5 ps 1.1 lw 1.5 dt 2 lc rgb '#009e73' title 'update_counters=0', \
     NaN w l lw 2 dt (6,3) lc rgb '#9400d3' title 'fit 1/(a + b·N), update_counters=1', \
     NaN w l lw 2 dt (6,3) lc rgb '#009e73' title 'fit 1/(a + b·N), update_counters=0', \
     NaN w l dt 4 lw 1.5 lc 'gray50' title 'rig ceiling 240 kpps'
unset label 1000
unset label 1001
unset label 1002
unset label 1003
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
set yrange [0:287801.3972]
# a 0 on a log axis is drawn at X0 or Y0, apart from the rest
X0 = 0
Y0 = 0
zx(v) = v
zy(v) = v
set xtics ('0' 0, '1' 1, '2' 2, '3' 3)
CEILING = 240083.9194
set lmargin at screen 0.09440
set rmargin at screen 0.49680
set tmargin at screen 0.60261
set bmargin at screen 0.16000
set title 'firewall=off'."\n".'update_counters=1: b = -237 ns/rule/frame,'."\n".'a = 6.03 µs, R² = 0.02'."\n".'update_counters=0: b = -1718 ns/rule/frame,'."\n".'a = 9.9 µs, R² = 0.61' offset 0,-0.3
set xlabel ''
set ylabel ''
set format y '%.1s%c'
plot 'ipfw-counter-cost.dat' index 0 u (zx($1)):(zy($2)):(zy($3)):(zy($4)) w yerrorlines pt 7 ps 1.1 lw 1.5 dt 1 lc rgb '#9400d3' notitle, \
     '' index 1 u (zx($1)):(zy($2)):(zy($3)):(zy($4)) w yerrorlines pt 5 ps 1.1 lw 1.5 dt 2 lc rgb '#009e73' notitle, \
     '' index 4 u (zx($1)):(zy($2)) w l lw 2 dt (6,3) lc rgb '#9400d3' notitle, \
     '' index 5 u (zx($1)):(zy($2)) w l lw 2 dt (6,3) lc rgb '#009e73' notitle, \
     CEILING w l dt 4 lw 1.5 lc 'gray50' notitle
set lmargin at screen 0.57600
set rmargin at screen 0.97840
set tmargin at screen 0.60261
set bmargin at screen 0.16000
set title 'firewall=on'."\n".'update_counters=1: b = 973 ns/rule/frame,'."\n".'a = 3.69 µs, R² = 0.64'."\n".'update_counters=0: b = 1309 ns/rule/frame,'."\n".'a = 4.46 µs, R² = 0.74' offset 0,-0.3
set xlabel ''
set ylabel ''
set format y ''
plot 'ipfw-counter-cost.dat' index 2 u (zx($1)):(zy($2)):(zy($3)):(zy($4)) w yerrorlines pt 7 ps 1.1 lw 1.5 dt 1 lc rgb '#9400d3' notitle, \
     '' index 3 u (zx($1)):(zy($2)):(zy($3)):(zy($4)) w yerrorlines pt 5 ps 1.1 lw 1.5 dt 2 lc rgb '#009e73' notitle, \
     '' index 6 u (zx($1)):(zy($2)) w l lw 2 dt (6,3) lc rgb '#9400d3' notitle, \
     '' index 7 u (zx($1)):(zy($2)) w l lw 2 dt (6,3) lc rgb '#009e73' notitle, \
     CEILING w l dt 4 lw 1.5 lc 'gray50' notitle
unset multiplot
