// MPI_INFO_ENV: the process's command line from /proc/self/cmdline, its
// host, machine and working directory.
#include <sys/utsname.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <string>

#include "runtime/info.hpp"

namespace shmpi::runtime {

InfoStore environment_info(std::uint32_t job_size) {
  InfoStore env;
  std::ifstream cmdline("/proc/self/cmdline", std::ios::binary);
  const std::string all{std::istreambuf_iterator<char>(cmdline), std::istreambuf_iterator<char>()};
  std::string command, args;
  for (std::size_t start = 0; start < all.size();) {
    std::size_t end = all.find('\0', start);
    if (end == std::string::npos) end = all.size();
    const std::string word = all.substr(start, end - start);
    if (start == 0)
      command = word;
    else
      args += (args.empty() ? "" : " ") + word;
    start = end + 1;
  }
  if (!command.empty()) env.set("command", command);
  if (!args.empty()) env.set("argv", args);
  env.set("maxprocs", std::to_string(job_size));
  env.set("soft", std::to_string(job_size));
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) == 0) env.set("host", host);
  utsname names{};
  if (::uname(&names) == 0) env.set("arch", names.machine);
  char cwd[4096] = {};
  if (::getcwd(cwd, sizeof cwd) != nullptr) env.set("wdir", cwd);
  env.set("thread_level", "MPI_THREAD_SERIALIZED");
  return env;
}

}  // namespace shmpi::runtime
