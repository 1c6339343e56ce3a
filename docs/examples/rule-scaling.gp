# Written by `ppslab plot` from /tmp/ppslab-examples.vR1Zw5/rule-scaling.json. Restyle freely and re-run from this directory:
#   gnuplot rule-scaling.gp
set terminal pngcairo size 900,540 noenhanced font 'DejaVu Sans,10'
set output 'rule-scaling.png'
set title 'fwd_pps vs rules'."\n".'DUT: Debian GNU/Linux 12 (bookworm) (6.18.44-fc-v857), Intel(R) Xeon(R) Processor, 2 cores, veth ×2 10000 Mb/s, ppslab-rut 0.1.0'
set label 99 'rule-scaling.json, run rule-scaling-2026-12-01T14:53:13Z-5273, 2026-12-01' at screen 0.995, screen 0.012 right font ',8' tc 'gray40'
set bmargin 4.5
set grid
set key top left
set xlabel 'firewall rules'
set ylabel 'forwarded rate (packets/s)'
set format y '%.1s%c'
set yrange [0:*]
set offsets graph 0.03, graph 0.03, 0, 0
plot 'rule-scaling.dat' index 0 u 1:2:3:4 w yerrorlines pt 7 lw 1.5 title 'forwarded rate (packets/s)'
