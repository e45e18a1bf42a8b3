#include "runtime/group.hpp"

#include <algorithm>
#include <string>
#include <unordered_set>

namespace shmpi::runtime {
namespace {

ArgError bad_rank(int rank, const Group& group) {
  return ArgError{MPI_ERR_RANK, "invalid rank " + std::to_string(rank) + " (the group has " +
                                    std::to_string(group.size()) + " ranks)"};
}

// Which ranks of `group` the list names, each checked for range and
// repetition; `marked` gets one flag per group rank.
Check mark_ranks(const Group& group, const int* ranks, int n, std::vector<bool>& marked) {
  if (n < 0) return ArgError{MPI_ERR_ARG, "negative rank count " + std::to_string(n)};
  if (n > 0 && ranks == nullptr) return ArgError{MPI_ERR_ARG, "null ranks array"};
  marked.assign(group.size(), false);
  for (int i = 0; i < n; ++i) {
    const int r = ranks[i];
    if (r < 0 || static_cast<std::size_t>(r) >= group.size()) return bad_rank(r, group);
    if (marked[static_cast<std::size_t>(r)])
      return ArgError{MPI_ERR_RANK, "rank " + std::to_string(r) + " is named twice"};
    marked[static_cast<std::size_t>(r)] = true;
  }
  return std::nullopt;
}

// The ranks a list of range triplets names, in order, checked like mark_ranks.
Check expand_ranges(const Group& group, const int (*ranges)[3], int n, std::vector<int>& out) {
  if (n < 0) return ArgError{MPI_ERR_ARG, "negative range count " + std::to_string(n)};
  if (n > 0 && ranges == nullptr) return ArgError{MPI_ERR_ARG, "null ranges array"};
  out.clear();
  const long size = static_cast<long>(group.size());
  for (int i = 0; i < n; ++i) {
    const long first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
    if (stride == 0) return ArgError{MPI_ERR_ARG, "range " + std::to_string(i) + " has stride 0"};
    if (first < 0 || first >= size) return bad_rank(static_cast<int>(first), group);
    if (last < 0 || last >= size) return bad_rank(static_cast<int>(last), group);
    for (long r = first; stride > 0 ? r <= last : r >= last; r += stride) out.push_back(static_cast<int>(r));
  }
  std::vector<bool> marked;
  return mark_ranks(group, out.data(), static_cast<int>(out.size()), marked);
}

GroupResult keep(const Group& group, const std::vector<bool>& marked, bool wanted) {
  Group out;
  for (std::size_t r = 0; r < group.size(); ++r)
    if (marked[r] == wanted) out.push_back(group[r]);
  return out;
}

}  // namespace

int rank_in(const Group& group, std::uint32_t world) noexcept {
  const auto it = std::find(group.begin(), group.end(), world);
  return it == group.end() ? MPI_UNDEFINED : static_cast<int>(it - group.begin());
}

int compare_groups(const Group& a, const Group& b) {
  if (a == b) return MPI_IDENT;
  Group sa = a, sb = b;
  std::sort(sa.begin(), sa.end());
  std::sort(sb.begin(), sb.end());
  return sa == sb ? MPI_SIMILAR : MPI_UNEQUAL;
}

Group group_union(const Group& a, const Group& b) {
  Group out = a;
  const std::unordered_set<std::uint32_t> in_a(a.begin(), a.end());
  for (std::uint32_t w : b)
    if (in_a.count(w) == 0) out.push_back(w);
  return out;
}

Group group_intersection(const Group& a, const Group& b) {
  const std::unordered_set<std::uint32_t> in_b(b.begin(), b.end());
  Group out;
  for (std::uint32_t w : a)
    if (in_b.count(w) != 0) out.push_back(w);
  return out;
}

Group group_difference(const Group& a, const Group& b) {
  const std::unordered_set<std::uint32_t> in_b(b.begin(), b.end());
  Group out;
  for (std::uint32_t w : a)
    if (in_b.count(w) == 0) out.push_back(w);
  return out;
}

GroupResult group_incl(const Group& group, const int* ranks, int n) {
  std::vector<bool> marked;
  if (Check failed = mark_ranks(group, ranks, n, marked)) return *failed;
  Group out;
  for (int i = 0; i < n; ++i) out.push_back(group[static_cast<std::size_t>(ranks[i])]);
  return out;
}

GroupResult group_excl(const Group& group, const int* ranks, int n) {
  std::vector<bool> marked;
  if (Check failed = mark_ranks(group, ranks, n, marked)) return *failed;
  return keep(group, marked, false);
}

GroupResult group_range_incl(const Group& group, const int (*ranges)[3], int n) {
  std::vector<int> ranks;
  if (Check failed = expand_ranges(group, ranges, n, ranks)) return *failed;
  return group_incl(group, ranks.data(), static_cast<int>(ranks.size()));
}

GroupResult group_range_excl(const Group& group, const int (*ranges)[3], int n) {
  std::vector<int> ranks;
  if (Check failed = expand_ranges(group, ranges, n, ranks)) return *failed;
  return group_excl(group, ranks.data(), static_cast<int>(ranks.size()));
}

Check translate_ranks(const Group& from, const int* ranks, int n, const Group& to, int* out) {
  if (n < 0) return ArgError{MPI_ERR_ARG, "negative rank count " + std::to_string(n)};
  if (n > 0 && (ranks == nullptr || out == nullptr)) return ArgError{MPI_ERR_ARG, "null ranks array"};
  for (int i = 0; i < n; ++i) {
    const int r = ranks[i];
    if (r == MPI_PROC_NULL) {
      out[i] = MPI_PROC_NULL;
      continue;
    }
    if (r < 0 || static_cast<std::size_t>(r) >= from.size()) return bad_rank(r, from);
    out[i] = rank_in(to, from[static_cast<std::size_t>(r)]);
  }
  return std::nullopt;
}

}  // namespace shmpi::runtime
