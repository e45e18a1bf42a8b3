// MPI entry points: datatypes describing part of an n-dimensional array,
// MPI_Type_create_subarray and MPI_Type_create_darray (MPI-4.1 5.1.3-4).
// Their many arguments are checked here, each error saying which one.
#include <vector>

#include "datatype/layouts.hpp"
#include "runtime/type_args.hpp"

using namespace shmpi::runtime;
namespace dt = shmpi::datatype;

namespace {

Check check_order(int order) {
  if (order == MPI_ORDER_C || order == MPI_ORDER_FORTRAN) return std::nullopt;
  return ArgError{MPI_ERR_ARG, "invalid order " + std::to_string(order) + " (MPI_ORDER_C or MPI_ORDER_FORTRAN)"};
}

Check check_ndims(int ndims) {
  if (ndims > 0) return std::nullopt;
  return ArgError{MPI_ERR_DIMS, "invalid ndims " + std::to_string(ndims) + " (must be positive)"};
}

ArgError bad_entry(const char* array, int i, int value, const std::string& rule) {
  return ArgError{MPI_ERR_ARG, std::string(array) + "[" + std::to_string(i) + "] = " + std::to_string(value) + " " + rule};
}

Check check_subarray(int ndims, const int sizes[], const int subsizes[], const int starts[]) {
  for (int i = 0; i < ndims; ++i) {
    if (sizes[i] <= 0) return bad_entry("array_of_sizes", i, sizes[i], "(must be positive)");
    if (subsizes[i] < 0 || subsizes[i] > sizes[i])
      return bad_entry("array_of_subsizes", i, subsizes[i], "(must be 0.." + std::to_string(sizes[i]) + ")");
    if (starts[i] < 0 || starts[i] > sizes[i] - subsizes[i])
      return bad_entry("array_of_starts", i, starts[i],
                       "(must be 0.." + std::to_string(sizes[i] - subsizes[i]) + " for subsize " +
                           std::to_string(subsizes[i]) + ")");
  }
  return std::nullopt;
}

std::vector<std::int64_t> widened(const int* values, int n) { return {values, values + n}; }

std::vector<int> joined(int ndims, std::initializer_list<const int*> arrays) {
  std::vector<int> out;
  for (const int* a : arrays) out.insert(out.end(), a, a + ndims);
  return out;
}

// The checks of one darray dimension.
Check check_darray_dim(int i, int gsize, int distrib, int darg, int psize) {
  if (gsize <= 0) return bad_entry("array_of_gsizes", i, gsize, "(must be positive)");
  if (psize <= 0) return bad_entry("array_of_psizes", i, psize, "(must be positive)");
  if (distrib != MPI_DISTRIBUTE_BLOCK && distrib != MPI_DISTRIBUTE_CYCLIC && distrib != MPI_DISTRIBUTE_NONE)
    return bad_entry("array_of_distribs", i, distrib, "(MPI_DISTRIBUTE_BLOCK, _CYCLIC or _NONE)");
  if (darg != MPI_DISTRIBUTE_DFLT_DARG && darg <= 0)
    return bad_entry("array_of_dargs", i, darg, "(must be positive or MPI_DISTRIBUTE_DFLT_DARG)");
  if (distrib == MPI_DISTRIBUTE_NONE && psize != 1)
    return bad_entry("array_of_psizes", i, psize, "(must be 1 for MPI_DISTRIBUTE_NONE)");
  if (distrib == MPI_DISTRIBUTE_BLOCK && darg != MPI_DISTRIBUTE_DFLT_DARG &&
      static_cast<std::int64_t>(darg) * psize < gsize)
    return bad_entry("array_of_dargs", i, darg,
                     "is too small: " + std::to_string(psize) + " blocks do not cover " + std::to_string(gsize) +
                         " elements");
  return std::nullopt;
}

Check check_darray(int size, int rank, int ndims, const int gsizes[], const int distribs[], const int dargs[],
                   const int psizes[]) {
  if (size <= 0) return ArgError{MPI_ERR_ARG, "invalid size " + std::to_string(size)};
  if (rank < 0 || rank >= size)
    return ArgError{MPI_ERR_RANK, "invalid rank " + std::to_string(rank) + " (size is " + std::to_string(size) + ")"};
  std::int64_t grid = 1;
  for (int i = 0; i < ndims; ++i) {
    if (Check c = check_darray_dim(i, gsizes[i], distribs[i], dargs[i], psizes[i])) return c;
    grid *= psizes[i];
    if (grid > size) break;
  }
  if (grid != size)
    return ArgError{MPI_ERR_ARG, "the process grid (array_of_psizes) does not have size " + std::to_string(size) + " processes"};
  return std::nullopt;
}

dt::Distribution distribution_of(int distrib) {
  if (distrib == MPI_DISTRIBUTE_BLOCK) return dt::Distribution::Block;
  return distrib == MPI_DISTRIBUTE_CYCLIC ? dt::Distribution::Cyclic : dt::Distribution::None;
}

dt::Order order_of(int order) { return order == MPI_ORDER_C ? dt::Order::C : dt::Order::Fortran; }

}  // namespace

extern "C" int PMPI_Type_create_subarray(int ndims, const int sizes[], const int subsizes[], const int starts[],
                                         int order, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  constexpr const char* kCall = "MPI_Type_create_subarray";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  const DatatypeTable& types = context.datatypes();
  if (int rc = raise_if(context, nullptr, kCall,
                        first_error({check_ndims(ndims), check_array(sizes, ndims, "array_of_sizes"),
                                     check_array(subsizes, ndims, "array_of_subsizes"),
                                     check_array(starts, ndims, "array_of_starts"), check_order(order),
                                     check_known_datatype(types, oldtype), check_out_pointer(newtype, "newtype")})))
    return rc;
  if (int rc = raise_if(context, nullptr, kCall, check_subarray(ndims, sizes, subsizes, starts))) return rc;
  std::vector<int> ints{ndims};
  for (int v : joined(ndims, {sizes, subsizes, starts})) ints.push_back(v);
  ints.push_back(order);
  return register_type(context, kCall,
                       dt::make_subarray(widened(sizes, ndims), widened(subsizes, ndims), widened(starts, ndims),
                                         order_of(order), types.layout(oldtype)),
                       contents_of(types, MPI_COMBINER_SUBARRAY, std::move(ints), {}, {&oldtype, 1}), newtype);
}

extern "C" int PMPI_Type_create_darray(int size, int rank, int ndims, const int gsizes[], const int distribs[],
                                       const int dargs[], const int psizes[], int order, MPI_Datatype oldtype,
                                       MPI_Datatype* newtype) {
  constexpr const char* kCall = "MPI_Type_create_darray";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  const DatatypeTable& types = context.datatypes();
  if (int rc = raise_if(context, nullptr, kCall,
                        first_error({check_ndims(ndims), check_array(gsizes, ndims, "array_of_gsizes"),
                                     check_array(distribs, ndims, "array_of_distribs"),
                                     check_array(dargs, ndims, "array_of_dargs"),
                                     check_array(psizes, ndims, "array_of_psizes"), check_order(order),
                                     check_known_datatype(types, oldtype), check_out_pointer(newtype, "newtype")})))
    return rc;
  if (int rc = raise_if(context, nullptr, kCall, check_darray(size, rank, ndims, gsizes, distribs, dargs, psizes)))
    return rc;
  std::vector<dt::Distribution> how;
  std::vector<std::int64_t> args;
  for (int i = 0; i < ndims; ++i) {
    how.push_back(distribution_of(distribs[i]));
    args.push_back(dargs[i] == MPI_DISTRIBUTE_DFLT_DARG ? dt::kDefaultDistributionArg : dargs[i]);
  }
  std::vector<int> ints{size, rank, ndims};
  for (int v : joined(ndims, {gsizes, distribs, dargs, psizes})) ints.push_back(v);
  ints.push_back(order);
  return register_type(context, kCall,
                       dt::make_darray(rank, widened(gsizes, ndims), how, args, widened(psizes, ndims),
                                       order_of(order), types.layout(oldtype)),
                       contents_of(types, MPI_COMBINER_DARRAY, std::move(ints), {}, {&oldtype, 1}), newtype);
}

SHMPI_PMPI_ALIAS(Type_create_subarray)
SHMPI_PMPI_ALIAS(Type_create_darray)
