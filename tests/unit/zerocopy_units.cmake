# Zero-copy non-contiguous transfers: the run-pair batches
# (datatype/run_pairs.hpp, btl SingleCopy::read_runs) and the pml moving
# RunLayouts (pml/run_layout.hpp).
add_executable(zerocopy_unit_tests run_pairs_test.cpp pml_runs_test.cpp)
target_link_libraries(zerocopy_unit_tests PRIVATE shmpi_pml shmpi_datatype shmpi_warnings GTest::gtest_main)
gtest_discover_tests(zerocopy_unit_tests PROPERTIES LABELS unit TIMEOUT 60)
