// Shared by every gpu_validation program: launch helper, error capture and
// one result line per check, read by run.sh:
//   RESULT|<program>|<expected>|<observed>|PASS or FAIL
#pragma once
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

template <typename F>
__global__ void for_each_index(int n, F body) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    body(i);
}

template <typename F> void launch(int n, F body) {
  for_each_index<<<(n + 127) / 128, 128>>>(n, body);
}

// Runs body(i) for i in [0, n) in a kernel when a GPU is present and in a
// host loop otherwise: the run-time dispatch of finite-element and AMR
// frameworks' forall / ParallelFor.
template <class Body> __global__ void forall_kernel(int n, Body body) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    body(i);
}

template <class Body> void forall(int n, Body body) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0)
    forall_kernel<<<(n + 255) / 256, 256>>>(n, body);
  else
    for (int i = 0; i < n; ++i)
      body(i);
}

// Synchronizes and returns the error the device reported, by name.
inline std::string sync_error() {
  cudaError_t launch_error = cudaGetLastError();
  if (launch_error != cudaSuccess)
    return cudaGetErrorName(launch_error);
  return cudaGetErrorName(cudaDeviceSynchronize());
}

inline bool report(const char *program, const std::string &expected,
                   const std::string &observed, bool pass) {
  std::printf("RESULT|%s|%s|%s|%s\n", program, expected.c_str(),
              observed.c_str(), pass ? "PASS" : "FAIL");
  return pass;
}

#define REQUIRE_CUDA(call)                                                     \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      std::printf("RESULT|%s|cuda success|%s at %s:%d|FAIL\n", __FILE__,       \
                  cudaGetErrorName(e_), __FILE__, __LINE__);                   \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

// Compares device results with values computed independently on the host.
template <typename T>
inline int count_mismatches(const T *device_values, const T *host_values, int n,
                            double tolerance = 1e-5) {
  int bad = 0;
  for (int i = 0; i < n; ++i)
    if (std::fabs(double(device_values[i]) - double(host_values[i])) >
        tolerance * (1.0 + std::fabs(double(host_values[i]))))
      ++bad;
  return bad;
}

// The end of a fixed program whose kernels leave each of the n floats at
// device address d equal to expected: synchronizes, copies them back,
// prints the result line and returns main's exit status.
inline int report_device_values(const char *program, const float *d, int n,
                                float expected) {
  std::string error = sync_error();
  int mismatches = 0;
  if (error == "cudaSuccess") {
    std::vector<float> back(n);
    REQUIRE_CUDA(cudaMemcpy(back.data(), d, n * sizeof(float),
                            cudaMemcpyDeviceToHost));
    for (float v : back)
      mismatches += v != expected;
  }
  bool correct = error == "cudaSuccess" && mismatches == 0;
  report(program, "cudaSuccess, 0 mismatches",
         error + ", " + std::to_string(mismatches) + " mismatches", correct);
  return correct ? 0 : 1;
}
