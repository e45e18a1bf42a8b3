/* info_ops: every MPI_Info_* call (set/replace, get with truncation,
 * get_valuelen, MPI-4 get_string, delete, nkeys/nthkey order, dup, free),
 * MPI_INFO_ENV, hints through MPI_Comm_set_info / get_info /
 * MPI_Comm_dup_with_info, and the error classes of bad keys and handles.
 * Prints "info_ops: rank R OK" or FAIL lines. */
#include <string.h>

#include "check.h"

static int rank;

static void test_info_calls(void) {
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "alpha", "1");
  MPI_Info_set(info, "beta", "twenty");
  MPI_Info_set(info, "alpha", "one"); /* replaces, keeps the key's position */
  int n = -1, flag = 0, len = -1;
  MPI_Info_get_nkeys(info, &n);
  CHECK(n == 2, "nkeys %d", n);
  char key[MPI_MAX_INFO_KEY + 1], value[64];
  MPI_Info_get_nthkey(info, 0, key);
  CHECK(strcmp(key, "alpha") == 0, "key 0 is %s", key);
  MPI_Info_get(info, "alpha", sizeof value - 1, value, &flag);
  CHECK(flag && strcmp(value, "one") == 0, "alpha = %s", value);
  MPI_Info_get(info, "beta", 3, value, &flag); /* truncated to 3 characters */
  CHECK(flag && strcmp(value, "twe") == 0, "truncated beta = %s", value);
  MPI_Info_get_valuelen(info, "beta", &len, &flag);
  CHECK(flag && len == 6, "valuelen %d", len);
  int buflen = 0;
  MPI_Info_get_string(info, "beta", &buflen, value, &flag);
  CHECK(flag && buflen == 7, "get_string size query %d", buflen);
  buflen = 4;
  MPI_Info_get_string(info, "beta", &buflen, value, &flag);
  CHECK(flag && buflen == 7 && strcmp(value, "twe") == 0, "get_string %d %s", buflen, value);
  MPI_Info_get(info, "gamma", sizeof value - 1, value, &flag);
  CHECK(!flag, "gamma found");
  MPI_Info dup;
  MPI_Info_dup(info, &dup);
  MPI_Info_delete(info, "alpha");
  MPI_Info_get_nkeys(info, &n);
  CHECK(n == 1, "nkeys after delete %d", n);
  MPI_Info_get_nkeys(dup, &n);
  CHECK(n == 2, "dup changed with the original: %d", n);
  MPI_Info_free(&dup);
  CHECK(dup == MPI_INFO_NULL, "free did not set MPI_INFO_NULL");
  /* errors */
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int rc = MPI_Info_delete(info, "alpha");
  CHECK(rc == MPI_ERR_INFO_NOKEY, "deleting a missing key gave %d", rc);
  char long_key[MPI_MAX_INFO_KEY + 2];
  memset(long_key, 'k', sizeof long_key - 1);
  long_key[sizeof long_key - 1] = '\0';
  rc = MPI_Info_set(info, long_key, "v");
  CHECK(rc == MPI_ERR_INFO_KEY, "over-long key gave %d", rc);
  rc = MPI_Info_set(info, "", "v");
  CHECK(rc == MPI_ERR_INFO_KEY, "empty key gave %d", rc);
  rc = MPI_Info_get_nthkey(info, 5, key);
  CHECK(rc == MPI_ERR_ARG, "nthkey 5 gave %d", rc);
  rc = MPI_Info_get_nkeys(MPI_INFO_NULL, &n);
  CHECK(rc == MPI_ERR_INFO, "nkeys of MPI_INFO_NULL gave %d", rc);
  MPI_Info env = MPI_INFO_ENV;
  rc = MPI_Info_free(&env);
  CHECK(rc == MPI_ERR_INFO, "freeing MPI_INFO_ENV gave %d", rc);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  MPI_Info_free(&info);
}

static void test_env_and_hints(void) {
  char value[MPI_MAX_INFO_VAL + 1];
  int flag = 0, size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Info_get(MPI_INFO_ENV, "command", MPI_MAX_INFO_VAL, value, &flag);
  CHECK(flag && strstr(value, "info_ops") != NULL, "MPI_INFO_ENV command %s", flag ? value : "(none)");
  MPI_Info_get(MPI_INFO_ENV, "maxprocs", MPI_MAX_INFO_VAL, value, &flag);
  char want[16];
  snprintf(want, sizeof want, "%d", size);
  CHECK(flag && strcmp(value, want) == 0, "maxprocs %s", flag ? value : "(none)");
  MPI_Info hints, used;
  MPI_Info_create(&hints);
  MPI_Info_set(hints, "mpi_assert_no_any_tag", "true");
  MPI_Comm c;
  MPI_Comm_dup_with_info(MPI_COMM_WORLD, hints, &c);
  MPI_Info_free(&hints);
  MPI_Comm_get_info(c, &used);
  MPI_Info_get(used, "mpi_assert_no_any_tag", MPI_MAX_INFO_VAL, value, &flag);
  CHECK(flag && strcmp(value, "true") == 0, "hint after dup_with_info %d", flag);
  MPI_Info_free(&used);
  MPI_Comm_set_info(c, MPI_INFO_NULL);
  MPI_Comm_get_info(c, &used);
  int n = -1;
  MPI_Info_get_nkeys(used, &n);
  CHECK(n == 0, "hints after set_info(MPI_INFO_NULL): %d", n);
  MPI_Info_free(&used);
  MPI_Comm_free(&c);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  check_rank = rank;
  test_info_calls();
  test_env_and_hints();
  const int rc = check_report("info_ops");
  MPI_Finalize();
  return rc;
}
