// The basic (predefined, indivisible) element kinds the datatype engine
// knows: how many bytes one takes in memory and in MPI's portable
// "external32" representation, and how to convert between the two.
#pragma once

#include <cstdint>

namespace shmpi::datatype {

// How an element converts to external32 (big-endian, fixed sizes).
enum class Scalar : std::uint8_t {
  Bytes,       // copied as is (char, byte, bool)
  Signed,      // two's complement; sign-extended or truncated to its external size
  Unsigned,    // zero-extended or truncated
  Float,       // IEEE binary32/64: byte order only
  LongDouble,  // x87 80-bit extended in memory, IEEE binary128 in external32
};

struct Basic {
  std::uint8_t size;           // bytes in memory
  std::uint8_t align;          // alignment in memory (for struct padding)
  std::uint8_t external_size;  // bytes in external32
  Scalar scalar;
};

}  // namespace shmpi::datatype
