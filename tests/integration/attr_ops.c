/* attr_ops: the predefined attributes (MPI_TAG_UB, MPI_HOST, MPI_IO,
 * MPI_WTIME_IS_GLOBAL, MPI_APPNUM, MPI_UNIVERSE_SIZE), keyvals with copy
 * and delete callbacks run by MPI_Comm_dup / MPI_Comm_free /
 * MPI_Comm_set_attr / MPI_Comm_delete_attr, MPI_COMM_DUP_FN and
 * MPI_COMM_NULL_COPY_FN, the MPI-1 names, datatype attributes, error
 * classes, and MPI_COMM_SELF's attributes deleted at MPI_Finalize (the
 * callback prints "attr_ops: rank R self attribute deleted").
 * Prints "attr_ops: rank R OK" or FAIL lines. */
#include <stdint.h>

#include "check.h"

static int rank, size;
static int copies, deletes, last_deleted;

static int counting_copy(MPI_Comm comm, int keyval, void *extra, void *in, void *out, int *flag) {
  (void)comm, (void)keyval;
  ++copies;
  *(void **)out = (void *)((intptr_t)in + (intptr_t)extra); /* copy = value + extra_state */
  *flag = 1;
  return MPI_SUCCESS;
}

static int counting_delete(MPI_Comm comm, int keyval, void *value, void *extra) {
  (void)comm, (void)keyval, (void)extra;
  ++deletes;
  last_deleted = (int)(intptr_t)value;
  return MPI_SUCCESS;
}

static int refusing_delete(MPI_Comm comm, int keyval, void *value, void *extra) {
  (void)comm, (void)keyval, (void)value, (void)extra;
  return MPI_ERR_OTHER;
}

static int self_delete(MPI_Comm comm, int keyval, void *value, void *extra) {
  (void)keyval, (void)value, (void)extra;
  printf("attr_ops: rank %d self attribute deleted%s\n", rank, comm == MPI_COMM_SELF ? "" : " FAIL: wrong comm");
  return MPI_SUCCESS;
}

static int refusing_copy(MPI_Comm comm, int keyval, void *extra, void *in, void *out, int *flag) {
  (void)comm, (void)keyval, (void)extra, (void)in, (void)out, (void)flag;
  return MPI_ERR_OTHER;
}

/* A delete callback that deletes another attribute of the same object,
 * whose keyval it is handed as extra_state (MPICH's attr/attrdelete). */
static int deleting_other(MPI_Comm comm, int keyval, void *value, void *extra) {
  (void)keyval, (void)value;
  return MPI_Comm_delete_attr(comm, *(int *)extra);
}

static void test_predefined(void) {
  int *value = NULL, flag = 0;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &value, &flag);
  CHECK(flag && *value >= 32767, "MPI_TAG_UB flag %d", flag);
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_HOST, &value, &flag);
  CHECK(flag && *value == MPI_PROC_NULL, "MPI_HOST");
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_IO, &value, &flag);
  CHECK(flag && (*value == MPI_ANY_SOURCE || *value == rank), "MPI_IO");
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &value, &flag);
  CHECK(flag && (*value == 0 || *value == 1), "MPI_WTIME_IS_GLOBAL");
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &value, &flag);
  CHECK(flag && *value == 0, "MPI_APPNUM");
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &value, &flag);
  CHECK(flag && *value == size, "MPI_UNIVERSE_SIZE %d", flag ? *value : -1);
  MPI_Attr_get(MPI_COMM_SELF, MPI_TAG_UB, &value, &flag); /* MPI-1 name, any communicator */
  CHECK(flag && *value >= 32767, "MPI_Attr_get(MPI_TAG_UB)");
}

static void test_callbacks(void) {
  int key = MPI_KEYVAL_INVALID, plain = MPI_KEYVAL_INVALID, never = MPI_KEYVAL_INVALID;
  MPI_Comm_create_keyval(counting_copy, counting_delete, &key, (void *)(intptr_t)100);
  MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &plain, NULL);
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &never, NULL);
  MPI_Comm c;
  MPI_Comm_dup(MPI_COMM_WORLD, &c);
  MPI_Comm_set_attr(c, key, (void *)(intptr_t)7);
  MPI_Comm_set_attr(c, plain, (void *)(intptr_t)8);
  MPI_Comm_set_attr(c, never, (void *)(intptr_t)9);
  MPI_Comm_set_attr(c, key, (void *)(intptr_t)17); /* replaces: deletes 7 first */
  CHECK(deletes == 1 && last_deleted == 7, "replace: deletes %d last %d", deletes, last_deleted);
  MPI_Comm d;
  MPI_Comm_dup(c, &d);
  CHECK(copies == 1, "dup ran %d copy callbacks", copies);
  void *v = NULL;
  int flag = 0;
  MPI_Comm_get_attr(d, key, &v, &flag);
  CHECK(flag && (intptr_t)v == 117, "copied attribute %d (%ld)", flag, (long)(intptr_t)v);
  MPI_Comm_get_attr(d, plain, &v, &flag);
  CHECK(flag && (intptr_t)v == 8, "MPI_COMM_DUP_FN copy %d", flag);
  MPI_Comm_get_attr(d, never, &v, &flag);
  CHECK(!flag, "MPI_COMM_NULL_COPY_FN copied");
  MPI_Comm_delete_attr(d, key);
  CHECK(deletes == 2 && last_deleted == 117, "delete_attr: deletes %d last %d", deletes, last_deleted);
  MPI_Comm_get_attr(d, key, &v, &flag);
  CHECK(!flag, "attribute still there after delete");
  MPI_Comm_free(&d);
  CHECK(deletes == 2, "free of d ran %d deletes", deletes);
  MPI_Comm_free_keyval(&key); /* still held by c: its attribute stays readable */
  CHECK(key == MPI_KEYVAL_INVALID, "free_keyval did not reset the handle");
  MPI_Comm_free(&c);
  CHECK(deletes == 3 && last_deleted == 17, "free ran the delete callback: %d, last %d", deletes, last_deleted);
  MPI_Comm_free_keyval(&plain);
  MPI_Comm_free_keyval(&never);
}

static void test_mpi1_names_and_errors(void) {
  int key;
  MPI_Keyval_create(MPI_NULL_COPY_FN, refusing_delete, &key, NULL);
  MPI_Comm c;
  MPI_Comm_dup(MPI_COMM_WORLD, &c);
  MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
  MPI_Attr_put(c, key, (void *)(intptr_t)5);
  void *v = NULL;
  int flag = 0;
  MPI_Attr_get(c, key, &v, &flag);
  CHECK(flag && (intptr_t)v == 5, "MPI_Attr_get %d", flag);
  int rc = MPI_Attr_delete(c, key); /* the callback refuses */
  CHECK(rc == MPI_ERR_OTHER, "refused delete gave %d", rc);
  rc = MPI_Comm_free(&c);
  CHECK(rc == MPI_ERR_OTHER && c != MPI_COMM_NULL, "free with a refusing callback gave %d", rc);
  rc = MPI_Comm_set_attr(c, 12345, NULL);
  CHECK(rc == MPI_ERR_KEYVAL, "unknown keyval gave %d", rc);
  rc = MPI_Comm_set_attr(c, MPI_TAG_UB, NULL);
  CHECK(rc == MPI_ERR_KEYVAL, "setting MPI_TAG_UB gave %d", rc);
  int tkey;
  MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &tkey, NULL);
  rc = MPI_Comm_set_attr(c, tkey, NULL);
  CHECK(rc == MPI_ERR_KEYVAL, "datatype keyval on a communicator gave %d", rc);
  MPI_Type_free_keyval(&tkey);
  MPI_Keyval_free(&key);
  /* c keeps its undeletable attribute; it is simply never freed. */
}

static void test_type_attributes(void) {
  int key;
  MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, counting_delete, &key, NULL);
  MPI_Datatype t;
  MPI_Type_contiguous(4, MPI_INT, &t);
  MPI_Type_set_attr(t, key, (void *)(intptr_t)33);
  void *v = NULL;
  int flag = 0;
  MPI_Type_get_attr(t, key, &v, &flag);
  CHECK(flag && (intptr_t)v == 33, "type attribute %d", flag);
  MPI_Type_get_attr(MPI_INT, key, &v, &flag);
  CHECK(!flag, "MPI_INT has the attribute");
  const int before = deletes;
  MPI_Type_delete_attr(t, key);
  CHECK(deletes == before + 1 && last_deleted == 33, "type delete_attr");
  MPI_Type_set_attr(t, key, (void *)(intptr_t)34);
  MPI_Type_free(&t); /* runs the delete callback */
  CHECK(deletes == before + 2 && last_deleted == 34, "MPI_Type_free: deletes %d last %d", deletes - before,
        last_deleted);
  MPI_Type_free_keyval(&key);
}

/* MPI_Type_dup runs the copy callbacks and the duplicate holds what they
 * hand out; a refusing one fails the dup, which then makes no type. */
static void test_type_dup_attributes(void) {
  int key, refuse;
  MPI_Type_create_keyval(counting_copy, counting_delete, &key, (void *)(intptr_t)100);
  MPI_Type_create_keyval(refusing_copy, MPI_TYPE_NULL_DELETE_FN, &refuse, NULL);
  MPI_Datatype t, dup = MPI_DATATYPE_NULL;
  MPI_Type_contiguous(2, MPI_INT, &t);
  MPI_Type_set_attr(t, key, (void *)(intptr_t)5);
  const int copies_before = copies, deletes_before = deletes;
  MPI_Type_dup(t, &dup);
  void *v = NULL;
  int flag = 0;
  MPI_Type_get_attr(dup, key, &v, &flag);
  CHECK(copies == copies_before + 1 && flag && (intptr_t)v == 105, "Type_dup: copies %d, flag %d, value %d",
        copies - copies_before, flag, (int)(intptr_t)v);
  MPI_Type_free(&dup);
  MPI_Type_free(&t);
  CHECK(deletes == deletes_before + 2, "Type_free of a type and its dup: deletes %d", deletes - deletes_before);
  MPI_Type_contiguous(2, MPI_INT, &t);
  MPI_Type_set_attr(t, refuse, NULL);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  const int rc = MPI_Type_dup(t, &dup);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
  CHECK(rc != MPI_SUCCESS && dup == MPI_DATATYPE_NULL, "Type_dup with a refusing copy callback: rc %d", rc);
  MPI_Type_free(&t);
  MPI_Type_free_keyval(&key);
  MPI_Type_free_keyval(&refuse);
}

/* Deleting one attribute whose callback deletes another: both go. */
static void test_delete_inside_delete(void) {
  int first, second;
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, counting_delete, &first, NULL);
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, deleting_other, &second, &first);
  MPI_Comm c;
  MPI_Comm_dup(MPI_COMM_WORLD, &c);
  MPI_Comm_set_attr(c, first, (void *)(intptr_t)7);
  MPI_Comm_set_attr(c, second, NULL);
  const int before = deletes;
  MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
  const int rc = MPI_Comm_delete_attr(c, second);
  void *v = NULL;
  int flag = 1;
  MPI_Comm_get_attr(c, first, &v, &flag);
  CHECK(rc == MPI_SUCCESS && deletes == before + 1 && last_deleted == 7 && !flag,
        "delete inside a delete callback: rc %d, deletes %d, first still there %d", rc, deletes - before, flag);
  MPI_Comm_free(&c);
  MPI_Comm_free_keyval(&first);
  MPI_Comm_free_keyval(&second);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  check_rank = rank;
  test_predefined();
  test_callbacks();
  test_mpi1_names_and_errors();
  test_type_attributes();
  test_type_dup_attributes();
  test_delete_inside_delete();
  int self_key;
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, self_delete, &self_key, NULL);
  MPI_Comm_set_attr(MPI_COMM_SELF, self_key, NULL);
  const int rc = check_report("attr_ops");
  fflush(stdout);
  MPI_Finalize();
  return rc;
}
