#ifndef APX_CSTATICGLIBC_H
#define APX_CSTATICGLIBC_H

/// Whether this process runs without a dynamic loader: a statically linked executable, as
/// scripts/bench/build-release.sh links apx where glibc's static archives are installed.
/// 1 when static, 0 when dynamic or not on Linux with glibc.
int apx_is_statically_linked(void);

/// In a statically linked glibc executable, makes host-name lookups use only the resolvers
/// built into the executable (/etc/hosts, then DNS), as staticx does. Otherwise glibc would
/// load a shared NSS module named in /etc/nsswitch.conf (mdns4_minimal, resolve, myhostname)
/// into the static process, which is only safe with the exact glibc apx was linked against.
/// Returns 1 when it configured them, 0 when there was nothing to do (a dynamic executable,
/// or not glibc), -1 when glibc refused the configuration.
int apx_use_builtin_host_resolvers(void);

#endif
