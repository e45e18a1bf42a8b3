// The CPU a profile's match rule looks at: cpuid vendor string, family and
// model (as Linux prints them in /proc/cpuinfo), and how long a cache line
// takes to pass between the cores of a job's first two ranks, measured by
// shmpirun at start-up (launcher/handoff_probe.hpp) and handed to the ranks
// in SHMPI_MEASURED_HANDOFF_NS.
#pragma once

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>

#include "shmpi/tunable_spec.hpp"

namespace shmpi::contract {

struct CpuIdentity {
  std::string vendor;   // "GenuineIntel", "AuthenticAMD"; empty when unknown
  unsigned family = 0;  // with the extended family added, as /proc/cpuinfo "cpu family"
  unsigned model = 0;   // with the extended model added, as /proc/cpuinfo "model"
  unsigned handoff_ns = 0;  // one-way cache-line hand-off between the first two ranks' cores; 0: not measured
};

// Set by shmpirun for its ranks (and read by shmpirun itself, which then
// does not measure): the measured hand-off in ns; 0 means "not measured".
inline constexpr const char* kMeasuredHandoffEnv = "SHMPI_MEASURED_HANDOFF_NS";

// `text` (SHMPI_MEASURED_HANDOFF_NS's value) as ns, or nullopt when it is
// missing or not a whole number below a second (parse_count, as every count
// a tunable takes: no sign, no blanks).
inline std::optional<unsigned> handoff_from_environment(const char* text = std::getenv(kMeasuredHandoffEnv)) {
  if (text == nullptr) return std::nullopt;
  const std::optional<std::uint64_t> value = parse_count(text);
  if (!value || *value >= 1000000000U) return std::nullopt;
  return static_cast<unsigned>(*value);
}

inline CpuIdentity this_cpu() {
  CpuIdentity cpu;
#if defined(__x86_64__) || defined(__i386__)
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (__get_cpuid(0, &a, &b, &c, &d) == 0) return cpu;
  char vendor[13] = {};
  std::memcpy(vendor, &b, 4);  // the vendor string is spelled across ebx, edx, ecx
  std::memcpy(vendor + 4, &d, 4);
  std::memcpy(vendor + 8, &c, 4);
  cpu.vendor = vendor;
  if (__get_cpuid(1, &a, &b, &c, &d) == 0) return cpu;
  const unsigned base_family = (a >> 8) & 0xf;
  const unsigned base_model = (a >> 4) & 0xf;
  cpu.family = base_family == 0xf ? base_family + ((a >> 20) & 0xff) : base_family;
  cpu.model = base_family == 0x6 || base_family == 0xf ? base_model + (((a >> 16) & 0xf) << 4) : base_model;
#endif
  return cpu;
}

// this_cpu() with the hand-off shmpirun measured for this job, if any.
inline CpuIdentity this_cpu_in_job() {
  CpuIdentity cpu = this_cpu();
  cpu.handoff_ns = handoff_from_environment().value_or(0);
  return cpu;
}

// "cpu_vendor=GenuineIntel cpu_family=6 cpu_model=143", in a profile's match words.
// With " handoff_ns=N" when it was measured.
inline std::string cpu_text(const CpuIdentity& cpu) {
  std::string text = "cpu_vendor=" + (cpu.vendor.empty() ? std::string("unknown") : cpu.vendor) +
                     " cpu_family=" + std::to_string(cpu.family) + " cpu_model=" + std::to_string(cpu.model);
  if (cpu.handoff_ns != 0) text.append(" handoff_ns=").append(std::to_string(cpu.handoff_ns));
  return text;
}

}  // namespace shmpi::contract
