/* Checks that the C ABI header compiles as C and that every status has a
 * distinct, non-empty name. Exits non-zero on the first failure. */
#include "aicc/runtime.h"

#include <stdio.h>
#include <string.h>

int main(void) {
  const char *names[AICC_INTERNAL + 1];
  for (int s = AICC_OK; s <= AICC_INTERNAL; ++s) {
    names[s] = aicc_status_string((aicc_status_t)s);
    if (!names[s] || !*names[s] || strcmp(names[s], "unknown status") == 0) {
      fprintf(stderr, "status %d has no name\n", s);
      return 1;
    }
    for (int t = AICC_OK; t < s; ++t)
      if (strcmp(names[s], names[t]) == 0) {
        fprintf(stderr, "statuses %d and %d share the name '%s'\n", t, s,
                names[s]);
        return 1;
      }
  }
  if (strcmp(aicc_status_string((aicc_status_t)1234), "unknown status") != 0) {
    fprintf(stderr, "unknown status code was not reported as unknown\n");
    return 1;
  }
  printf("runtime %s: %d status codes ok\n", aicc_runtime_version(),
         AICC_INTERNAL + 1);
  return 0;
}
