# Written by `ppslab plot` from /tmp/ppslab-examples.3O6SU5/dragonfly-hz-sweep.json. Restyle freely and re-run from this directory:
#   gnuplot dragonfly-hz-sweep.gp
set terminal pngcairo size 900,540 noenhanced font 'DejaVu Sans,10'
set output 'dragonfly-hz-sweep.png'
set title 'fwd_pps vs pollhz (firewall=off)'."\n".'DUT: Debian GNU/Linux 12 (bookworm) (6.18.44-fc-v857), AMD EPYC, 2 cores, veth ×2 10000 Mb/s, ppslab-rut 0.1.0'
set label 99 'dragonfly-hz-sweep.json, run dragonfly-hz-sweep-2026-12-02T05:30:00Z-1c32, 2026-12-02' at screen 0.995, screen 0.012 right font ',8' tc 'gray40'
set bmargin 4.5
set grid
set key top left
set xlabel 'polling clock kern.polling.pollhz (Hz)'
set ylabel 'forwarded rate (packets/s)'
set format y '%.1s%c'
set yrange [0:*]
set offsets graph 0.03, graph 0.03, 0, 0
plot 'dragonfly-hz-sweep.dat' index 0 u 1:2:3:4 w yerrorlines pt 7 lw 1.5 title 'direction=uni', \
     '' index 1 u 1:2:3:4 w yerrorlines pt 7 lw 1.5 title 'direction=bi'
