# Cheap multi-process tests the tsan preset runs besides the "threads" ones
# (its test preset selects the labels "threads" and "tsan"): shmpirun with
# its PMIx server threads and a plain 2-rank exchange, so a TSan report in
# the launcher or the single-threaded paths fails CI too.
set_property(TEST hello.np2 order.10000 APPEND PROPERTY LABELS tsan)
add_dependencies(tsan_tests hello order)
