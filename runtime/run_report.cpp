#include "runtime/run_report.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string_view>
#include <vector>

#include "btl/box_probe.hpp"
#include "runtime/collectives.hpp"
#include "runtime/context.hpp"
#include "runtime/run_report_format.hpp"

namespace shmpi::runtime {
namespace {

constexpr std::size_t kReportWords = sizeof(RankReport) / sizeof(std::uint64_t);

// One rank's record as gathered: the RankReport, then by world rank the
// messages and bytes it sent there, then the pair's box line.
std::size_t record_words(std::uint32_t nranks) { return kReportWords + 3 * std::size_t{nranks}; }

RankReport rank_report(Context& context) {
  const pml::Pml& pml = context.pml();
  RankReport r;
  r.protocols = pml.stats().totals();
  r.routes_single_copy = pml.routes_taken(pml::Route::SingleCopy);
  r.routes_stream = pml.routes_taken(pml::Route::Stream);
  r.epochs_recorded = pml.epochs_recorded();
  r.reads_batched = pml.reads_batched();
  r.split_parts_written = pml.split_parts_written();
  r.pipelined_replies = pml.pipelined_replies();
  r.unexpected_peak = pml.unexpected_peak();
  r.unexpected_held_peak = pml.unexpected_held_peak();
  r.backlogs_raised = pml.backlogs_raised();
  r.sends_held_back = pml.sends_held_back();
  r.blocked_ns = context.status().blocked_ns();
  r.slot_collectives = context.shm_collectives().calls();
  return r;
}

// This rank's record, taken before the gather adds traffic of its own.
std::vector<std::uint64_t> snapshot(Context& context) {
  const std::uint32_t n = context.size();
  std::vector<std::uint64_t> words(record_words(n));
  const RankReport report = rank_report(context);
  std::memcpy(words.data(), &report, sizeof report);
  const std::vector<pml::TrafficCount>& to = context.pml().stats().to_peers();
  for (std::uint32_t peer = 0; peer < n; ++peer) {
    words[kReportWords + peer] = to[peer].messages;
    words[kReportWords + n + peer] = to[peer].bytes;
    const std::uint32_t line = context.transport().box_line_index(peer);
    words[kReportWords + 2 * n + peer] = line < btl::kBoxLines ? line : kNoBoxLine;
  }
  return words;
}

JobReport unpack(const std::vector<std::uint64_t>& all, std::uint32_t n, std::string settings) {
  JobReport job;
  job.nranks = n;
  job.settings = std::move(settings);
  job.ranks.resize(n);
  job.sent.resize(std::size_t{n} * n);
  job.box_lines.resize(std::size_t{n} * n);
  for (std::uint32_t r = 0; r < n; ++r) {
    const std::uint64_t* words = all.data() + r * record_words(n);
    std::memcpy(static_cast<void*>(&job.ranks[r]), words, sizeof(RankReport));  // trivially copyable
    for (std::uint32_t peer = 0; peer < n; ++peer) {
      job.sent[std::size_t{r} * n + peer] = pml::TrafficCount{words[kReportWords + peer], words[kReportWords + n + peer]};
      job.box_lines[std::size_t{r} * n + peer] = static_cast<std::uint32_t>(words[kReportWords + 2 * n + peer]);
    }
  }
  return job;
}

const char* on_off(bool on) { return on ? "on" : "off"; }

// The tunables in force at rank 0, in their shmpi_info names.
std::string settings_text(const Context& context) {
  const Config& c = context.config();
  const char* wait = c.wait_policy == WaitMode::Spin ? "spin" : c.wait_policy == WaitMode::Yield ? "yield" : "auto";
  std::string copy = c.single_copy == SingleCopy::Cma ? "cma" : "none";
  if (c.single_copy == SingleCopy::Cma && !context.single_copy_enabled()) copy += " (refused here: streaming)";
  return "eager_limit " + std::to_string(c.eager_limit) + ", rndv_threshold " + std::to_string(c.rndv_threshold) +
         ", max_fragment " + std::to_string(c.max_fragment) + ", split_threshold " +
         std::to_string(c.split_threshold) + ", reply_pipeline_limit " + std::to_string(c.reply_pipeline_limit) +
         ", ring_size " + std::to_string(c.ring_size) + ", fast_box " + on_off(c.fast_box) + ", box_probe " +
         on_off(c.box_probe) + ", rndv_route " + (c.choose_route ? "auto" : "single_copy") + ", single_copy " +
         copy + ", wait_policy " + wait;
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) std::fprintf(stderr, "shmpi: cannot write the communication matrix to %s\n", path.c_str());
}

}  // namespace

ReportRequest ReportRequest::from_environment() {
  ReportRequest request;
  const char* stats = std::getenv("SHMPI_STATS");
  const std::string_view value = stats != nullptr ? stats : "";
  request.stats = value == "1";
  if (!value.empty() && value != "0" && value != "1")
    request.problem = "SHMPI_STATS='" + std::string(value) + "' ignored: use 1 (report) or 0";
  if (const char* matrix = std::getenv("SHMPI_COMM_MATRIX")) request.comm_matrix = matrix;
  return request;
}

void report_run(Context& context) {
  const ReportRequest request = ReportRequest::from_environment();
  if (!request.problem.empty() && context.rank() == 0) std::fprintf(stderr, "shmpi: %s\n", request.problem.c_str());
  if (!request.wanted()) return;
  const std::uint32_t n = context.size();
  const std::vector<std::uint64_t> mine = snapshot(context);
  std::vector<std::uint64_t> all(record_words(n) * n);
  allgather(context, *context.communicator(MPI_COMM_WORLD), mine.data(), all.data(),
            mine.size() * sizeof(std::uint64_t), "MPI_Finalize");
  if (context.rank() != 0) return;
  JobReport job = unpack(all, n, settings_text(context));
  job.box_lines_probed = context.transport().address().probes_box_lines;  // the same on every rank
  job.unexpected_budget = context.config().unexpected_budget;
  if (request.stats) {
    std::string text;
    for (const std::string& line : stats_lines(job)) text += line + '\n';
    std::fputs(text.c_str(), stderr);
    std::fflush(stderr);
  }
  if (!request.comm_matrix.empty()) {
    write_file(request.comm_matrix, matrix_csv(job, MatrixCell::Bytes));
    write_file(request.comm_matrix + ".messages.csv", matrix_csv(job, MatrixCell::Messages));
  }
}

}  // namespace shmpi::runtime
