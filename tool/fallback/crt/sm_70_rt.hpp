//===--- crt/sm_70_rt.hpp - cuda-lambda-tidy ------------------------------===//
//
// clang 22's __clang_cuda_intrinsics.h, which the fallback header includes,
// includes this toolkit header after defining __match32/64_*_sync. Without a
// toolkit, it finds this stand-in: the typed __match_*_sync of CUDA 9+.
//
//===----------------------------------------------------------------------===//

#pragma clang system_header

#define __CLT_MATCH(Type)                                                      \
  __device__ unsigned int __match_any_sync(unsigned int mask, Type value);     \
  __device__ unsigned int __match_all_sync(unsigned int mask, Type value,      \
                                           int *pred);
__CLT_MATCH(int)
__CLT_MATCH(unsigned int)
__CLT_MATCH(long)
__CLT_MATCH(unsigned long)
__CLT_MATCH(long long)
__CLT_MATCH(unsigned long long)
__CLT_MATCH(float)
__CLT_MATCH(double)
#undef __CLT_MATCH
