// shmpi_info --api: the MPI functions libshmpi provides, one per line.
// The list is generated from include/mpi.h when the project is configured
// (launcher/CMakeLists.txt), so it cannot drift from what mpi.h declares.
#pragma once

namespace shmpi::launcher {

// Prints the list and its length; returns the exit status (0).
int print_api_list();

}  // namespace shmpi::launcher
