// The status page with several waiting threads: the record shows the
// latest wait still going on and says Running only when none is.
#include "runtime/status_page.hpp"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

namespace shmpi::runtime {
namespace {

// A launcher's status memfd for one rank, named in the environment.
class StatusFd {
 public:
  StatusFd() : fd_(::memfd_create("status_page_test", 0)) {
    EXPECT_EQ(::ftruncate(fd_, sizeof(contract::RankStatus)), 0);
    ::setenv(contract::kEnvStatusFd, std::to_string(fd_).c_str(), 1);
    view_ = ::mmap(nullptr, sizeof(contract::RankStatus), PROT_READ, MAP_SHARED, fd_, 0);
  }
  ~StatusFd() {
    ::munmap(view_, sizeof(contract::RankStatus));
    ::unsetenv(contract::kEnvStatusFd);
    ::close(fd_);
  }
  const contract::RankStatus& record() const { return *static_cast<const contract::RankStatus*>(view_); }
  contract::RankState state() const { return static_cast<contract::RankState>(record().state); }

 private:
  int fd_;
  void* view_;
};

TEST(StatusPage, ShowsTheLatestWaitStillGoingOn) {
  StatusFd fd;
  StatusPage page(0, 1);
  EXPECT_EQ(fd.state(), contract::RankState::Running);
  const BlockedCall recv{"MPI_Recv", 1, 7, 8, 4};
  const BlockedCall ssend{"MPI_Ssend", 1, 9, 16, 4};
  const BlockedCall barrier{"MPI_Barrier", -2, -1, 0, 5};
  page.blocked(recv, 0);
  page.blocked(ssend, 1);
  EXPECT_EQ(std::string(fd.record().call), "MPI_Ssend");
  page.blocked(barrier, 1);
  page.unblocked(ssend);  // not the one shown: the latest stays
  EXPECT_EQ(std::string(fd.record().call), "MPI_Barrier");
  page.unblocked(barrier);  // the one shown: the one before it shows
  EXPECT_EQ(fd.state(), contract::RankState::Blocked);
  EXPECT_EQ(std::string(fd.record().call), "MPI_Recv");
  EXPECT_EQ(fd.record().tag, 7);
  page.unblocked(recv);
  EXPECT_EQ(fd.state(), contract::RankState::Running);
}

TEST(StatusPage, MoreWaitsThanRememberedStillEndRunning) {
  StatusFd fd;
  StatusPage page(0, 1);
  const BlockedCall call{"MPI_Recv", 1, 7, 8, 4};
  BlockedCall calls[40];
  for (BlockedCall& c : calls) {
    c = call;
    page.blocked(c, 0);
  }
  for (int i = 39; i > 0; --i) page.unblocked(calls[i]);
  EXPECT_EQ(fd.state(), contract::RankState::Blocked);
  page.unblocked(calls[0]);
  EXPECT_EQ(fd.state(), contract::RankState::Running);
}

}  // namespace
}  // namespace shmpi::runtime
