# Ranks 0 and 1 on cores far apart (different dies or sockets): shmpirun
# measured a cache-line hand-off of 100 ns or more between them (on the EPYC
# VMs, 150-220 ns when the two vCPUs sit on different dies, 30-90 ns
# otherwise). Every line the ring moves crosses the dies twice, so a window
# of sends copies once from 8 KiB; a reply below 64 KiB (a ping-pong's, a
# sendrecv's, a 2-rank collective's) goes through the ring all the same:
# its peer waits to read it, and a rendezvous there cost 2-4x. A copy is
# split from 128 KiB: half of a split 64 KiB lands in the other die's
# cache, and osu_bw / osu_reduce at 64 KiB lost 2x / 1.3x to it. Measured on
# 2-core EPYC VMs; docs/tunables/rndv_threshold.md, reply_pipeline_limit.md.
profile far
match handoff_ns>=100
set eager_limit=4096
set rndv_threshold=8192
set reply_pipeline_limit=65536
set split_threshold=131072
