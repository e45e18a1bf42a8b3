// Property test: for thousands of randomly nested types, every copy the
// compiled program makes (whole, fragment by fragment from random offsets,
// unpacked, as iovecs) equals the naive element-by-element reference.
// A failure names the seed and the case; rerun one with
// SHMPI_DATATYPE_SEED=<seed>.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <string>

#include "datatype/copy.hpp"
#include "datatype/layouts.hpp"
#include "reference.hpp"

namespace shmpi::datatype {
namespace {

using testing::Entry;

class RandomTypes {
 public:
  explicit RandomTypes(std::uint64_t seed) : rng_(seed) {}

  TypeRef any(int depth) {
    TypeRef t;
    while (!t || t->true_extent() > (1 << 16) || t->size() > (1 << 14) || t->extent() > (1 << 16) ||
           t->extent() < -(1 << 16))
      t = attempt(depth);
    return t;
  }
  std::int64_t pick(std::int64_t lo, std::int64_t hi) { return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng_); }

 private:
  TypeRef basic() {
    static const Basic kBasics[] = {{1, 1, 1, Scalar::Bytes}, {2, 2, 2, Scalar::Signed}, {4, 4, 4, Scalar::Signed},
                                    {8, 8, 8, Scalar::Float}, {16, 16, 16, Scalar::LongDouble}};
    const auto i = static_cast<std::size_t>(pick(0, 4));
    return Type::basic(kBasics[i], static_cast<std::int32_t>(i));
  }

  TypeRef attempt(int depth) {
    if (depth == 0 || pick(0, 5) == 0) return basic();
    const TypeRef old = any(depth - 1);
    const Offset ext = old->extent() != 0 ? old->extent() : 1;
    switch (pick(0, 7)) {
      case 0: return make_contiguous(pick(0, 5), old);
      case 1: return make_hvector(pick(0, 4), pick(0, 3), pick(-3, 6) * ext + pick(0, 2), old);
      case 2: {
        std::vector<std::int64_t> lens;
        std::vector<Offset> disps;
        for (std::int64_t i = pick(1, 4); i > 0; --i) {
          lens.push_back(pick(0, 3));
          disps.push_back(pick(-4, 12) * ext + pick(0, 1) * pick(0, 7));
        }
        return make_hindexed(lens, disps, old);
      }
      case 3: {
        std::vector<std::int64_t> lens;
        std::vector<Offset> disps;
        std::vector<TypeRef> types;
        Offset at = 0;
        for (std::int64_t i = pick(1, 3); i > 0; --i) {
          types.push_back(i == 1 ? old : any(depth - 1));
          lens.push_back(pick(0, 3));
          disps.push_back(at);
          at += lens.back() * types.back()->extent() + pick(0, 9);
        }
        return make_struct(lens, disps, types);
      }
      case 4: return Type::resized(old, pick(-8, 8), pick(-1, 3) * ext + pick(0, 5));
      case 5: {
        const std::vector<std::int64_t> sizes{pick(1, 4), pick(1, 5)};
        const std::vector<std::int64_t> sub{pick(1, sizes[0]), pick(1, sizes[1])};
        const std::vector<std::int64_t> starts{pick(0, sizes[0] - sub[0]), pick(0, sizes[1] - sub[1])};
        return make_subarray(sizes, sub, starts, pick(0, 1) ? Order::C : Order::Fortran, old);
      }
      case 6: {
        const std::vector<std::int64_t> gsizes{pick(1, 6), pick(1, 7)}, psizes{pick(1, 2), pick(1, 3)};
        const std::vector<Distribution> d{pick(0, 1) ? Distribution::Block : Distribution::Cyclic,
                                          pick(0, 1) ? Distribution::Cyclic : Distribution::None};
        const std::vector<std::int64_t> psz{psizes[0], d[1] == Distribution::None ? 1 : psizes[1]};
        const std::vector<std::int64_t> dargs{d[0] == Distribution::Block ? kDefaultDistributionArg : pick(1, 2),
                                              kDefaultDistributionArg};
        return make_darray(pick(0, psz[0] * psz[1] - 1), gsizes, d, dargs, psz, pick(0, 1) ? Order::C : Order::Fortran,
                           old);
      }
      default: return make_hvector(pick(1, 3), pick(1, 2), -pick(1, 3) * ext, old);  // backwards
    }
  }

  std::mt19937_64 rng_;
};

std::uint64_t base_seed() {
  const char* env = std::getenv("SHMPI_DATATYPE_SEED");
  return env != nullptr ? std::strtoull(env, nullptr, 10) : 20261205;
}

// Memory for `count` elements with a pattern in it, and its origin.
struct Memory {
  std::vector<std::byte> bytes;
  Offset shift = 0;  // origin = bytes.data() + shift
  std::byte* origin() { return bytes.data() + shift; }
};

Memory memory_for(const Type& type, std::uint64_t count, bool pattern) {
  const testing::Span s = testing::span_of(type, count);
  Memory m{std::vector<std::byte>(static_cast<std::size_t>(s.high - s.low) + 1), -s.low};
  for (std::size_t i = 0; i < m.bytes.size(); ++i) m.bytes[i] = pattern ? std::byte(i * 131 + 7) : std::byte{0};
  return m;
}

void check_case(const Type& type, std::uint64_t count, RandomTypes& random) {
  const std::vector<Entry> map = testing::type_map(type, count);
  Memory src = memory_for(type, count, true);
  const std::vector<std::byte> expected = testing::naive_pack(map, src.origin());
  ASSERT_EQ(expected.size(), count * static_cast<std::uint64_t>(type.size()));

  std::vector<std::byte> packed(expected.size());
  Cursor whole(type.program(), count, type.extent());
  ASSERT_EQ(pack(whole, src.origin(), packed.data(), packed.size() + 5), packed.size());
  ASSERT_EQ(packed, expected) << "whole pack";

  // Fragments: each from a fresh cursor at its offset, or continuing.
  std::fill(packed.begin(), packed.end(), std::byte{0});
  Cursor resumed(type.program(), count, type.extent());
  for (std::uint64_t at = 0; at < packed.size();) {
    const auto len = static_cast<std::uint64_t>(random.pick(1, 40));
    Cursor fresh(type.program(), count, type.extent());
    fresh.seek(at);
    Cursor& c = random.pick(0, 1) ? fresh : resumed;
    if (&c == &resumed) resumed.seek(at);
    at += pack(c, src.origin(), packed.data() + at, len);
  }
  ASSERT_EQ(packed, expected) << "fragment pack";

  Memory naive = memory_for(type, count, false), engine = memory_for(type, count, false);
  testing::naive_unpack(map, expected.data(), naive.origin());
  Cursor in(type.program(), count, type.extent());
  for (std::uint64_t at = 0; at < expected.size();)
    at += unpack(in, expected.data() + at, engine.origin(), static_cast<std::uint64_t>(random.pick(1, 64)));
  ASSERT_EQ(engine.bytes, naive.bytes) << "unpack";

  std::vector<std::byte> gathered;
  Cursor runs(type.program(), count, type.extent());
  iovec iov[3];
  while (runs.position() < runs.total()) {
    const std::size_t n = next_iovecs(runs, src.origin(), iov, 3, static_cast<std::uint64_t>(random.pick(1, 100)));
    ASSERT_GT(n, 0u);
    for (std::size_t i = 0; i < n; ++i) {
      const auto* p = static_cast<const std::byte*>(iov[i].iov_base);
      gathered.insert(gathered.end(), p, p + iov[i].iov_len);
    }
  }
  ASSERT_EQ(gathered, expected) << "iovecs";

  const auto bytes = static_cast<std::int64_t>(random.pick(0, static_cast<std::int64_t>(expected.size())));
  std::int64_t naive_elements = 0, sum = 0;
  for (const Entry& e : map)
    if ((sum += e.size) <= bytes) ++naive_elements;
  ASSERT_EQ(type.elements_in(bytes), naive_elements) << "elements in " << bytes << " bytes";
}

TEST(DatatypeProperty, CompiledCopiesMatchTheNaiveReference) {
  const std::uint64_t seed = base_seed();
  RandomTypes random(seed);
  constexpr int kCases = 4000;
  for (int i = 0; i < kCases; ++i) {
    const TypeRef type = random.any(static_cast<int>(random.pick(1, 4)));
    const auto count = static_cast<std::uint64_t>(random.pick(0, 9));  // above 1: the per-element paths
    SCOPED_TRACE("seed " + std::to_string(seed) + " case " + std::to_string(i) + " (SHMPI_DATATYPE_SEED=" +
                 std::to_string(seed) + ")");
    check_case(*type, count, random);
    if (::testing::Test::HasFatalFailure()) {
      std::printf("datatype property test: FAIL with seed %llu at case %d\n", static_cast<unsigned long long>(seed), i);
      return;
    }
  }
}

}  // namespace
}  // namespace shmpi::datatype
