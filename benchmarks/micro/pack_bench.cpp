// Datatype engine: pack and unpack throughput of the layouts the OSU-style
// datatype benchmarks send (osu_latency_struct's records, osu_latency_vector's
// column), whole and in ring-fragment-sized pieces as the streamed path does.
#include <benchmark/benchmark.h>

#include <cstddef>
#include <vector>

#include "datatype/copy.hpp"
#include "datatype/type.hpp"

namespace {

using namespace shmpi::datatype;

constexpr Basic kChar{1, 1, 1, Scalar::Bytes};
constexpr Basic kInt{4, 4, 4, Scalar::Signed};
constexpr Basic kDouble{8, 8, 8, Scalar::Float};

// struct { char tag[4]; double value; int id; }: runs of 4 and 12 bytes every 24.
TypeRef record() {
  const std::vector<std::int64_t> lengths{4, 1, 1};
  const std::vector<Offset> disps{0, 8, 16};
  const std::vector<TypeRef> types{Type::basic(kChar, 1), Type::basic(kDouble, 2), Type::basic(kInt, 3)};
  return Type::resized(make_struct(lengths, disps, types), 0, 24);
}

// Every other double (MPI_Type_vector(n, 1, 2, MPI_DOUBLE)) as one element.
TypeRef column(std::int64_t n) { return make_hvector(n, 1, 16, Type::basic(kDouble, 2)); }

void run(benchmark::State& state, const TypeRef& type, std::uint64_t count, bool packing) {
  const std::uint64_t piece = static_cast<std::uint64_t>(state.range(1));
  std::vector<std::byte> user(static_cast<std::size_t>(type->extent()) * count + 64);
  std::vector<std::byte> packed(static_cast<std::size_t>(type->size()) * count);
  for (auto _ : state) {
    Cursor cursor(type->program(), count, type->extent());
    for (std::uint64_t at = 0; at < cursor.total();) {
      std::byte* p = packed.data() + at;
      at += packing ? pack(cursor, user.data(), p, piece) : unpack(cursor, p, user.data(), piece);
    }
    benchmark::DoNotOptimize(packed.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * packed.size()));
}

void Struct(benchmark::State& state, bool packing) {
  run(state, record(), static_cast<std::uint64_t>(state.range(0)) / 16, packing);
}
// The same records as one element, MPI_Type_contiguous(n, record), as
// osu_latency_struct sends them.
void StructArray(benchmark::State& state, bool packing) {
  run(state, make_contiguous(state.range(0) / 16, record()), 1, packing);
}
void Column(benchmark::State& state, bool packing) {
  run(state, column(state.range(0) / 8), 1, packing);
}

}  // namespace

// Args: packed bytes, bytes per piece (the whole message, or a fragment).
BENCHMARK_CAPTURE(Struct, pack, true)->Args({2048, 2048})->Args({1 << 20, 1 << 20})->Args({1 << 20, 8192});
BENCHMARK_CAPTURE(Struct, unpack, false)->Args({2048, 2048})->Args({1 << 20, 1 << 20})->Args({1 << 20, 8192});
BENCHMARK_CAPTURE(StructArray, pack, true)->Args({2048, 2048})->Args({1 << 20, 8192});
BENCHMARK_CAPTURE(StructArray, unpack, false)->Args({2048, 2048})->Args({1 << 20, 8192});
BENCHMARK_CAPTURE(Column, pack, true)->Args({2048, 2048})->Args({1 << 20, 8192});
BENCHMARK_CAPTURE(Column, unpack, false)->Args({2048, 2048})->Args({1 << 20, 8192});
BENCHMARK_MAIN();
