// The pml's wire format: the header that starts every ring record body.
//
// The btl carries records opaquely; the pml puts a MatchHeader first. A
// message is either one Eager record (header + whole payload) or a
// FragFirst record followed, on the same ring and with nothing in between,
// by Frag records until `length` bytes have arrived.
#pragma once

#include <cstdint>

namespace shmpi::pml {

enum class RecordKind : std::uint8_t {
  Eager = 1,      // the whole message
  FragFirst = 2,  // first part of a fragmented message; `length` is the total
  Frag = 3,       // continuation of the message in progress on this ring
};

struct MatchHeader {
  std::uint32_t context;  // communicator context id
  std::int32_t tag;
  std::int32_t source;    // sender's rank in the communicator
  RecordKind kind;
  std::uint8_t flags;
  std::uint16_t reserved;
  std::uint64_t length;   // total message bytes
};
static_assert(sizeof(MatchHeader) == 24);

}  // namespace shmpi::pml
