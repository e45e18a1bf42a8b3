#include "line_splitter.hpp"

#include <gtest/gtest.h>

#include "output_router.hpp"

namespace shmpi::launcher {
namespace {

struct Collector {
  std::vector<std::string> lines;
  void operator()(std::string_view line) { lines.emplace_back(line); }
};

TEST(LineSplitter, JoinsPiecesIntoWholeLines) {
  LineSplitter splitter;
  Collector out;
  splitter.feed("ab", std::ref(out));
  EXPECT_TRUE(out.lines.empty());
  splitter.feed("c\nde\nf", std::ref(out));
  splitter.feed("g\n", std::ref(out));
  EXPECT_EQ(out.lines, (std::vector<std::string>{"abc\n", "de\n", "fg\n"}));
  EXPECT_FALSE(splitter.has_partial());
}

TEST(LineSplitter, FlushesUnterminatedLastLineAtEof) {
  LineSplitter splitter;
  Collector out;
  splitter.feed("x\ntail", std::ref(out));
  splitter.finish(std::ref(out));
  EXPECT_EQ(out.lines, (std::vector<std::string>{"x\n", "tail\n"}));
  splitter.finish(std::ref(out));  // nothing more
  EXPECT_EQ(out.lines.size(), 2u);
}

TEST(LineSplitter, EmptyLinesSurvive) {
  LineSplitter splitter;
  Collector out;
  splitter.feed("\n\na\n", std::ref(out));
  EXPECT_EQ(out.lines, (std::vector<std::string>{"\n", "\n", "a\n"}));
}

TEST(LineSplitter, OverlongLineIsCutAtTheLimit) {
  LineSplitter splitter(4);
  Collector out;
  splitter.feed("abcdefghij\n", std::ref(out));
  EXPECT_EQ(out.lines, (std::vector<std::string>{"abcd\n", "efgh\n", "ij\n"}));
}

TEST(LinePrefix, MatchesOpenMpiTagAndIsoTime) {
  timespec t{0, 123456789};
  EXPECT_EQ(line_prefix({true, false}, 3, Stream::Out, t), "[1,3]<stdout>:");
  EXPECT_EQ(line_prefix({true, false}, 0, Stream::Err, t), "[1,0]<stderr>:");
  EXPECT_EQ(line_prefix({false, false}, 0, Stream::Err, t), "");
  std::string stamped = line_prefix({true, true}, 1, Stream::Out, t);
  ASSERT_EQ(stamped.size(), std::string("1970-01-01T00:00:00.123 [1,1]<stdout>:").size());
  EXPECT_EQ(stamped.substr(19), ".123 [1,1]<stdout>:");
}

}  // namespace
}  // namespace shmpi::launcher
