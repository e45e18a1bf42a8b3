#include "session_dir.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <string_view>
#include <vector>

#include "launch_error.hpp"

namespace shmpi::launcher {

namespace fs = std::filesystem;

std::string session_base_dir() {
  const char* tmp = std::getenv("TMPDIR");
  return (tmp != nullptr && *tmp != '\0') ? std::string(tmp) : std::string("/tmp");
}

SessionDir::SessionDir() {
  std::string base = session_base_dir();
  remove_stale_session_dirs(base);
  std::string pattern = base + "/shmpi-" + std::to_string(::getpid()) + "-XXXXXX";
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  if (::mkdtemp(buffer.data()) == nullptr)
    throw system_error("cannot create a session directory in " + base, errno);
  path_ = buffer.data();  // mkdtemp creates it with mode 0700
  owner_lock_.reset(::open((path_ + "/.owner").c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600));
  if (!owner_lock_ || ::flock(owner_lock_.get(), LOCK_EX | LOCK_NB) != 0) {
    int error = errno;
    std::error_code ignored;
    fs::remove_all(path_, ignored);
    throw system_error("cannot lock " + path_ + "/.owner", error);
  }
}

SessionDir::~SessionDir() {
  std::error_code ignored;
  fs::remove_all(path_, ignored);
}

namespace {

// The pid in "shmpi-<pid>-XXXXXX", or 0 when the name has another shape.
pid_t owner_pid(std::string_view name) {
  constexpr std::string_view kPrefix = "shmpi-";
  if (!name.starts_with(kPrefix)) return 0;
  name.remove_prefix(kPrefix.size());
  pid_t pid = 0;
  auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), pid);
  if (ec != std::errc{} || end == name.data() + name.size() || *end != '-') return 0;
  std::string_view suffix(end + 1, static_cast<std::size_t>(name.data() + name.size() - end - 1));
  return suffix.size() == 6 ? pid : 0;
}

}  // namespace

void remove_stale_session_dirs(const std::string& base) {
  std::error_code ec;
  for (const fs::directory_entry& entry : fs::directory_iterator(base, ec)) {
    pid_t pid = owner_pid(entry.path().filename().native());
    if (pid <= 0) continue;
    struct stat st {};
    if (::lstat(entry.path().c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::getuid())
      continue;
    UniqueFd lock(::open((entry.path() / ".owner").c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW));
    if (!lock || ::flock(lock.get(), LOCK_EX | LOCK_NB) != 0) continue;  // alive, or not ours
    std::error_code ignored;
    fs::remove_all(entry.path(), ignored);
  }
}

}  // namespace shmpi::launcher
