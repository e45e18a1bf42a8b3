#include "datatype/external32.hpp"

#include <bit>
#include <cstring>
#include <limits>

namespace shmpi::datatype {
namespace {

static_assert(std::endian::native == std::endian::little, "external32 conversion assumes a little-endian host");

std::uint64_t load_le(const std::byte* p, std::size_t n) noexcept {
  std::uint64_t v = 0;
  std::memcpy(&v, p, n);  // little-endian: the low bytes come first
  return v;
}

void store_le(std::byte* p, std::uint64_t v, std::size_t n) noexcept { std::memcpy(p, &v, n); }

std::uint64_t load_be(const std::byte* p, std::size_t n) noexcept {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < n; ++i) v = v << 8 | std::to_integer<std::uint64_t>(p[i]);
  return v;
}

void store_be(std::byte* p, std::uint64_t v, std::size_t n) noexcept {
  for (std::size_t i = n; i-- > 0; v >>= 8) p[i] = static_cast<std::byte>(v & 0xff);
}

// Sign-extends the low `bytes` bytes of v.
std::uint64_t sign_extend(std::uint64_t v, std::size_t bytes) noexcept {
  if (bytes >= 8) return v;
  const std::uint64_t sign = std::uint64_t{1} << (bytes * 8 - 1);
  v &= (sign << 1) - 1;
  return (v ^ sign) - sign;
}

// x87 80-bit extended <-> IEEE binary128: same sign, same 15-bit exponent
// and bias; the x87 integer bit is implicit in binary128 and its 63
// fraction bits are the top of binary128's 112 (the rest is lost on the
// way back).
constexpr bool kX87 = std::numeric_limits<long double>::digits == 64;
static_assert(kX87 || std::numeric_limits<long double>::digits == 113, "long double must be x87 or binary128");

void x87_to_quad(const std::byte* in, std::byte* out) noexcept {
  const std::uint64_t m = load_le(in, 8);
  std::uint64_t se = load_le(in + 8, 2);
  if ((se & 0x7fff) == 0 && (m >> 63) != 0) se |= 1;  // pseudo-denormal: the value of exponent 1
  const std::uint64_t fraction = m & 0x7fffffffffffffffULL;
  store_be(out, se << 48 | fraction >> 15, 8);
  store_be(out + 8, fraction << 49, 8);
}

void quad_to_x87(const std::byte* in, std::byte* out) noexcept {
  const std::uint64_t hi = load_be(in, 8), lo = load_be(in + 8, 8);
  const std::uint64_t se = hi >> 48;
  const std::uint64_t integer = (se & 0x7fff) != 0 ? 1 : 0;
  const std::uint64_t fraction = (hi & 0xffffffffffffULL) << 15 | lo >> 49;
  std::memset(out, 0, sizeof(long double));
  store_le(out, integer << 63 | fraction, 8);
  store_le(out + 8, se, 2);
}

void reverse_copy(const std::byte* in, std::byte* out, std::size_t n) noexcept {
  for (std::size_t i = 0; i < n; ++i) out[i] = in[n - 1 - i];
}

void to_external(const Basic& b, const std::byte* in, std::byte* out) noexcept {
  switch (b.scalar) {
    case Scalar::Bytes: std::memcpy(out, in, b.size); return;
    case Scalar::Signed: store_be(out, sign_extend(load_le(in, b.size), b.size), b.external_size); return;
    case Scalar::Unsigned: store_be(out, load_le(in, b.size), b.external_size); return;
    case Scalar::Float: reverse_copy(in, out, b.size); return;
    case Scalar::LongDouble:
      if constexpr (kX87) x87_to_quad(in, out); else reverse_copy(in, out, 16);
      return;
  }
}

void from_external(const Basic& b, const std::byte* in, std::byte* out) noexcept {
  switch (b.scalar) {
    case Scalar::Bytes: std::memcpy(out, in, b.size); return;
    case Scalar::Signed: store_le(out, sign_extend(load_be(in, b.external_size), b.external_size), b.size); return;
    case Scalar::Unsigned: store_le(out, load_be(in, b.external_size), b.size); return;
    case Scalar::Float: reverse_copy(in, out, b.size); return;
    case Scalar::LongDouble:
      if constexpr (kX87) quad_to_x87(in, out); else reverse_copy(in, out, 16);
      return;
  }
}

// Calls convert(basic, memory offset) for every basic element of `count`
// elements of `type` in typemap order.
template <class Convert>
void for_each_basic(const Type& type, std::uint64_t count, Offset origin, Convert& convert) {
  for (std::uint64_t e = 0; e < count; ++e, origin += type.extent()) {
    if (const Basic* b = type.as_basic()) {
      convert(*b, origin);
      continue;
    }
    for (const Block& block : type.parts()) {
      if (block.blocklen <= 0 || !block.type) continue;
      for (std::int64_t r = 0; r < block.reps; ++r)
        for_each_basic(*block.type, static_cast<std::uint64_t>(block.blocklen), origin + block.disp + r * block.stride,
                       convert);
    }
  }
}

}  // namespace

void pack_external(const Type& type, std::uint64_t count, const void* origin, void* out) noexcept {
  const auto* base = static_cast<const std::byte*>(origin);
  auto* to = static_cast<std::byte*>(out);
  auto convert = [&](const Basic& b, Offset at) {
    to_external(b, base + at, to);
    to += b.external_size;
  };
  for_each_basic(type, count, 0, convert);
}

void unpack_external(const Type& type, std::uint64_t count, const void* in, void* origin) noexcept {
  auto* base = static_cast<std::byte*>(origin);
  const auto* from = static_cast<const std::byte*>(in);
  auto convert = [&](const Basic& b, Offset at) {
    from_external(b, from, base + at);
    from += b.external_size;
  };
  for_each_basic(type, count, 0, convert);
}

}  // namespace shmpi::datatype
