// Shared helpers for the matching tests: concrete node types, as the pml
// would derive them, and a tiny "rank" that runs the pml's matching flow.
#pragma once

#include <cstdint>

#include "pml/matcher.hpp"

namespace shmpi::pml::testing {

struct Recv : PostedRecv {
  int id = 0;
  Recv() = default;
  Recv(int id_, Envelope want_) : id(id_) { want = want_; }
};

struct Msg : UnexpectedMsg {
  int id = 0;
  Msg() = default;
  Msg(int id_, Envelope env_) : id(id_) { env = env_; }
};

inline Envelope env(std::uint32_t context, std::int32_t source, std::int32_t tag) {
  return Envelope{context, source, tag};
}

inline int id_of(PostedRecv* r) { return r == nullptr ? -1 : static_cast<Recv*>(r)->id; }
inline int id_of(UnexpectedMsg* m) { return m == nullptr ? -1 : static_cast<Msg*>(m)->id; }

// What the pml does: an arriving message first tries the posted receives,
// a new receive first tries the unexpected messages.
struct MatchingRank {
  PostedQueue posted;
  UnexpectedQueue unexpected;

  // Returns the receive it matched, or nullptr if `m` became unexpected.
  Recv* arrive(Msg& m) {
    if (PostedRecv* r = posted.match(m.env)) return static_cast<Recv*>(r);
    unexpected.push(m);
    return nullptr;
  }
  // Returns the message it matched, or nullptr if `r` was posted.
  Msg* receive(Recv& r) {
    if (UnexpectedMsg* m = unexpected.take(r.want)) return static_cast<Msg*>(m);
    posted.post(r);
    return nullptr;
  }
};

}  // namespace shmpi::pml::testing
