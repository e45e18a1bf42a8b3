# The base profile: every tunable's default wherever no other profile matches.
# Measured on 2-core AMD EPYC machines; why each value: docs/tunables/<name>.md.
profile general
match any
set eager_limit=8192
set ring_size=131072
set segment_budget=16777216
set max_fragment=16384
set rndv_threshold=16384
set reply_pipeline_limit=0
set split_threshold=65536
set run_copy_min=1024
set claim_ahead_from=1024
set claim_ahead_limit=2112
set unexpected_budget=4194304
set coll_shm_limit=8192
set single_copy=cma
set rndv_route=auto
set numa_policy=local
set wait_policy=auto
set fast_box=on
set box_probe=on
set poll_gap_ns=0
set test_cma_eperm=0
set test_stand_by_timeout=on
set test_sleep_at_once=off
set test_available_memory=0
