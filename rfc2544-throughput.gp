# Written by `ppslab plot` from /tmp/rfc.json. Restyle freely and re-run from this directory:
#   gnuplot rfc2544-throughput.gp
set terminal pngcairo size 900,540 noenhanced font 'DejaVu Sans,10'
set output 'rfc2544-throughput.png'
set title 'Throughput vs frame size (RFC 2544 §26.1)'."\n".'DUT: Debian GNU/Linux 12 (bookworm) (6.18.44-fc-v857), Intel(R) Xeon(R) Processor, 2 cores, veth ×2 10000 Mb/s, ppslab-rut 0.1.0'
set label 99 'rfc.json, run rfc2544-throughput-2026-12-01T14:52:30Z-5131, 2026-12-01' at screen 0.995, screen 0.012 right font ',8' tc 'gray40'
set bmargin 4.5
set grid
set key top left
set xlabel 'frame size (bytes, with FCS)'
set ylabel 'throughput (frames/s)'
set format y '%.1s%c'
set yrange [0:*]
set logscale x 2
set key top right box opaque
set xrange [55.6522:294.4]
set xtics (64, 256)
link_bps = 10000000000
maxfps(x) = link_bps / ((x + 20) * 8)
plot maxfps(x) w l dt 2 lw 2 lc 'gray30' title 'theoretical maximum, 10 GbE', \
     'rfc2544-throughput.dat' index 0 u 1:2:3:4 w yerrorlines pt 7 lw 1.5 title 'NDR throughput (packets/s)', \
     '' index 1 u 1:2:3:4 w yerrorlines pt 7 lw 1.5 title 'PDR throughput (packets/s)'
