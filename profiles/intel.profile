# Intel CPUs: a line crossing cores costs more and a contiguous CMA less than
# on EPYC, a CMA across many runs more (its pages pinned run by run).
# Measured on 2-core Xeon VMs (Sapphire Rapids class); docs/tunables/<name>.md.
profile intel
match cpu_vendor=GenuineIntel
set eager_limit=2048
set rndv_threshold=4096
set reply_pipeline_limit=5632
set split_threshold=65536
set claim_ahead_from=256
set claim_ahead_limit=5696
set poll_gap_ns=40
set run_copy_min=4096
