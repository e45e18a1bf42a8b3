#include "report_options.hpp"

#include <unistd.h>

#include <filesystem>
#include <system_error>

#include "launch_error.hpp"

namespace shmpi::launcher {
namespace {

constexpr std::string_view kMatrix = "comm-matrix";

void set_matrix_file(ReportOptions& report, std::string_view file) {
  if (file.empty()) throw usage_error("--report comm-matrix needs a FILE");
  report.comm_matrix = std::string(file);
}

}  // namespace

void apply_report(ReportOptions& report, std::string_view flag, std::string_view what) {
  if (what == "stats") {
    report.stats = true;
  } else if (what.starts_with(kMatrix) && what.size() > kMatrix.size() && what[kMatrix.size()] == '=') {
    set_matrix_file(report, what.substr(kMatrix.size() + 1));
  } else if (what != kMatrix) {
    throw usage_error(std::string(flag) + " must be stats or comm-matrix FILE, not '" + std::string(what) + "'");
  }
}

void take_matrix_file(ReportOptions& report, const std::string* file) {
  if (file == nullptr) throw usage_error("--report comm-matrix needs a FILE");
  set_matrix_file(report, *file);
}

void prepare_report(ReportOptions& report, Environment& rank_env) {
  if (report.stats) set_variable(rank_env, "SHMPI_STATS", "1");
  if (report.comm_matrix.empty()) return;
  std::error_code error;
  const std::filesystem::path file = std::filesystem::absolute(report.comm_matrix, error);
  if (error) throw usage_error("--report comm-matrix " + report.comm_matrix + ": " + error.message());
  const std::filesystem::path dir = file.parent_path();
  if (!std::filesystem::is_directory(dir, error) || ::access(dir.c_str(), W_OK) != 0)
    throw usage_error("--report comm-matrix " + report.comm_matrix + ": no writable directory " + dir.string());
  report.comm_matrix = file.string();
  set_variable(rank_env, "SHMPI_COMM_MATRIX", report.comm_matrix);
}

}  // namespace shmpi::launcher
