//===--- cuda_lambda_tidy_fallback.h - cuda-lambda-tidy -------------------===//
//
// What cuda-lambda-tidy parses instead of the CUDA toolkit's headers when it
// finds no toolkit (docs/integration.md, "Without a CUDA toolkit"). It is
// force-included before every CUDA file, as clang includes its CUDA runtime
// wrapper when a toolkit is there, and cuda_runtime.h, cuda_runtime_api.h,
// cuda.h and device_launch_parameters.h lead back to it.
//
// It declares what code written against the CUDA runtime needs in order to
// parse: the execution-space keywords, the built-in index variables, kernel
// launches, the vector types and dim3, the common runtime API and the device
// intrinsics. It is a parse aid, not an implementation: nothing in it is
// meant to be compiled or run, and functions clang never needs the body of
// are only declared. What clang 22 itself brings for CUDA (device math,
// shuffles, __ldg) comes from clang's own resource headers, included here as
// its CUDA runtime wrapper includes them.
//
//===----------------------------------------------------------------------===//

#ifndef __CUDA_LAMBDA_TIDY_FALLBACK_H__
#define __CUDA_LAMBDA_TIDY_FALLBACK_H__

// Findings are the user's code's, never ours, whatever -I order finds us.
#pragma clang system_header

#if !defined(__CUDA__)
#error "cuda_lambda_tidy_fallback.h is for CUDA parses only (-x cuda)"
#endif

/// Set in every parse against this header, so code and tests can tell.
#define __CUDA_LAMBDA_TIDY_FALLBACK__ 1

// As clang's CUDA runtime wrapper leaves it for the user's code.
#define __CUDACC__ 1

// The toolkit version this parse claims: the one clang 22 knows best, which
// is also the -target-sdk-version the tool passes. Code that tests it takes
// the path of a recent toolkit, not that of a toolkit older than CUDA 9.
#define CUDA_VERSION 12090
#define CUDART_VERSION 12090

//===--- Execution spaces, memory spaces, function qualifiers -------------===//

// The attributes clang implements; CUDA spells each as a macro of this name,
// which is what the checks read back from the source.
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __grid_constant__ __attribute__((grid_constant))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __align__(n) __attribute__((aligned(n)))
// Markers the toolkit puts on its own declarations; nothing for clang.
#define __device_builtin__
#define __cudart_builtin__
#define CUDARTAPI
#define CUDAAPI
// __noinline__ and __restrict__ are keywords of clang's CUDA mode already.

//===--- The C and C++ headers CUDA code gets without asking --------------===//

// clang's wrapper brings these in before the toolkit's headers, and code
// that uses printf, malloc or memcpy with only <cuda_runtime.h> relies on it.
// The device math functions are declared before <cmath>, as there.
#include <__clang_cuda_math_forward_declares.h>

#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

//===--- Vector types, dim3 -----------------------------------------------===//

// Each CUDA vector type is a struct of 1 to 4 members x, y, z, w, with a
// make_<type><n> function. The alignment of the 2- and 4-member types
// follows the toolkit's rule for most of them (the size of the whole, up to
// 16 bytes); nothing here depends on it.
#define __CLT_VECTOR_TYPES(Name, Scalar)                                       \
  struct __device_builtin__ Name##1 {                                          \
    Scalar x;                                                                  \
  };                                                                           \
  struct __device_builtin__ __align__(                                         \
      2 * sizeof(Scalar) < 16 ? 2 * sizeof(Scalar) : 16) Name##2 {             \
    Scalar x, y;                                                               \
  };                                                                           \
  struct __device_builtin__ Name##3 {                                          \
    Scalar x, y, z;                                                            \
  };                                                                           \
  struct __device_builtin__ __align__(                                         \
      4 * sizeof(Scalar) < 16 ? 4 * sizeof(Scalar) : 16) Name##4 {             \
    Scalar x, y, z, w;                                                         \
  };                                                                           \
  static __inline__ __host__ __device__ Name##1 make_##Name##1(Scalar x) {     \
    Name##1 v = {x};                                                           \
    return v;                                                                  \
  }                                                                            \
  static __inline__ __host__ __device__ Name##2 make_##Name##2(Scalar x,       \
                                                               Scalar y) {     \
    Name##2 v = {x, y};                                                        \
    return v;                                                                  \
  }                                                                            \
  static __inline__ __host__ __device__ Name##3 make_##Name##3(                \
      Scalar x, Scalar y, Scalar z) {                                          \
    Name##3 v = {x, y, z};                                                     \
    return v;                                                                  \
  }                                                                            \
  static __inline__ __host__ __device__ Name##4 make_##Name##4(                \
      Scalar x, Scalar y, Scalar z, Scalar w) {                                \
    Name##4 v = {x, y, z, w};                                                  \
    return v;                                                                  \
  }

__CLT_VECTOR_TYPES(char, signed char)
__CLT_VECTOR_TYPES(uchar, unsigned char)
__CLT_VECTOR_TYPES(short, short)
__CLT_VECTOR_TYPES(ushort, unsigned short)
__CLT_VECTOR_TYPES(int, int)
__CLT_VECTOR_TYPES(uint, unsigned int)
__CLT_VECTOR_TYPES(long, long)
__CLT_VECTOR_TYPES(ulong, unsigned long)
__CLT_VECTOR_TYPES(longlong, long long)
__CLT_VECTOR_TYPES(ulonglong, unsigned long long)
__CLT_VECTOR_TYPES(float, float)
__CLT_VECTOR_TYPES(double, double)
#undef __CLT_VECTOR_TYPES

/// Grid and block sizes: unset dimensions are 1.
struct __device_builtin__ dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1,
                                     unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  __host__ __device__ constexpr operator uint3() const { return {x, y, z}; }
};

//===--- Built-in variables -----------------------------------------------===//

// Device variables, as in the toolkit: host code that reads them is wrong
// in the same way with either header.
extern const __device__ uint3 threadIdx;
extern const __device__ uint3 blockIdx;
extern const __device__ dim3 blockDim;
extern const __device__ dim3 gridDim;
extern const __device__ int warpSize;

//===--- Runtime API: types -----------------------------------------------===//

// Driver API scalar types that clang's intrinsics header names.
typedef unsigned int cuuint32_t;
typedef unsigned long long cuuint64_t;

/// The errors code most often compares against; the toolkit has ~100.
enum __device_builtin__ cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorCudartUnloading = 4,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidPitchValue = 12,
  cudaErrorInvalidSymbol = 13,
  cudaErrorInvalidDevicePointer = 17,
  cudaErrorInvalidMemcpyDirection = 21,
  cudaErrorInsufficientDriver = 35,
  cudaErrorInvalidDeviceFunction = 98,
  cudaErrorNoDevice = 100,
  cudaErrorInvalidDevice = 101,
  cudaErrorInvalidKernelImage = 200,
  cudaErrorNoKernelImageForDevice = 209,
  cudaErrorInvalidSource = 300,
  cudaErrorFileNotFound = 301,
  cudaErrorInvalidHandle = 400,
  cudaErrorNotFound = 500,
  cudaErrorNotReady = 600,
  cudaErrorIllegalAddress = 700,
  cudaErrorLaunchOutOfResources = 701,
  cudaErrorLaunchTimeout = 702,
  cudaErrorAssert = 710,
  cudaErrorLaunchFailure = 719,
  cudaErrorNotSupported = 801,
  cudaErrorUnknown = 999
};
typedef __device_builtin__ enum cudaError cudaError_t;

enum __device_builtin__ cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
};

// Opaque handles: pointers to types only the driver defines.
typedef __device_builtin__ struct CUstream_st *cudaStream_t;
typedef __device_builtin__ struct CUevent_st *cudaEvent_t;
#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaMemAttachGlobal 0x01
#define cudaMemAttachHost 0x02
#define cudaHostAllocDefault 0x00

/// The device properties code most often reads; the toolkit has many more.
struct __device_builtin__ cudaDeviceProp {
  char name[256];
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  size_t totalConstMem;
  int major;
  int minor;
  int multiProcessorCount;
  int maxThreadsPerMultiProcessor;
};

enum __device_builtin__ cudaMemoryType {
  cudaMemoryTypeUnregistered = 0,
  cudaMemoryTypeHost = 1,
  cudaMemoryTypeDevice = 2,
  cudaMemoryTypeManaged = 3
};

struct __device_builtin__ cudaPointerAttributes {
  enum cudaMemoryType type;
  int device;
  void *devicePointer;
  void *hostPointer;
  long reserved[8];
};

struct __device_builtin__ cudaFuncAttributes {
  size_t sharedSizeBytes;
  size_t constSizeBytes;
  size_t localSizeBytes;
  int maxThreadsPerBlock;
  int numRegs;
};

//===--- Runtime API: functions -------------------------------------------===//

// Host functions, and those the toolkit also declares for device code
// (dynamic parallelism) as __host__ __device__, so that a call from a kernel
// parses as it does with the toolkit.
extern "C" {
__host__ __device__ cudaError_t cudaGetLastError(void);
__host__ __device__ cudaError_t cudaPeekAtLastError(void);
__host__ __device__ const char *cudaGetErrorString(cudaError_t error);
__host__ __device__ const char *cudaGetErrorName(cudaError_t error);
__host__ __device__ cudaError_t cudaGetDevice(int *device);
__host__ __device__ cudaError_t cudaGetDeviceCount(int *count);
__host__ __device__ cudaError_t cudaDeviceSynchronize(void);
__host__ __device__ cudaError_t cudaMalloc(void **devPtr, size_t size);
__host__ __device__ cudaError_t cudaFree(void *devPtr);
__host__ __device__ cudaError_t cudaMemcpyAsync(void *dst, const void *src,
                                                size_t count,
                                                enum cudaMemcpyKind kind,
                                                cudaStream_t stream = 0);
__host__ __device__ cudaError_t cudaMemsetAsync(void *devPtr, int value,
                                                size_t count,
                                                cudaStream_t stream = 0);
__host__ __device__ cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream,
                                                          unsigned int flags);
__host__ __device__ cudaError_t cudaStreamDestroy(cudaStream_t stream);
__host__ __device__ cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event,
                                                         unsigned int flags);
__host__ __device__ cudaError_t cudaEventRecord(cudaEvent_t event,
                                                cudaStream_t stream = 0);
__host__ __device__ cudaError_t cudaEventDestroy(cudaEvent_t event);
__host__ __device__ cudaError_t
cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func);

__host__ cudaError_t
cudaPointerGetAttributes(struct cudaPointerAttributes *attributes,
                         const void *ptr);
__host__ cudaError_t cudaSetDevice(int device);
__host__ cudaError_t cudaDeviceReset(void);
__host__ cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop,
                                             int device);
__host__ cudaError_t cudaRuntimeGetVersion(int *runtimeVersion);
__host__ cudaError_t cudaDriverGetVersion(int *driverVersion);
__host__ cudaError_t cudaMallocManaged(
    void **devPtr, size_t size, unsigned int flags = cudaMemAttachGlobal);
__host__ cudaError_t cudaMallocHost(void **ptr, size_t size);
__host__ cudaError_t cudaHostAlloc(void **pHost, size_t size,
                                   unsigned int flags);
__host__ cudaError_t cudaFreeHost(void *ptr);
__host__ cudaError_t cudaMemcpy(void *dst, const void *src, size_t count,
                                enum cudaMemcpyKind kind);
__host__ cudaError_t cudaMemset(void *devPtr, int value, size_t count);
__host__ cudaError_t cudaMemcpyToSymbol(
    const void *symbol, const void *src, size_t count, size_t offset = 0,
    enum cudaMemcpyKind kind = cudaMemcpyHostToDevice);
__host__ cudaError_t cudaMemcpyFromSymbol(
    void *dst, const void *symbol, size_t count, size_t offset = 0,
    enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost);
__host__ cudaError_t cudaMemcpyToSymbolAsync(const void *symbol,
                                             const void *src, size_t count,
                                             size_t offset,
                                             enum cudaMemcpyKind kind,
                                             cudaStream_t stream = 0);
__host__ cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol,
                                               size_t count, size_t offset,
                                               enum cudaMemcpyKind kind,
                                               cudaStream_t stream = 0);
__host__ cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol);
__host__ cudaError_t cudaMemGetInfo(size_t *free, size_t *total);
__host__ cudaError_t cudaStreamCreate(cudaStream_t *stream);
__host__ cudaError_t cudaStreamSynchronize(cudaStream_t stream);
__host__ cudaError_t cudaStreamQuery(cudaStream_t stream);
__host__ cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event,
                                         unsigned int flags = 0);
__host__ cudaError_t cudaEventCreate(cudaEvent_t *event);
__host__ cudaError_t cudaEventSynchronize(cudaEvent_t event);
__host__ cudaError_t cudaEventQuery(cudaEvent_t event);
__host__ cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start,
                                          cudaEvent_t end);
__host__ cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim,
                                      dim3 blockDim, void **args,
                                      size_t sharedMem, cudaStream_t stream);
__host__ cudaError_t cudaOccupancyMaxPotentialBlockSize(int *minGridSize,
                                                        int *blockSize,
                                                        const void *func,
                                                        size_t dynamicSMem,
                                                        int blockSizeLimit);

// Kernel launches. For `k<<<g, b, s, st>>>(args)` clang 22 calls the first
// of these with the launch configuration, given the SDK version 12.9 that
// the tool passes (below 9.2 it would call cudaConfigureCall); the host stub
// it generates pops it again.
unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim,
                                     size_t sharedMem = 0,
                                     cudaStream_t stream = 0);
cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim,
                                       size_t *sharedMem, cudaStream_t *stream);
} // extern "C"

// The C++ conveniences of cuda_runtime.h: typed pointers and symbols.
template <class T>
static __inline__ __host__ __device__ cudaError_t cudaMalloc(T **devPtr,
                                                             size_t size) {
  return cudaMalloc((void **)(void *)devPtr, size);
}
template <class T>
static __inline__ __host__ cudaError_t cudaMallocManaged(
    T **devPtr, size_t size, unsigned int flags = cudaMemAttachGlobal) {
  return cudaMallocManaged((void **)(void *)devPtr, size, flags);
}
template <class T>
static __inline__ __host__ cudaError_t cudaMallocHost(T **ptr, size_t size) {
  return cudaMallocHost((void **)(void *)ptr, size);
}
template <class T>
static __inline__ __host__ cudaError_t cudaMemcpyToSymbol(
    const T &symbol, const void *src, size_t count, size_t offset = 0,
    enum cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  return cudaMemcpyToSymbol((const void *)&symbol, src, count, offset, kind);
}
template <class T>
static __inline__ __host__ cudaError_t cudaMemcpyFromSymbol(
    void *dst, const T &symbol, size_t count, size_t offset = 0,
    enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  return cudaMemcpyFromSymbol(dst, (const void *)&symbol, count, offset, kind);
}
template <class T>
static __inline__ __host__ cudaError_t cudaGetSymbolAddress(void **devPtr,
                                                            const T &symbol) {
  return cudaGetSymbolAddress(devPtr, (const void *)&symbol);
}
template <class T>
static __inline__ __host__ cudaError_t
cudaLaunchKernel(const T *func, dim3 gridDim, dim3 blockDim, void **args,
                 size_t sharedMem = 0, cudaStream_t stream = 0) {
  return cudaLaunchKernel((const void *)func, gridDim, blockDim, args,
                          sharedMem, stream);
}
template <class T>
static __inline__ __host__ __device__ cudaError_t
cudaFuncGetAttributes(struct cudaFuncAttributes *attr, T *entry) {
  return cudaFuncGetAttributes(attr, (const void *)entry);
}

//===--- Device functions -------------------------------------------------===//

// __syncthreads is a clang builtin; the other barriers, fences, clocks and
// warp votes come with clang's headers below. Not there:
__device__ void __nanosleep(unsigned int ns);

// Atomics, for the types the toolkit has them for.
#define __CLT_ATOMIC(Name, Type)                                               \
  __device__ Type Name(Type *address, Type value);                             \
  __device__ Type Name##_block(Type *address, Type value);                     \
  __device__ Type Name##_system(Type *address, Type value);
__CLT_ATOMIC(atomicAdd, int)
__CLT_ATOMIC(atomicAdd, unsigned int)
__CLT_ATOMIC(atomicAdd, unsigned long long)
__CLT_ATOMIC(atomicAdd, float)
__CLT_ATOMIC(atomicAdd, double)
__CLT_ATOMIC(atomicSub, int)
__CLT_ATOMIC(atomicSub, unsigned int)
__CLT_ATOMIC(atomicExch, int)
__CLT_ATOMIC(atomicExch, unsigned int)
__CLT_ATOMIC(atomicExch, unsigned long long)
__CLT_ATOMIC(atomicExch, float)
__CLT_ATOMIC(atomicMin, int)
__CLT_ATOMIC(atomicMin, unsigned int)
__CLT_ATOMIC(atomicMin, long long)
__CLT_ATOMIC(atomicMin, unsigned long long)
__CLT_ATOMIC(atomicMax, int)
__CLT_ATOMIC(atomicMax, unsigned int)
__CLT_ATOMIC(atomicMax, long long)
__CLT_ATOMIC(atomicMax, unsigned long long)
__CLT_ATOMIC(atomicInc, unsigned int)
__CLT_ATOMIC(atomicDec, unsigned int)
__CLT_ATOMIC(atomicAnd, int)
__CLT_ATOMIC(atomicAnd, unsigned int)
__CLT_ATOMIC(atomicAnd, unsigned long long)
__CLT_ATOMIC(atomicOr, int)
__CLT_ATOMIC(atomicOr, unsigned int)
__CLT_ATOMIC(atomicOr, unsigned long long)
__CLT_ATOMIC(atomicXor, int)
__CLT_ATOMIC(atomicXor, unsigned int)
__CLT_ATOMIC(atomicXor, unsigned long long)
#undef __CLT_ATOMIC
__device__ int atomicCAS(int *address, int compare, int value);
__device__ unsigned int atomicCAS(unsigned int *address, unsigned int compare,
                                  unsigned int value);
__device__ unsigned long long atomicCAS(unsigned long long *address,
                                        unsigned long long compare,
                                        unsigned long long value);
__device__ unsigned short atomicCAS(unsigned short *address,
                                    unsigned short compare,
                                    unsigned short value);

// Address-space queries and conversions (clang's sm_90 intrinsics use them).
__device__ unsigned int __isGlobal(const void *ptr);
__device__ unsigned int __isShared(const void *ptr);
__device__ unsigned int __isConstant(const void *ptr);
__device__ unsigned int __isLocal(const void *ptr);
__device__ size_t __cvta_generic_to_global(const void *ptr);
__device__ size_t __cvta_generic_to_shared(const void *ptr);
__device__ size_t __cvta_generic_to_constant(const void *ptr);
__device__ size_t __cvta_generic_to_local(const void *ptr);
__device__ void *__cvta_global_to_generic(size_t rawbits);
__device__ void *__cvta_shared_to_generic(size_t rawbits);
__device__ void *__cvta_constant_to_generic(size_t rawbits);
__device__ void *__cvta_local_to_generic(size_t rawbits);

// printf, malloc, free and assert work in device code: device overloads of
// the C library's host functions (clang's headers below add memcpy and
// memset).
extern "C" {
__device__ int printf(const char *format, ...);
__device__ void *malloc(size_t size) __attribute__((nothrow));
__device__ void free(void *ptr) __attribute__((nothrow));
__device__ void __assertfail(const char *message, const char *file,
                             unsigned int line, const char *function,
                             size_t charSize);
__device__ static __inline__ void __assert_fail(const char *message,
                                                const char *file,
                                                unsigned int line,
                                                const char *function) {
  __assertfail(message, file, line, function, sizeof(char));
}
}
namespace std {
__device__ static __inline__ void *malloc(size_t size) {
  return ::malloc(size);
}
__device__ static __inline__ void free(void *ptr) { ::free(ptr); }
} // namespace std

//===--- What clang brings for CUDA itself --------------------------------===//

// Device math (sqrtf, std::sqrt, ...), bit and conversion intrinsics,
// fences, clocks, warp votes and shuffles, __ldg: clang's resource headers,
// in the order of clang's wrapper, which each of them depends on.
// clang-format off
#include <__clang_cuda_libdevice_declares.h>
#include <__clang_cuda_device_functions.h>
#include <__clang_cuda_math.h>
#include <__clang_cuda_cmath.h>
#include <__clang_cuda_intrinsics.h>
// clang-format on

#endif // __CUDA_LAMBDA_TIDY_FALLBACK_H__
