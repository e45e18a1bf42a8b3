// Info store, keyval and attribute rules, error codes (runtime/info.cpp,
// attributes.cpp, error_codes.cpp).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/attributes.hpp"
#include "runtime/error_codes.hpp"
#include "runtime/info.hpp"

namespace shmpi::runtime {
namespace {

TEST(InfoStore, ReplacingKeepsPositionDeletingShifts) {
  InfoStore info;
  info.set("a", "1");
  info.set("b", "2");
  info.set("a", "3");
  ASSERT_EQ(info.size(), 2u);
  EXPECT_EQ(info.key(0), "a");
  EXPECT_EQ(*info.get("a"), "3");
  EXPECT_EQ(info.get("c"), nullptr);
  EXPECT_TRUE(info.erase("a"));
  EXPECT_FALSE(info.erase("a"));
  EXPECT_EQ(info.key(0), "b");
}

TEST(InfoStore, KeyAndValueLimits) {
  EXPECT_TRUE(invalid_info_key(""));
  EXPECT_TRUE(invalid_info_key(nullptr));
  EXPECT_FALSE(invalid_info_key(std::string(MPI_MAX_INFO_KEY, 'k').c_str()));
  EXPECT_TRUE(invalid_info_key(std::string(MPI_MAX_INFO_KEY + 1, 'k').c_str()));
  EXPECT_FALSE(invalid_info_value(""));
  EXPECT_TRUE(invalid_info_value(std::string(MPI_MAX_INFO_VAL + 1, 'v').c_str()));
}

TEST(InfoTable, EnvCannotBeFreedHandlesAreReused) {
  InfoTable table{InfoStore{}};
  EXPECT_NE(table.find(MPI_INFO_ENV), nullptr);
  EXPECT_EQ(table.find(MPI_INFO_NULL), nullptr);
  EXPECT_FALSE(table.free(MPI_INFO_ENV));
  const MPI_Info a = table.add(InfoStore{});
  EXPECT_TRUE(table.free(a));
  EXPECT_EQ(table.find(a), nullptr);
  EXPECT_EQ(table.add(InfoStore{}), a);
}

// Callbacks that record what they saw.
std::vector<std::string> events;
int record_copy(MPI_Comm, int keyval, void*, void* in, void* out, int* flag) {
  events.push_back("copy " + std::to_string(keyval));
  *static_cast<void**>(out) = static_cast<char*>(in) + 1;
  *flag = 1;
  return MPI_SUCCESS;
}
int record_delete(MPI_Comm, int keyval, void* value, void*) {
  events.push_back("delete " + std::to_string(keyval) + " " + std::to_string(reinterpret_cast<std::intptr_t>(value)));
  return MPI_SUCCESS;
}
int refuse(MPI_Comm, int, void*, void*) { return MPI_ERR_OTHER; }
void ignore_error(MPI_Comm*, int*, ...) {}
void* val(std::intptr_t v) { return reinterpret_cast<void*>(v); }

TEST(Attributes, SetReplacesThroughDeleteCopyAndEraseAllRunCallbacks) {
  events.clear();
  KeyvalTable keyvals;
  const int k1 = keyvals.create(AttrKind::Comm, record_copy, record_delete, nullptr);
  const int k2 = keyvals.create(AttrKind::Comm, nullptr, record_delete, nullptr);  // null copy: never copied
  AttributeList list;
  const AttributesOf of = [&list] { return &list; };
  EXPECT_EQ(keyvals.set(of, 1, k1, val(10)), MPI_SUCCESS);
  EXPECT_EQ(keyvals.set(of, 1, k2, val(20)), MPI_SUCCESS);
  EXPECT_EQ(keyvals.set(of, 1, k1, val(11)), MPI_SUCCESS);
  AttributeList copy;
  EXPECT_EQ(keyvals.copy_all(list, 1, copy), MPI_SUCCESS);
  ASSERT_EQ(copy.size(), 1u);
  EXPECT_EQ(*KeyvalTable::get(copy, k1), val(12));
  EXPECT_EQ(KeyvalTable::get(copy, k2), nullptr);
  EXPECT_EQ(keyvals.erase_all(of, 1), MPI_SUCCESS);  // newest first
  const std::vector<std::string> want = {"delete " + std::to_string(k1) + " 10", "copy " + std::to_string(k1),
                                         "delete " + std::to_string(k2) + " 20",
                                         "delete " + std::to_string(k1) + " 11"};
  EXPECT_EQ(events, want);
  EXPECT_TRUE(list.empty());
}

TEST(Attributes, FreedKeyvalLivesWhileAttributesHoldIt) {
  KeyvalTable keyvals;
  const int k = keyvals.create(AttrKind::Comm, nullptr, nullptr, nullptr);
  AttributeList list;
  const AttributesOf of = [&list] { return &list; };
  keyvals.set(of, 1, k, val(1));
  EXPECT_TRUE(keyvals.release(k, AttrKind::Comm));
  EXPECT_EQ(keyvals.find(k, AttrKind::Comm), nullptr);  // no new attributes
  EXPECT_FALSE(keyvals.release(k, AttrKind::Comm));
  bool found = false;
  EXPECT_EQ(keyvals.erase(of, 1, k, found), MPI_SUCCESS);
  EXPECT_TRUE(found);
  EXPECT_EQ(keyvals.create(AttrKind::Comm, nullptr, nullptr, nullptr), k);  // its slot is free again
}

// A delete callback may delete other attributes of the same object
// (MPICH's attr/attrdelete): the table finds the list again after it.
KeyvalTable* nested_table = nullptr;
AttributeList* nested_list = nullptr;
int nested_other = 0;
int delete_other(MPI_Comm, int, void*, void*) {
  bool found = false;
  const int rc = nested_table->erase([] { return nested_list; }, 1, nested_other, found);
  return rc == MPI_SUCCESS && found ? MPI_SUCCESS : MPI_ERR_OTHER;
}

TEST(Attributes, ADeleteCallbackMayDeleteOtherAttributes) {
  KeyvalTable keyvals;
  AttributeList list;
  const AttributesOf of = [&list] { return &list; };
  const int k1 = keyvals.create(AttrKind::Comm, nullptr, nullptr, nullptr);
  const int k2 = keyvals.create(AttrKind::Comm, nullptr, delete_other, nullptr);
  nested_table = &keyvals;
  nested_list = &list;
  nested_other = k1;
  keyvals.set(of, 1, k1, val(1));
  keyvals.set(of, 1, k2, val(2));
  bool found = false;
  EXPECT_EQ(keyvals.erase(of, 1, k2, found), MPI_SUCCESS);
  EXPECT_TRUE(found);
  EXPECT_TRUE(list.empty());
  EXPECT_TRUE(keyvals.release(k1, AttrKind::Comm));  // no attribute holds it any more: its slot is free
  EXPECT_EQ(keyvals.create(AttrKind::Comm, nullptr, nullptr, nullptr), k1);
}

TEST(Attributes, KindsDoNotMixAndRefusalsStop) {
  KeyvalTable keyvals;
  const int k = keyvals.create(AttrKind::Type, nullptr, refuse, nullptr);
  EXPECT_GE(k, KeyvalTable::kFirstUserKeyval);
  EXPECT_EQ(keyvals.find(k, AttrKind::Comm), nullptr);
  EXPECT_NE(keyvals.find(k, AttrKind::Type), nullptr);
  AttributeList list;
  const AttributesOf of = [&list] { return &list; };
  keyvals.set(of, 4, k, val(1));
  EXPECT_EQ(keyvals.set(of, 4, k, val(2)), MPI_ERR_OTHER);  // the old value cannot be deleted
  EXPECT_EQ(*KeyvalTable::get(list, k), val(1));
  EXPECT_EQ(keyvals.erase_all(of, 4), MPI_ERR_OTHER);
  EXPECT_EQ(list.size(), 1u);
}

TEST(ErrorCodes, ClassesCodesStringsAndRemoval) {
  ErrorCodes codes;
  const int cls = codes.add_class();
  const int code = codes.add_code(cls);
  const int other = codes.add_code(MPI_ERR_ARG);
  EXPECT_GT(cls, MPI_ERR_LASTCODE);
  EXPECT_EQ(codes.class_of(code), cls);
  EXPECT_EQ(codes.class_of(other), MPI_ERR_ARG);
  EXPECT_EQ(codes.class_of(MPI_ERR_ARG), std::nullopt);
  EXPECT_EQ(codes.last_used(), other);
  EXPECT_TRUE(codes.set_text(code, "diverged"));
  EXPECT_EQ(*codes.text(code), "diverged");
  EXPECT_FALSE(codes.remove(cls, true));  // still has a code
  EXPECT_FALSE(codes.remove(code, true));  // not a class
  EXPECT_TRUE(codes.remove(code, false));
  EXPECT_TRUE(codes.remove(cls, true));
  EXPECT_EQ(codes.class_of(cls), std::nullopt);
}

TEST(ErrhandlerTable, PredefinedAndUserHandlers) {
  ErrhandlerTable table;
  EXPECT_TRUE(table.valid(MPI_ERRORS_RETURN));
  EXPECT_FALSE(table.valid(MPI_ERRHANDLER_NULL));
  const MPI_Errhandler h = table.add(ignore_error);
  EXPECT_GT(h, MPI_ERRORS_ABORT);
  EXPECT_TRUE(table.valid(h));
  EXPECT_EQ(table.function(MPI_ERRORS_ARE_FATAL), nullptr);
  EXPECT_FALSE(table.valid(h + 1));
}

}  // namespace
}  // namespace shmpi::runtime
