# Unit tests of the network layer's own logic, without UCX: the reorder
# buffer that puts a peer's active messages back in send order
# (net/reorder_buffer.hpp, header-only). Included from tests/unit/CMakeLists.txt.
add_executable(net_unit_tests ${CMAKE_CURRENT_LIST_DIR}/reorder_buffer_test.cpp)
target_include_directories(net_unit_tests PRIVATE ${PROJECT_SOURCE_DIR})
target_link_libraries(net_unit_tests PRIVATE GTest::gtest_main shmpi_warnings)
gtest_discover_tests(net_unit_tests PROPERTIES LABELS unit TIMEOUT 60 RESOURCE_LOCK ucx)  # see net_cases.cmake
