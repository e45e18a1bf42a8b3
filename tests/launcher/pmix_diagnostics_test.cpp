// PmixDiagnostics: libpmix's messages reach shmpirun's stderr as whole,
// prefixed lines while the job runs, and are dropped once it is stopping.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "pmix_diagnostics.hpp"
#include "unique_fd.hpp"

// libpmix's own output calls (exported, not in its public headers): the test
// checks that libpmix really honours PMIX_OUTPUT_STDERR_FD. Its first output
// reads the variable, as PMIx_server_init's does.
extern "C" void pmix_output(int output_id, const char* format, ...);
extern "C" void pmix_output_finalize(void);

namespace shmpi::launcher {
namespace {

struct Sink {
  Pipe pipe = make_pipe(O_NONBLOCK);
  std::string read_all() {
    std::string text;
    char buffer[4096];
    ssize_t n;
    while ((n = ::read(pipe.read_end.get(), buffer, sizeof buffer)) > 0) text.append(buffer, static_cast<std::size_t>(n));
    return text;
  }
};

int pmix_fd() {
  const char* value = std::getenv("PMIX_OUTPUT_STDERR_FD");
  return value == nullptr ? -1 : std::atoi(value);
}

void say(int fd, const std::string& text) { ASSERT_EQ(::write(fd, text.data(), text.size()), static_cast<ssize_t>(text.size())); }

TEST(PmixDiagnostics, ForwardsWholeLinesWithAPrefix) {
  Sink sink;
  PmixDiagnostics diagnostics(sink.pipe.write_end.get());
  ASSERT_GE(pmix_fd(), 0);
  say(pmix_fd(), "[vm:00001] PMIX ERROR: one\n[vm:00001] PMIX ERROR: tw");
  diagnostics.on_readable();
  EXPECT_EQ(sink.read_all(), "shmpirun: libpmix: [vm:00001] PMIX ERROR: one\n");
  say(pmix_fd(), "o\n");
  diagnostics.on_readable();
  EXPECT_EQ(sink.read_all(), "shmpirun: libpmix: [vm:00001] PMIX ERROR: two\n");
}

TEST(PmixDiagnostics, DropsLinesOnceSilenced) {
  Sink sink;
  {
    PmixDiagnostics diagnostics(sink.pipe.write_end.get());
    say(pmix_fd(), "before\n");
    diagnostics.on_readable();
    diagnostics.silence();
    say(pmix_fd(), "[vm:00001] PMIX ERROR: UNREACHABLE\n");
    diagnostics.on_readable();
    say(pmix_fd(), "after, unread\n");
  }
  EXPECT_EQ(sink.read_all(), "shmpirun: libpmix: before\n");
}

TEST(PmixDiagnostics, ForwardsWhatIsLeftWhenDestroyed) {
  Sink sink;
  {
    PmixDiagnostics diagnostics(sink.pipe.write_end.get());
    say(pmix_fd(), "late\nno newline");
  }
  EXPECT_EQ(sink.read_all(), "shmpirun: libpmix: late\nshmpirun: libpmix: no newline\n");
}

TEST(PmixDiagnostics, LibpmixWritesItsMessagesThere) {
  Sink sink;
  PmixDiagnostics diagnostics(sink.pipe.write_end.get());
  pmix_output_finalize();  // so that the next output starts afresh
  pmix_output(0, "hello from %s", "libpmix");
  pmix_output_finalize();
  diagnostics.on_readable();
  std::string text = sink.read_all();
  EXPECT_TRUE(text.starts_with("shmpirun: libpmix: [")) << text;
  EXPECT_TRUE(text.ends_with("] hello from libpmix\n")) << text;
}

}  // namespace
}  // namespace shmpi::launcher
