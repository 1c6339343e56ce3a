# Written by `ppslab plot` from /tmp/plots-keep2/rfc2544-throughput.json. Restyle freely and re-run from this directory:
#   gnuplot rfc2544-throughput.gp
set terminal pngcairo size 900,540 noenhanced font 'DejaVu Sans,10'
set output 'rfc2544-throughput.png'
set encoding utf8
set label 1000 'Throughput vs frame size (RFC 2544 §26.1)' at screen 0.5, screen 0.97630 center font ',11'
set label 1001 'DUT: Debian GNU/Linux 12 (bookworm) (6.18.44-fc-v857), AMD EPYC, 2 cores, veth ×2 10000 Mb/s, ppslab-rut 0.1.0' at screen 0.5, screen 0.94667 center font ',9'
set label 1002 'PDR = NDR at 5 of 7 points (open markers)' at screen 0.5, screen 0.92000 center font ',9'
set label 1003 'the rig''s own ceiling, 472 kpps, is above the plotted range' at screen 0.5, screen 0.89333 center font ',9'
set label 1004 'the 10 GbE line rate (14.9 Mpps at 64 B to 813 kpps at 1518 B) is above the plotted range' at screen 0.5, screen 0.86667 center font ',9'
set label 999 'rfc2544-throughput.json, run rfc2544-throughput-2026-12-02T05:20:47Z-5495, 2026-12-02' at screen 0.99333, screen 0.02111 right font ',8' tc 'gray40'
set xlabel 'frame size (bytes, with FCS)'
set ylabel 'throughput (frames/s)'
set grid lc 'gray85'
set border 3
set xtics nomirror
set ytics nomirror
set logscale x
set format y '%.1s%c'
set xrange [49.23076923:1973.4]
set yrange [0:52181.28]
# a 0 on a log axis is drawn at X0 or Y0, apart from the rest
X0 = 0
Y0 = 0
zx(v) = v
zy(v) = v
set xtics ('64' 64, '128' 128, '256' 256, '512' 512, '1024' 1024, '1280' 1280, '1518' 1518)
link_bps = 10000000000
# RFC 2544 §26.1: the theoretical maximum counts 20 bytes of preamble and gap
maxfps(x) = link_bps / ((x + 20) * 8)
set lmargin at screen 0.10489
set rmargin at screen 0.97600
set tmargin at screen 0.83111
set bmargin at screen 0.13630
unset title
set key top left opaque box lc 'gray80' samplen 2.5 spacing 0.95
plot 'rfc2544-throughput.dat' index 0 u (zx($1)):(zy($2)):(zy($3)):(zy($4)) w yerrorlines pt 7 ps 1.1 lw 1.5 dt 1 lc rgb '#9400d3' title 'NDR throughput (packets/s)', \
     '' index 1 u (zx($1)):(zy($2)):(zy($3)):(zy($4)) w yerrorlines pt 4 ps 2.2 lw 1.5 dt 2 lc rgb '#009e73' title 'PDR throughput (packets/s)'
