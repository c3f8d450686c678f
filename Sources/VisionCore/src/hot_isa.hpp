// Instruction-set extensions for the hot files, enabled per function rather than by global
// -m flags (SwiftPM refuses unsafe flags in a package used as a dependency). Wrap a file's
// definitions, after its #includes, in VC_HOT_ISA_BEGIN / VC_HOT_ISA_END: popcnt makes
// __builtin_popcountll one instruction (Hamming distances), SSE4.1 serves the ORB sampler.
// Every x86-64 CPU since 2009 has both; other architectures compile the portable paths.
#pragma once

#if defined(__x86_64__) && defined(__clang__)
#define VC_HOT_ISA_BEGIN \
    _Pragma("clang attribute push(__attribute__((target(\"popcnt,sse4.2\"))), apply_to = function)")
#define VC_HOT_ISA_END _Pragma("clang attribute pop")
#define VC_HOT_ISA_SSE41 1
#else
#define VC_HOT_ISA_BEGIN
#define VC_HOT_ISA_END
#define VC_HOT_ISA_SSE41 0
#endif
