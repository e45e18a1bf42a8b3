// shmpi: a small, header-only C++20 API over the MPI C API (mpi.h).
//
//   shmpi::Environment env(argc, argv);        // MPI_Init .. MPI_Finalize
//   shmpi::Comm world = env.world();           // non-owning view
//   std::vector<int> v(4);
//   if (world.rank() == 0) world.send(std::span<const int>(v), 1, /*tag=*/7);
//   else shmpi::Status s = world.recv(v, 0, 7); // s.source(), s.count<int>()
//   shmpi::Request r = world.irecv(v, shmpi::any_source);  // move-only
//   r.wait();                                   // its destructor would wait too
//   int total = world.allreduce(world.rank(), shmpi::Op::sum);
//   shmpi::UniqueComm half = world.split(world.rank() % 2);  // freed by RAII
//
// The pieces (each header states its contract):
//   shmpi/cxx_error.hpp        shmpi::Error: the single error style
//   shmpi/cxx_datatype.hpp     Transferable, Reducible, datatype_of<T>, buffers
//   shmpi/cxx_status.hpp       Status, any_source, any_tag, proc_null, undefined
//   shmpi/cxx_request.hpp      Request (waits when destroyed), wait_all
//   shmpi/cxx_p2p.hpp          send, ssend, recv, sendrecv, probe, iprobe,
//                              isend, issend, irecv
//   shmpi/cxx_collectives.hpp  Op, barrier, bcast, reduce, allreduce
//   shmpi/cxx_comm.hpp         Comm (view), UniqueComm (owner), dup, split
//   shmpi/cxx_environment.hpp  Environment, ThreadLevel, wtime
//
// Threads: the API keeps no state of its own. Under ThreadLevel::multiple a
// Comm may be used for point-to-point by many threads at once, collectives
// need one communicator per thread, and a Request belongs to one thread at a
// time (never wait on it from two). Details: docs/cxx_threads.md.
#ifndef SHMPI_HPP
#define SHMPI_HPP

#include <shmpi/cxx_environment.hpp>

#endif  // SHMPI_HPP
