// shmpi C++ API: collective operations, shared by Comm and UniqueComm.
//
// Every rank of the communicator makes the same call with the same root,
// operation and element count. Reductions take Reducible elements only
// (types with a predefined MPI datatype, see cxx_datatype.hpp); whether an
// operation applies to a type (Op::band on double does not) is checked by
// the runtime and reported as shmpi::Error with code MPI_ERR_OP.
#ifndef SHMPI_CXX_COLLECTIVES_HPP
#define SHMPI_CXX_COLLECTIVES_HPP

#include <shmpi/cxx_datatype.hpp>

#include <concepts>

namespace shmpi {

// The predefined reduction operations (MPI-3.1 §5.9.2).
enum class Op : MPI_Op {
  max = MPI_MAX,
  min = MPI_MIN,
  sum = MPI_SUM,
  prod = MPI_PROD,
  land = MPI_LAND,
  band = MPI_BAND,
  lor = MPI_LOR,
  bor = MPI_BOR,
  lxor = MPI_LXOR,
  bxor = MPI_BXOR,
};

namespace detail {

template <class In, class Out>
concept ReduceBuffers = SendBuffer<In> && RecvBuffer<Out> && Reducible<buffer_value_t<In>> &&
                        std::same_as<buffer_value_t<In>, buffer_value_t<Out>>;

template <class Self>
class Collectives {
 public:
  // Returns once every rank has entered the barrier.
  void barrier() const { check(MPI_Barrier(comm()), "MPI_Barrier"); }

  // Root's `data` is copied into every other rank's `data`.
  template <class B>
    requires RecvBuffer<B&&>
  void bcast(B&& data, int root) const {
    const auto b = recv_buffer(data, "MPI_Bcast");
    check(MPI_Bcast(b.data, b.count, b.type, root, comm()), "MPI_Bcast");
  }

  // Combines every rank's `in` element-wise with `op` into root's `out`;
  // `out` must be as long as `in` at the root and is ignored (may be
  // empty) elsewhere.
  template <class In, class Out>
    requires ReduceBuffers<In, Out&&>
  void reduce(const In& in, Out&& out, Op op, int root) const {
    const auto s = send_buffer(in, "MPI_Reduce");
    const auto r = recv_buffer(out, "MPI_Reduce");
    if (r.count != s.count && my_rank() == root)
      raise(MPI_ERR_COUNT, "MPI_Reduce", "receive buffer and send buffer differ in length");
    check(MPI_Reduce(s.data, r.data, s.count, s.type, static_cast<MPI_Op>(op), root, comm()),
          "MPI_Reduce");
  }

  // reduce() where the root's contribution is also its result buffer
  // (MPI_IN_PLACE); other ranks' `data` is only read.
  template <class B>
    requires ReduceBuffers<B&&, B&&>
  void reduce_in_place(B&& data, Op op, int root) const {
    const auto b = recv_buffer(data, "MPI_Reduce");
    const bool at_root = my_rank() == root;
    check(MPI_Reduce(at_root ? MPI_IN_PLACE : b.data, at_root ? b.data : nullptr, b.count, b.type,
                     static_cast<MPI_Op>(op), root, comm()),
          "MPI_Reduce");
  }

  // Combines every rank's `in` element-wise into every rank's `out`,
  // which must be as long as `in`.
  template <class In, class Out>
    requires ReduceBuffers<In, Out&&>
  void allreduce(const In& in, Out&& out, Op op) const {
    const auto s = send_buffer(in, "MPI_Allreduce");
    const auto r = recv_buffer(out, "MPI_Allreduce");
    if (r.count != s.count)
      raise(MPI_ERR_COUNT, "MPI_Allreduce", "receive buffer and send buffer differ in length");
    check(MPI_Allreduce(s.data, r.data, s.count, s.type, static_cast<MPI_Op>(op), comm()),
          "MPI_Allreduce");
  }

  // allreduce() with `data` as both contribution and result (MPI_IN_PLACE).
  template <class B>
    requires ReduceBuffers<B&&, B&&>
  void allreduce_in_place(B&& data, Op op) const {
    const auto b = recv_buffer(data, "MPI_Allreduce");
    check(MPI_Allreduce(MPI_IN_PLACE, b.data, b.count, b.type, static_cast<MPI_Op>(op), comm()),
          "MPI_Allreduce");
  }

  // One value in, the combined value out: `int total = comm.allreduce(n, Op::sum);`
  template <Reducible T>
    requires(!std::ranges::range<T>)
  [[nodiscard]] T allreduce(const T& value, Op op) const {
    T result = value;
    allreduce(value, result, op);
    return result;
  }

 private:
  MPI_Comm comm() const noexcept { return static_cast<const Self&>(*this).native(); }
  int my_rank() const { return static_cast<const Self&>(*this).rank(); }
};

}  // namespace detail
}  // namespace shmpi

#endif  // SHMPI_CXX_COLLECTIVES_HPP
