# Unit tests of single copy (CMA) and NUMA placement. Included from
# tests/unit/CMakeLists.txt; needs GoogleTest (include(GoogleTest) done by
# tests/CMakeLists.txt), PkgConfig::NUMA, Threads and shmpi_warnings.
# The btl sources are compiled in directly so the tests do not depend on
# what shmpi_btl lists.
set(_shmpi_btl_extra_dir ${CMAKE_CURRENT_LIST_DIR})

add_executable(single_copy_unit_tests
  ${_shmpi_btl_extra_dir}/single_copy_test.cpp
  ${PROJECT_SOURCE_DIR}/btl/single_copy.cpp
  ${PROJECT_SOURCE_DIR}/btl/numa_placement.cpp
  ${PROJECT_SOURCE_DIR}/btl/segment.cpp)
target_include_directories(single_copy_unit_tests PRIVATE ${PROJECT_SOURCE_DIR})
target_link_libraries(single_copy_unit_tests PRIVATE
  PkgConfig::NUMA GTest::gtest_main shmpi_warnings Threads::Threads)
gtest_discover_tests(single_copy_unit_tests PROPERTIES LABELS unit TIMEOUT 60)

add_executable(numa_placement_unit_tests
  ${_shmpi_btl_extra_dir}/numa_placement_test.cpp
  ${PROJECT_SOURCE_DIR}/btl/single_copy.cpp
  ${PROJECT_SOURCE_DIR}/btl/numa_placement.cpp
  ${PROJECT_SOURCE_DIR}/btl/segment.cpp)
target_include_directories(numa_placement_unit_tests PRIVATE ${PROJECT_SOURCE_DIR})
target_link_libraries(numa_placement_unit_tests PRIVATE
  PkgConfig::NUMA GTest::gtest_main shmpi_warnings Threads::Threads)
gtest_discover_tests(numa_placement_unit_tests PROPERTIES LABELS unit TIMEOUT 60)

unset(_shmpi_btl_extra_dir)
