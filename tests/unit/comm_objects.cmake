# Pure logic of groups, topologies, info objects, attributes and error
# codes (runtime/group.cpp ...), and the per-rank arrays of collectives
# (runtime/inline_vector.hpp), built from source: no library, no PMIx.
add_executable(comm_objects_unit_tests group_test.cpp topology_test.cpp info_attr_test.cpp inline_vector_test.cpp
  ${PROJECT_SOURCE_DIR}/runtime/group.cpp
  ${PROJECT_SOURCE_DIR}/runtime/topology.cpp
  ${PROJECT_SOURCE_DIR}/runtime/info.cpp
  ${PROJECT_SOURCE_DIR}/runtime/attributes.cpp
  ${PROJECT_SOURCE_DIR}/runtime/error_codes.cpp)
target_include_directories(comm_objects_unit_tests PRIVATE ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/include)
target_link_libraries(comm_objects_unit_tests PRIVATE GTest::gtest_main shmpi_warnings)
gtest_discover_tests(comm_objects_unit_tests PROPERTIES LABELS unit TIMEOUT 60)
