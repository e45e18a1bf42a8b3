// Type: a datatype as the engine sees it, immutable once built. A type is
// either a basic element or an ordered list of Blocks of other types (every
// MPI constructor is such a list), and carries what MPI asks about it (size,
// bounds, true bounds, basic elements) and its compiled Program. Types are
// shared (std::shared_ptr<const Type>): a derived type keeps the types it
// was built from alive, so the user may free them at any time.
//
// Bounds follow MPI-4.1 5.1: lb/ub span the type map; a type made by
// `resized` has explicit bounds that override its contents' wherever it is
// used (as the old LB/UB markers did); a struct's extent is padded up to
// the alignment of its strictest member, as the C compiler pads a struct.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "datatype/basic.hpp"
#include "datatype/program.hpp"

namespace shmpi::datatype {

class Type;
using TypeRef = std::shared_ptr<const Type>;

// `blocklen` copies of `type` back to back (at its extent), the whole
// repeated `reps` times `stride` bytes apart, starting `disp` bytes in.
struct Block {
  Offset disp = 0;
  std::int64_t blocklen = 1;
  std::int64_t reps = 1;
  Offset stride = 0;
  TypeRef type;
};

class Type {
 public:
  // Identity of a basic kind given by the user of the engine (the MPI
  // handle); kMixed when the basic elements are not all of one kind.
  static constexpr std::int32_t kMixed = -1;

  // A basic element, `id` naming its kind.
  static TypeRef basic(const Basic& basic, std::int32_t id);
  // The general constructor: blocks in typemap order. `padded` rounds the
  // extent up to the strictest alignment (MPI_Type_create_struct). `id`, if
  // not kMixed, overrides the kind (predefined pair types such as
  // MPI_DOUBLE_INT). Nothing if a size or bound overflows.
  static TypeRef blocks(std::vector<Block> blocks, bool padded = false, std::int32_t id = kMixed);
  // `old` with bounds [lb, lb + extent); nothing on overflow.
  static TypeRef resized(const TypeRef& old, Offset lb, Offset extent);

  std::int64_t size() const noexcept { return size_; }
  Offset lb() const noexcept { return lb_; }
  Offset ub() const noexcept { return ub_; }
  Offset extent() const noexcept { return ub_ - lb_; }
  Offset true_lb() const noexcept { return true_lb_; }
  Offset true_ub() const noexcept { return true_ub_; }
  Offset true_extent() const noexcept { return true_ub_ - true_lb_; }
  std::int64_t elements() const noexcept { return elements_; }  // basic elements in one element
  std::int64_t external_size() const noexcept { return external_size_; }
  std::int32_t kind() const noexcept { return kind_; }  // common basic id, or kMixed
  std::uint32_t align() const noexcept { return align_; }
  bool explicit_bounds() const noexcept { return explicit_bounds_; }
  const Basic* as_basic() const noexcept { return is_basic_ ? &basic_ : nullptr; }
  const std::vector<Block>& parts() const noexcept { return blocks_; }
  const Program& program() const noexcept { return program_; }
  // Stored contiguously from the origin: one element is `size` bytes at
  // offset 0 and the next follows at once (no packing needed).
  bool contiguous() const noexcept {
    return size_ == 0 || (program_.single_run() && program_.ops[0].offset == 0 && extent() == size_);
  }

  // Basic elements wholly inside the first `bytes` packed bytes of a
  // stream of this type (any number of elements).
  std::int64_t elements_in(std::int64_t bytes) const noexcept;

 private:
  Type() = default;
  void compile();

  std::int64_t size_ = 0;
  Offset lb_ = 0, ub_ = 0, true_lb_ = 0, true_ub_ = 0;
  std::int64_t elements_ = 0;
  std::int64_t external_size_ = 0;
  std::int32_t kind_ = kMixed;
  std::uint32_t align_ = 1;
  bool explicit_bounds_ = false;
  bool is_basic_ = false;
  Basic basic_{};
  std::vector<Block> blocks_;
  Program program_;
};

// MPI's constructors in terms of blocks (all strides and displacements in
// bytes; the MPI layer multiplies element strides by the old extent).
// Nothing on overflow.
TypeRef make_contiguous(std::int64_t count, const TypeRef& old);
TypeRef make_hvector(std::int64_t count, std::int64_t blocklen, Offset stride, const TypeRef& old);
TypeRef make_hindexed(std::span<const std::int64_t> blocklens, std::span<const Offset> disps, const TypeRef& old);
TypeRef make_struct(std::span<const std::int64_t> blocklens, std::span<const Offset> disps,
                    std::span<const TypeRef> types);

}  // namespace shmpi::datatype
