# Ranks 0 and 1 on cores far apart (different dies or sockets): shmpirun
# measured a cache-line hand-off of 100 ns or more between them (on the EPYC
# VMs, 150-170 ns when the two vCPUs sit on different dies, 30-50 ns
# otherwise). Every line the ring moves crosses the dies twice, so a single
# copy wins from 4 KiB, as on Intel's meshes (profile intel, whose
# thresholds these are). Measured on 2-core EPYC VMs;
# docs/tunables/rndv_threshold.md.
profile far
match handoff_ns>=100
set eager_limit=2048
set rndv_threshold=4096
set split_threshold=65536
