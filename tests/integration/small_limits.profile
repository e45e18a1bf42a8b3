# A user's profile for the SHMPI_PROFILE_FILE cases (info_cases.cmake):
# small limits, so a job takes every protocol path at a few KiB.
profile small_limits
match cpu_vendor=NoSuchVendor
set eager_limit=1024
set ring_size=8192
set rndv_threshold=4096
set max_fragment=1024
