# Reduction kernels (runtime/reduce_op.cpp), built from source so the tests
# need neither the shared library nor PMIx.
add_executable(reduce_op_unit_tests
  reduce_op_test.cpp
  ${PROJECT_SOURCE_DIR}/runtime/reduce_op.cpp
  ${PROJECT_SOURCE_DIR}/runtime/datatype.cpp)
target_include_directories(reduce_op_unit_tests PRIVATE
  ${PROJECT_SOURCE_DIR}
  ${PROJECT_SOURCE_DIR}/include)
target_link_libraries(reduce_op_unit_tests PRIVATE shmpi_datatype GTest::gtest_main shmpi_warnings)
gtest_discover_tests(reduce_op_unit_tests PROPERTIES LABELS unit TIMEOUT 60)
