// external32: known big-endian encodings of each scalar kind, and round
// trips through a struct with gaps.
#include <gtest/gtest.h>

#include <cstring>

#include "datatype/external32.hpp"

namespace shmpi::datatype {
namespace {

std::vector<unsigned> encode(const Basic& b, const void* value) {
  const TypeRef t = Type::basic(b, 0);
  std::vector<unsigned char> out(b.external_size);
  pack_external(*t, 1, value, out.data());
  return {out.begin(), out.end()};
}

TEST(External32, IntegersAreBigEndianAtTheirExternalSize) {
  const int i = -2;
  EXPECT_EQ(encode({4, 4, 4, Scalar::Signed}, &i), (std::vector<unsigned>{0xff, 0xff, 0xff, 0xfe}));
  const long l = 0x01020304;  // MPI_LONG is 4 bytes in external32
  EXPECT_EQ(encode({8, 8, 4, Scalar::Signed}, &l), (std::vector<unsigned>{1, 2, 3, 4}));
  const unsigned short u = 0xabcd;
  EXPECT_EQ(encode({2, 2, 2, Scalar::Unsigned}, &u), (std::vector<unsigned>{0xab, 0xcd}));
  // Back: a negative 4-byte external long sign-extends to 8 bytes.
  const TypeRef lt = Type::basic({8, 8, 4, Scalar::Signed}, 0);
  const unsigned char minus3[4] = {0xff, 0xff, 0xff, 0xfd};
  long back = 0;
  unpack_external(*lt, 1, minus3, &back);
  EXPECT_EQ(back, -3);
}

TEST(External32, FloatsAreByteReversed) {
  const double d = 1.0;  // 0x3ff0000000000000
  EXPECT_EQ(encode({8, 8, 8, Scalar::Float}, &d), (std::vector<unsigned>{0x3f, 0xf0, 0, 0, 0, 0, 0, 0}));
  const float f = -2.0f;  // 0xc0000000
  EXPECT_EQ(encode({4, 4, 4, Scalar::Float}, &f), (std::vector<unsigned>{0xc0, 0, 0, 0}));
}

TEST(External32, LongDoubleIsBinary128) {
  const Basic ld{sizeof(long double), alignof(long double), 16, Scalar::LongDouble};
  const long double one = 1.0L;  // binary128: 0x3fff 0000...
  std::vector<unsigned> expected(16, 0);
  expected[0] = 0x3f;
  expected[1] = 0xff;
  EXPECT_EQ(encode(ld, &one), expected);
  const long double values[] = {-2.5L, 1e-4000L, 3.14159265358979323846L, 1e300L * 1e300L};
  const TypeRef t = Type::basic(ld, 0);
  for (long double v : values) {
    unsigned char wire[16];
    long double back = 0;
    pack_external(*t, 1, &v, wire);
    unpack_external(*t, 1, wire, &back);
    EXPECT_EQ(back, v);
  }
}

TEST(External32, StructWithGapsRoundTrips) {
  struct S {
    char c;
    double d;
    short s[3];
  };
  const std::vector<std::int64_t> lens{1, 1, 3};
  const std::vector<Offset> disps{offsetof(S, c), offsetof(S, d), offsetof(S, s)};
  const std::vector<TypeRef> types{Type::basic({1, 1, 1, Scalar::Bytes}, 0), Type::basic({8, 8, 8, Scalar::Float}, 1),
                                   Type::basic({2, 2, 2, Scalar::Signed}, 2)};
  const TypeRef t = make_struct(lens, disps, types);
  ASSERT_EQ(t->extent(), static_cast<Offset>(sizeof(S)));
  ASSERT_EQ(t->external_size(), 1 + 8 + 6);
  S in[2] = {{'x', 2.5, {1, -2, 3}}, {'y', -0.125, {-4, 5, -6}}}, out[2];
  std::memset(out, 0, sizeof out);
  unsigned char wire[30];
  pack_external(*t, 2, in, wire);
  EXPECT_EQ(wire[0], 'x');
  EXPECT_EQ(wire[9], 0x00);
  EXPECT_EQ(wire[10], 0x01);
  unpack_external(*t, 2, wire, out);
  for (int k = 0; k < 2; ++k) {
    EXPECT_EQ(out[k].c, in[k].c);
    EXPECT_EQ(out[k].d, in[k].d);
    for (int j = 0; j < 3; ++j) EXPECT_EQ(out[k].s[j], in[k].s[j]);
  }
}

}  // namespace
}  // namespace shmpi::datatype
