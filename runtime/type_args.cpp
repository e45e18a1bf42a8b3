#include "runtime/type_args.hpp"

namespace shmpi::runtime {

Check check_known_datatype(const DatatypeTable& types, MPI_Datatype type) {
  if (types.find(type) != nullptr) return std::nullopt;
  if (types.was_freed(type))
    return ArgError{MPI_ERR_TYPE, "datatype " + std::to_string(type) + " has been freed (MPI_Type_free)"};
  return ArgError{MPI_ERR_TYPE, "invalid datatype " + std::to_string(type)};
}

Check check_out_pointer(const void* pointer, const char* what) {
  if (pointer == nullptr) return ArgError{MPI_ERR_ARG, std::string("null ") + what + " pointer"};
  return std::nullopt;
}

Check check_blocklength(int length, const char* what) {
  if (length < 0) return ArgError{MPI_ERR_ARG, std::string("negative ") + what + " " + std::to_string(length)};
  return std::nullopt;
}

Check check_array(const void* array, int count, const char* what) {
  if (array == nullptr && count > 0) return ArgError{MPI_ERR_ARG, std::string("null ") + what + " array"};
  return std::nullopt;
}

TypeContents contents_of(const DatatypeTable& types, int combiner, std::vector<int> ints, std::vector<MPI_Aint> aints,
                         std::span<const MPI_Datatype> olds) {
  TypeContents c;
  c.combiner = combiner;
  c.ints = std::move(ints);
  c.aints = std::move(aints);
  for (MPI_Datatype old : olds) {
    const DerivedRef& derived = types.derived(old);
    c.predefined.push_back(derived ? MPI_DATATYPE_NULL : old);
    c.derived.push_back(derived);
  }
  return c;
}

int register_type(Context& context, const char* call, datatype::TypeRef layout, TypeContents contents,
                  MPI_Datatype* newtype) {
  if (!layout)
    return raise_error(context, nullptr, call, MPI_ERR_ARG,
                       "the new datatype is too large: its size or bounds overflow a 64-bit byte count");
  *newtype = context.datatypes().add(make_derived(context.datatypes(), std::move(layout), std::move(contents)));
  return MPI_SUCCESS;
}

std::optional<MPI_Aint> checked_product(MPI_Aint a, MPI_Aint b) noexcept {
  MPI_Aint r = 0;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

}  // namespace shmpi::runtime
