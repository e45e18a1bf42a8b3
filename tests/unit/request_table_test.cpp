// RequestTable: handles name stable slots across chunk growth, lookups
// refuse inactive and orphaned handles, and freed slots are reused.
#include "runtime/request_table.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace shmpi::runtime {
namespace {

TEST(RequestTable, HandlesStayBoundToTheirSlotsAcrossGrowth) {
  RequestTable table;
  std::vector<MPI_Request> handles(300);
  std::vector<MpiRequest*> slots;
  for (MPI_Request& h : handles) slots.push_back(&table.allocate(h));
  for (std::size_t i = 0; i < handles.size(); ++i) {
    EXPECT_EQ(handles[i], static_cast<MPI_Request>(i + 1));
    EXPECT_EQ(table.find(handles[i]), slots[i]);  // same address after 300 allocations
    EXPECT_EQ(slots[i]->handle, handles[i]);
  }
  EXPECT_EQ(table.active(), 300U);
}

TEST(RequestTable, FindRefusesNullOutOfRangeReleasedAndOrphaned) {
  RequestTable table;
  MPI_Request a = MPI_REQUEST_NULL, b = MPI_REQUEST_NULL;
  table.allocate(a);
  MpiRequest& rb = table.allocate(b);
  EXPECT_EQ(table.find(MPI_REQUEST_NULL), nullptr);
  EXPECT_EQ(table.find(b + 1), nullptr);
  EXPECT_EQ(table.find(-5), nullptr);
  table.release(a);
  EXPECT_EQ(table.find(a), nullptr);
  rb.pml.complete = false;
  table.orphan(b);
  EXPECT_EQ(table.find(b), nullptr);
  EXPECT_EQ(table.orphans(), 1U);
  rb.pml.complete = true;
  table.reap([](std::size_t) {});
  EXPECT_EQ(table.orphans(), 0U);
  EXPECT_EQ(table.active(), 0U);
}

TEST(RequestTable, ReleasedSlotsAreReusedBeforeGrowing) {
  RequestTable table;
  std::vector<MPI_Request> handles(70);
  for (MPI_Request& h : handles) table.allocate(h);
  for (MPI_Request h : handles) table.release(h);
  for (int round = 0; round < 1000; ++round) {
    MPI_Request h = MPI_REQUEST_NULL;
    table.allocate(h);
    EXPECT_LE(h, 70);
    table.release(h);
  }
}

}  // namespace
}  // namespace shmpi::runtime
