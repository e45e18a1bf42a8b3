// The CPU a profile's match rule looks at: cpuid vendor string, family and
// model (as Linux prints them in /proc/cpuinfo).
#pragma once

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include <cstring>
#include <string>

namespace shmpi::contract {

struct CpuIdentity {
  std::string vendor;   // "GenuineIntel", "AuthenticAMD"; empty when unknown
  unsigned family = 0;  // with the extended family added, as /proc/cpuinfo "cpu family"
  unsigned model = 0;   // with the extended model added, as /proc/cpuinfo "model"
};

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

// "cpu_vendor=GenuineIntel cpu_family=6 cpu_model=143", in a profile's match words.
inline std::string cpu_text(const CpuIdentity& cpu) {
  return "cpu_vendor=" + (cpu.vendor.empty() ? std::string("unknown") : cpu.vendor) +
         " cpu_family=" + std::to_string(cpu.family) + " cpu_model=" + std::to_string(cpu.model);
}

}  // namespace shmpi::contract
