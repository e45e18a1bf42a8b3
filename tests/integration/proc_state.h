/* The scheduler state of another process, from /proc: tests that must
 * act only once a rank sleeps (wait_sleeps, mixed_wake) watch for 'S'. */
#ifndef SHMPI_TESTS_PROC_STATE_H
#define SHMPI_TESTS_PROC_STATE_H

#include <stdio.h>
#include <string.h>
#include <sys/types.h>

/* The state letter of process `pid` ('R', 'S', ...), or 0 if unreadable. */
static inline char proc_state(pid_t pid) {
  char path[64], line[512];
  snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
  FILE *f = fopen(path, "r");
  if (f == NULL) return 0;
  size_t n = fread(line, 1, sizeof line - 1, f);
  fclose(f);
  line[n] = '\0';
  const char *end = strrchr(line, ')'); /* the command may hold spaces */
  return end != NULL && end[1] == ' ' ? end[2] : 0;
}

#endif
