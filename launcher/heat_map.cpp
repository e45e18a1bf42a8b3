#include "heat_map.hpp"

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

extern char** environ;

namespace shmpi::launcher {
namespace {

// What the drawing needs to know of the matrix.
struct MatrixRange {
  int nranks = 0;
  std::uint64_t smallest = 0;  // of the cells that are not 0
  std::uint64_t largest = 0;
};

// Reads the CSV that rank 0 wrote: the header row gives the ranks, the
// cells the colour range. nranks 0 if it cannot be read.
MatrixRange read_range(const std::string& csv_path) {
  MatrixRange range;
  std::ifstream in(csv_path);
  std::string line;
  if (!std::getline(in, line)) return range;
  const auto columns = static_cast<int>(std::count(line.begin(), line.end(), ','));
  while (std::getline(in, line)) {
    std::istringstream row(line);
    std::string cell;
    std::getline(row, cell, ',');  // the sender's rank
    while (std::getline(row, cell, ',')) {
      const std::uint64_t bytes = std::strtoull(cell.c_str(), nullptr, 10);
      if (bytes == 0) continue;
      range.smallest = range.smallest == 0 ? bytes : std::min(range.smallest, bytes);
      range.largest = std::max(range.largest, bytes);
    }
  }
  range.nranks = columns;
  return range;
}

// A gnuplot single-quoted string: only ' needs escaping, as ''.
std::string quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

void say(const std::string& text) {
  const std::string line = "shmpirun: " + text + "\n";
  [[maybe_unused]] ssize_t n = ::write(2, line.data(), line.size());
}

// Runs gnuplot with `script`; its exit status, or -1 (errno set) if it
// could not be started.
int run_gnuplot(const std::string& script) {
  posix_spawnattr_t attr;
  ::posix_spawnattr_init(&attr);
  sigset_t none;
  sigemptyset(&none);
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);  // shmpirun ignores it; gnuplot should not
  ::posix_spawnattr_setsigmask(&attr, &none);
  ::posix_spawnattr_setsigdefault(&attr, &defaults);
  ::posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  std::string program = "gnuplot";
  std::string dash_e = "-e";
  std::string commands = script;
  char* argv[] = {program.data(), dash_e.data(), commands.data(), nullptr};
  pid_t pid = 0;
  const int error = ::posix_spawnp(&pid, "gnuplot", nullptr, &attr, argv, environ);
  ::posix_spawnattr_destroy(&attr);
  if (error != 0) {
    errno = error;
    return -1;
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

std::string heat_map_script(const std::string& csv_path, const std::string& png_path, int nranks) {
  const std::string edge = std::to_string(nranks) + "-0.5";
  std::string s;
  s += "set datafile separator ','; set terminal pngcairo size 800,700 noenhanced; ";
  s += "set output " + quoted(png_path) + "; ";
  s += "set title 'bytes sent between ranks (white: none)'; set xlabel 'receiver rank'; set ylabel 'sender rank'; ";
  s += "set cblabel 'bytes'; set logscale cb; set format cb '%.0s %cB'; ";
  s += "set palette defined (0 '#440154', 1 '#3b528b', 2 '#21918c', 3 '#5ec962', 4 '#fde725'); ";
  s += "set xrange [-0.5:" + edge + "]; set yrange [" + edge + ":-0.5]; set size square; unset key; ";  // rank 0 on top
  if (nranks <= 32) s += "set xtics 1; set ytics 1; ";
  s += "plot " + quoted(csv_path) + " matrix rowheaders columnheaders using 1:2:($3 > 0 ? $3 : NaN) with image pixels";
  return s;
}

bool draw_heat_map(const std::string& csv_path) noexcept try {
  const std::string png_path = csv_path + ".png";
  const MatrixRange range = read_range(csv_path);
  if (range.nranks < 2 || range.largest == 0) {
    say(range.nranks == 0 ? "no communication matrix in " + csv_path + ": no heat map"
                          : "no messages between ranks in " + csv_path + ": no heat map");
    return false;
  }
  // An explicit colour range: gnuplot warns about an empty one (all cells equal).
  const bool one_value = range.smallest == range.largest;
  char cbrange[96];
  std::snprintf(cbrange, sizeof cbrange, "set cbrange [%g:%g]; ", static_cast<double>(range.smallest) / (one_value ? 2 : 1),
                static_cast<double>(range.largest) * (one_value ? 2 : 1));
  const std::string script = cbrange + heat_map_script(csv_path, png_path, range.nranks);
  const int status = run_gnuplot(script);
  if (status == -1 && errno == ENOENT) {
    say("gnuplot is not in PATH: no heat map (the matrix is in " + csv_path + ")");
  } else if (status != 0) {
    say("gnuplot could not draw " + png_path);
  }
  return status == 0;
} catch (...) {
  return false;
}

}  // namespace shmpi::launcher
