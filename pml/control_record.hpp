// ControlRecord: a control record the pml owes a peer (Ack, Cts, Fin,
// Split, SplitDone; see pml/protocol.hpp), kept while the peer's ring is
// full so that no record handler ever blocks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "pml/protocol.hpp"

namespace shmpi::pml {

struct ControlRecord {
  std::uint32_t peer = 0;  // world rank it goes to
  RecordKind kind = RecordKind::Fin;
  std::uint8_t flags = 0;
  std::uint64_t cookie = 0;  // the header's length field
  std::uint8_t payload_bytes = 0;
  std::byte payload[sizeof(SplitOffer)] = {};  // the largest control payload

  // A record whose payload is `body`.
  template <class T>
  static ControlRecord with(std::uint32_t peer, RecordKind kind, const T& body) noexcept {
    static_assert(sizeof(T) <= sizeof(payload));
    ControlRecord c{peer, kind};
    c.payload_bytes = sizeof(T);
    std::memcpy(c.payload, &body, sizeof(T));
    return c;
  }
};

}  // namespace shmpi::pml
