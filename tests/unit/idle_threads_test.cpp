// IdleThreads and EntryLock (runtime/idle_threads.hpp, runtime/entry_lock.hpp):
// one waiting thread progresses, the others stand by until it finds their
// wait over or leaves; the lock excludes and is handed on.
#include "runtime/idle_threads.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

namespace shmpi::runtime {
namespace {

TEST(EntryLock, ExcludesAndHandsOn) {
  EntryLock lock;
  long counter = 0;  // plain: only the lock orders it
  constexpr int kThreads = 4, kRounds = 20000;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < kRounds; ++i) {
        lock.lock();
        ++counter;
        lock.hand_on();  // may let another in between: the count still adds up
        ++counter;
        lock.unlock();
      }
    });
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(counter, 2L * kThreads * kRounds);
}

TEST(IdleThreads, TheFirstWaiterProgresses) {
  EntryLock lock;
  IdleThreads idle;
  int a = 0;
  auto never = [] { return false; };
  lock.lock();
  EXPECT_EQ(idle.take_turn(lock, &a, never), pml::Turn::Progress);
  EXPECT_EQ(idle.take_turn(lock, &a, never), pml::Turn::Progress);
  idle.leave(&a);
  lock.unlock();
}

// Until `idle` has `count` threads standing by.
void until_standing(EntryLock& lock, const IdleThreads& idle, std::uint32_t count) {
  for (;;) {
    lock.lock();
    const bool there = idle.standing() == count;
    lock.unlock();
    if (there) return;
    std::this_thread::yield();
  }
}

// The progressing thread finds a stand-by's done() true after a move: the
// stand-by is woken and told Done, its done() asked once, by the
// progressing thread.
TEST(IdleThreads, AStandByIsWokenWhenItsWaitIsOver) {
  EntryLock lock;
  IdleThreads idle;
  int progressor = 0, stand_by = 0;
  bool message_in = false;  // under lock
  int asked = 0;            // under lock
  auto never = [] { return false; };
  lock.lock();
  ASSERT_EQ(idle.take_turn(lock, &progressor, never), pml::Turn::Progress);
  lock.unlock();

  pml::Turn told = pml::Turn::LookAgain;
  std::thread other([&] {
    auto done = [&] {
      ++asked;
      return message_in;
    };
    lock.lock();
    while (told == pml::Turn::LookAgain) told = idle.take_turn(lock, &stand_by, done);
    lock.unlock();
  });
  until_standing(lock, idle, 1);
  lock.lock();
  idle.progressed();  // nothing for it yet: it sleeps on
  EXPECT_EQ(asked, 1);
  message_in = true;
  EXPECT_EQ(idle.progressed(), true);
  EXPECT_EQ(asked, 2);
  lock.unlock();
  other.join();
  EXPECT_EQ(told, pml::Turn::Done);
  lock.lock();
  EXPECT_EQ(asked, 2);
  EXPECT_EQ(idle.standing(), 0u);
  idle.leave(&progressor);
  lock.unlock();
}

// A woken stand-by counts as working at once, before it runs: the
// progressing thread, which yields to threads at work, then lets it have
// the core they may share.
TEST(IdleThreads, AWokenStandByWorksBeforeItRuns) {
  EntryLock lock;
  IdleThreads idle;
  int progressor = 0, stand_by = 0;
  bool message_in = false;  // under lock
  auto never = [] { return false; };
  lock.lock();
  idle.call_entered();  // the progressing thread's call
  ASSERT_EQ(idle.take_turn(lock, &progressor, never), pml::Turn::Progress);
  lock.unlock();
  std::thread other([&] {
    auto done = [&] { return message_in; };
    lock.lock();
    idle.call_entered();
    while (idle.take_turn(lock, &stand_by, done) == pml::Turn::LookAgain) {
    }
    idle.call_left();
    lock.unlock();
  });
  until_standing(lock, idle, 1);
  lock.lock();
  EXPECT_FALSE(idle.others_working()) << "a sleeping stand-by needs no core";
  message_in = true;
  EXPECT_TRUE(idle.progressed());
  // Still ours: the stand-by cannot be back from its sleep yet.
  EXPECT_EQ(idle.standing(), 0u);
  EXPECT_TRUE(idle.others_working());
  EXPECT_FALSE(idle.progressed()) << "woken once";
  lock.unlock();
  other.join();
  lock.lock();
  EXPECT_EQ(idle.standing(), 0u);
  EXPECT_FALSE(idle.others_working());
  idle.leave(&progressor);
  idle.call_left();
  lock.unlock();
}

// `first` progresses and `second` stands by; `then(lock, first, never)`,
// run holding the lock, must make `second` take over (its wait then gets
// the turn to progress).
template <class Then>
void expect_take_over(IdleThreads& idle, Then&& then) {
  EntryLock lock;
  int first = 0, second = 0;
  auto never = [] { return false; };
  lock.lock();
  ASSERT_EQ(idle.take_turn(lock, &first, never), pml::Turn::Progress);
  lock.unlock();
  bool took_over = false;  // under lock
  std::thread other([&] {
    lock.lock();
    while (idle.take_turn(lock, &second, never) != pml::Turn::Progress) {
    }
    took_over = true;
    idle.leave(&second);
    lock.unlock();
  });
  until_standing(lock, idle, 1);
  lock.lock();
  EXPECT_FALSE(took_over);
  then(lock, &first, never);
  lock.unlock();
  other.join();
  EXPECT_TRUE(took_over);
}

// The progressing thread leaves: a stand-by takes over.
TEST(IdleThreads, AStandByTakesOverWhenTheProgressorLeaves) {
  IdleThreads idle;
  expect_take_over(idle, [&](EntryLock&, const void* first, auto&) { idle.leave(first); });
}

// The progressing thread steps down to yield its core, then its wait ends
// before anyone else waited: a stand-by must take over, or nobody would
// progress for it.
TEST(IdleThreads, AStandByTakesOverWhenAThreadThatSteppedDownLeaves) {
  IdleThreads idle;
  idle.without_safety_timeout();  // a missed wake-up hangs instead of passing late
  expect_take_over(idle, [&](EntryLock& lock, const void* first, auto& never) {
    idle.step_down(first);
    EXPECT_EQ(idle.take_turn(lock, first, never), pml::Turn::Progress) << "nobody took over: it may progress again";
    idle.step_down(first);
    idle.leave(first);
  });
}

}  // namespace
}  // namespace shmpi::runtime
