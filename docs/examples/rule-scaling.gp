# Written by `ppslab plot` from rule-scaling.json. Restyle freely and re-run from this directory:
#   gnuplot rule-scaling.gp
set terminal pngcairo size 900,540 noenhanced font 'DejaVu Sans,10'
if (!exists('ppslab_output')) ppslab_output = 'rule-scaling.png'
set output ppslab_output
set encoding utf8
set label 1000 'Forwarded rate vs firewall rules' at screen 0.5, screen 0.97630 center font ',11'
set label 1001 'DUT: Debian GNU/Linux 12 (bookworm) (6.18.44-fc-v1272), AMD EPYC, 2 cores, veth ×2 10000 Mb/s, ppslab-rut 0.1.0' at screen 0.5, screen 0.94667 center font ',9'
set label 1002 'x logarithmic: 0 is drawn apart at the left, past the dotted line' at screen 0.5, screen 0.92000 center font ',9'
set label 1003 'no rule cost visible (a fit of 1/(a + b·N) gives b = 2.69 ns per rule, R² = 0.21; drawn only for b > 0 and R² ≥ 0.7)' at screen 0.5, screen 0.89333 center font ',9'
set label 1004 'the rig''s own ceiling, 160 kpps, is above the plotted range' at screen 0.5, screen 0.86667 center font ',9'
set label 999 'rule-scaling.json, run rule-scaling-2026-12-04T21:46:07Z-6677, 2026-12-04' at screen 0.99333, screen 0.02111 right font ',8' tc 'gray40'
set xlabel 'firewall rules'
set ylabel 'forwarded rate (packets/s)'
set grid lc 'gray85'
set border 3
set xtics nomirror
set ytics nomirror
set logscale x
set format y '%.1s%c'
set xrange [19.23076923:26000]
set yrange [0:53435.47066]
# a 0 on a log axis is drawn at X0 or Y0, apart from the rest
X0 = 25
Y0 = 0
zx(v) = (v == 0 ? X0 : v)
zy(v) = v
set xtics ('0' 25, '100' 100, '1k' 1000, '5k' 5000, '10k' 10000, '20k' 20000)
set arrow 1 from 50, graph 0 to 50, graph 1 nohead dt 3 lc 'gray50'
set lmargin at screen 0.10489
set rmargin at screen 0.97600
set tmargin at screen 0.83111
set bmargin at screen 0.13630
unset title
set key top left opaque box lc 'gray80' samplen 2.5 spacing 0.95
plot 'rule-scaling.dat' index 0 u (zx($1)):(zy($2)):(zy($3)):(zy($4)) w yerrorlines pt 7 ps 1.1 lw 1.5 dt 1 lc rgb '#9400d3' title 'forwarded rate (packets/s)'
