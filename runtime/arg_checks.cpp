#include "runtime/arg_checks.hpp"


namespace shmpi::runtime {

Check check_count(int count) {
  if (count < 0) return ArgError{MPI_ERR_COUNT, "negative count " + std::to_string(count)};
  return std::nullopt;
}

Check check_buffer(const void* buffer, int count) {
  if (buffer == nullptr && count > 0)
    return ArgError{MPI_ERR_BUFFER, "null buffer with count " + std::to_string(count)};
  return std::nullopt;
}

Check check_buffer(const DatatypeTable& types, const void* buffer, int count, MPI_Datatype type) {
  if (types.is_derived(type)) return std::nullopt;
  return check_buffer(buffer, count);
}

Check check_datatype(const DatatypeTable& types, MPI_Datatype type, std::size_t& size) {
  const DatatypeInfo* info = types.find(type);
  if (info == nullptr && types.was_freed(type))
    return ArgError{MPI_ERR_TYPE, "datatype " + std::to_string(type) + " has been freed (MPI_Type_free)"};
  if (info == nullptr) return ArgError{MPI_ERR_TYPE, "invalid datatype " + std::to_string(type)};
  if (!info->committed)
    return ArgError{MPI_ERR_TYPE, "datatype " + std::to_string(type) + " is not committed (call MPI_Type_commit)"};
  size = info->size;
  return std::nullopt;
}

Check check_send_tag(int tag) {
  if (tag < 0 || tag > MPI_TAG_UB_VALUE)
    return ArgError{MPI_ERR_TAG, "invalid tag " + std::to_string(tag) + " (must be 0.." +
                                     std::to_string(MPI_TAG_UB_VALUE) + ")"};
  return std::nullopt;
}

Check check_recv_tag(int tag) {
  if (tag == MPI_ANY_TAG) return std::nullopt;
  return check_send_tag(tag);
}

Check check_dest(int rank, const Communicator& comm) {
  if (rank == MPI_PROC_NULL || (rank >= 0 && rank < comm.size)) return std::nullopt;
  return ArgError{MPI_ERR_RANK, "invalid rank " + std::to_string(rank) + " (" + comm.name + " has " +
                                    std::to_string(comm.size) + " ranks)"};
}

Check check_source(int rank, const Communicator& comm) {
  if (rank == MPI_ANY_SOURCE) return std::nullopt;
  return check_dest(rank, comm);
}

}  // namespace shmpi::runtime
