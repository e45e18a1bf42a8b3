# The run report: the pml's traffic counters (pml/traffic_stats.hpp) and the
# report's text (runtime/run_report_format.cpp, built from source).
add_executable(run_report_unit_tests traffic_stats_test.cpp run_report_format_test.cpp
               ${PROJECT_SOURCE_DIR}/runtime/run_report_format.cpp)
target_include_directories(run_report_unit_tests PRIVATE ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/include)
target_link_libraries(run_report_unit_tests PRIVATE shmpi_pml shmpi_warnings GTest::gtest_main)
gtest_discover_tests(run_report_unit_tests PROPERTIES LABELS unit TIMEOUT 60)
