//===--- cuda_lambda_tidy_nvcc_compat.h - cuda-lambda-tidy ----------------===//
//
// The nvcc-compatibility layer: what nvcc 13 accepts and clang 22, parsing
// the same file with the same toolkit, rejects for want of a declaration or
// a spelling. cuda-lambda-tidy force-includes it into every CUDA parse it
// sets up; with the plugin, pass `-include <this file>` after `--`
// (README.md, docs/integration.md). It comes after clang's CUDA runtime
// wrapper (the driver includes that first), so the toolkit's headers have
// already been read.
//
// Each shim gives clang what nvcc itself has, never more: code nvcc rejects
// stays rejected, and no declaration here changes what a check reports on
// correct code. Measured cases and the fixtures that pin them are in
// docs/integration.md ("nvcc compatibility").
//
// A no-op outside clang's CUDA mode, so that a build that also hands it to
// nvcc or to a C++ file is unaffected. Define
// CUDA_LAMBDA_TIDY_NO_NVCC_COMPAT to turn it off.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_NVCC_COMPAT_H
#define CUDA_LAMBDA_TIDY_NVCC_COMPAT_H

#if defined(__clang__) && defined(__CUDA__) && !defined(__HIP__) &&           \
    !defined(CUDA_LAMBDA_TIDY_NO_NVCC_COMPAT)

// Findings are the user's code's, never ours.
#pragma clang system_header

/// Set in every parse that has the layer, so code and tests can tell.
#define __CUDA_LAMBDA_TIDY_NVCC_COMPAT__ 1

//===--- __managed__ variables --------------------------------------------===//
//
// clang implements `managed` for HIP only: in CUDA it drops the attribute
// (-Wignored-attributes), the variable becomes a host variable, and every
// use in device code is "reference to __host__ variable". nvcc allows a
// managed variable on both sides. A `__device__` variable is what clang
// accepts on both sides too: device code uses it, and host code may read,
// write and take the address of it (clang's host-side shadow) without a
// diagnostic, in either pass. `__managed__ __device__`, nvcc's other
// spelling, stays valid (the attribute twice). The checks still see the
// `__managed__` written in the source (cuda-host-variable-in-device-code
// reads the macro's expansion).
#undef __managed__
#define __managed__ __attribute__((device))

//===--- Host overloads of the integer and mixed min/max --------------------===//
//
// nvcc's crt/math_functions.hpp declares min/max (and umin, llmin, ullmin,
// umax, llmax, ullmax, and sincos on float) `__host__ __device__`; clang's
// own CUDA headers declare them `__device__` only, and include the toolkit's
// math_functions.hpp where those overloads are compiled out. So
// `max(a, b)` on integers in host code is "no matching function for call to
// 'max'", and in a `__host__ __device__` function "reference to __device__
// function 'max'" in the host pass. These are nvcc's host sides, one for one
// (clang overloads on __host__/__device__, so its device versions stay as
// they are), with nvcc's linkage and result types.
#define __CUDA_LAMBDA_TIDY_HOST_MATH static inline __attribute__((host))

// The helpers nvcc defines for the host only (crt/math_functions.hpp,
// `#if !defined(__CUDA_ARCH__)`): `inline`, not `static`.
inline __attribute__((host)) int min(const int a, const int b) {
  return a < b ? a : b;
}
inline __attribute__((host)) unsigned int umin(const unsigned int a,
                                               const unsigned int b) {
  return a < b ? a : b;
}
inline __attribute__((host)) long long int llmin(const long long int a,
                                                 const long long int b) {
  return a < b ? a : b;
}
inline __attribute__((host)) unsigned long long int
ullmin(const unsigned long long int a, const unsigned long long int b) {
  return a < b ? a : b;
}
inline __attribute__((host)) int max(const int a, const int b) {
  return a > b ? a : b;
}
inline __attribute__((host)) unsigned int umax(const unsigned int a,
                                               const unsigned int b) {
  return a > b ? a : b;
}
inline __attribute__((host)) long long int llmax(const long long int a,
                                                 const long long int b) {
  return a > b ? a : b;
}
inline __attribute__((host)) unsigned long long int
ullmax(const unsigned long long int a, const unsigned long long int b) {
  return a > b ? a : b;
}

// The overloads nvcc declares `static inline __host__ __device__`: mixed
// signedness converts to unsigned, as nvcc's do; a float and a double give a
// double.
#define __CUDA_LAMBDA_TIDY_MINMAX(R, A, B)                                     \
  __CUDA_LAMBDA_TIDY_HOST_MATH R min(const A a, const B b) {                   \
    return static_cast<R>(a) < static_cast<R>(b) ? static_cast<R>(a)           \
                                                 : static_cast<R>(b);          \
  }                                                                            \
  __CUDA_LAMBDA_TIDY_HOST_MATH R max(const A a, const B b) {                   \
    return static_cast<R>(a) > static_cast<R>(b) ? static_cast<R>(a)           \
                                                 : static_cast<R>(b);          \
  }
__CUDA_LAMBDA_TIDY_MINMAX(unsigned int, unsigned int, unsigned int)
__CUDA_LAMBDA_TIDY_MINMAX(unsigned int, int, unsigned int)
__CUDA_LAMBDA_TIDY_MINMAX(unsigned int, unsigned int, int)
__CUDA_LAMBDA_TIDY_MINMAX(long int, long int, long int)
__CUDA_LAMBDA_TIDY_MINMAX(unsigned long int, unsigned long int,
                          unsigned long int)
__CUDA_LAMBDA_TIDY_MINMAX(unsigned long int, long int, unsigned long int)
__CUDA_LAMBDA_TIDY_MINMAX(unsigned long int, unsigned long int, long int)
__CUDA_LAMBDA_TIDY_MINMAX(long long int, long long int, long long int)
__CUDA_LAMBDA_TIDY_MINMAX(unsigned long long int, unsigned long long int,
                          unsigned long long int)
__CUDA_LAMBDA_TIDY_MINMAX(unsigned long long int, long long int,
                          unsigned long long int)
__CUDA_LAMBDA_TIDY_MINMAX(unsigned long long int, unsigned long long int,
                          long long int)
__CUDA_LAMBDA_TIDY_MINMAX(float, float, float)
__CUDA_LAMBDA_TIDY_MINMAX(double, double, double)
__CUDA_LAMBDA_TIDY_MINMAX(double, float, double)
__CUDA_LAMBDA_TIDY_MINMAX(double, double, float)
#undef __CUDA_LAMBDA_TIDY_MINMAX

// sincos on float: the C library has only the double sincos and sincosf.
__CUDA_LAMBDA_TIDY_HOST_MATH void sincos(const float a, float *const sptr,
                                         float *const cptr) {
#if __has_builtin(__builtin_sincosf)
  __builtin_sincosf(a, sptr, cptr);
#else // clang 19, for the plugin in clang-tidy-19
  *sptr = __builtin_sinf(a);
  *cptr = __builtin_cosf(a);
#endif
}

#undef __CUDA_LAMBDA_TIDY_HOST_MATH

#endif // clang's CUDA mode
#endif // CUDA_LAMBDA_TIDY_NVCC_COMPAT_H
