#include "CStaticGlibc.h"

#if defined(__linux__)
#include <features.h>  // defines __GLIBC__ on glibc (not on musl)
#endif

#if defined(__linux__) && defined(__GLIBC__)
#include <nss.h>
#include <sys/auxv.h>

int apx_is_statically_linked(void) {
  // AT_BASE is where the kernel mapped the program interpreter (ld.so); 0 when there is none.
  return getauxval(AT_BASE) == 0 ? 1 : 0;
}

int apx_use_builtin_host_resolvers(void) {
  if (!apx_is_statically_linked()) return 0;
  return __nss_configure_lookup("hosts", "files dns") == 0 ? 1 : -1;
}
#else
int apx_is_statically_linked(void) { return 0; }
int apx_use_builtin_host_resolvers(void) { return 0; }
#endif
