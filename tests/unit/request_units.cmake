# The MPI_Bsend buffer's slot arithmetic (runtime/bsend_buffer.cpp), built
# from source.
add_executable(bsend_buffer_unit_tests bsend_buffer_test.cpp ${PROJECT_SOURCE_DIR}/runtime/bsend_buffer.cpp)
target_include_directories(bsend_buffer_unit_tests PRIVATE ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/include)
target_link_libraries(bsend_buffer_unit_tests PRIVATE GTest::gtest_main shmpi_warnings)
gtest_discover_tests(bsend_buffer_unit_tests PROPERTIES LABELS unit TIMEOUT 60)
