// HAZARD: H33  VARIANT: buggy  OWNER: cuda-host-pointer-in-device-code
// EXPECT: a std::vector's data() captured by a __device__ lambda in
// thrust::for_each(thrust::device, ...): thrust's kernel reads the host
// address, and thrust throws thrust::system_error ("parallel_for: failed to
// synchronize: cudaErrorIllegalAddress ...").
#include "common.cuh"
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/for_each.h>
#include <thrust/system_error.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main() {
  const int n = 1 << 16;
  std::vector<float> weights(n, 3.0f);
  thrust::device_vector<float> values(n, 1.0f);
  const float *w = weights.data();
  std::string observed = "no exception";
  try {
    thrust::for_each(thrust::device, values.begin(), values.end(),
                     [w] __device__ (float &x) { x *= w[0]; });
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess)
      observed = std::string("no exception, ") + cudaGetErrorName(e);
  } catch (const thrust::system_error &e) {
    observed = std::string("thrust::system_error: ") + e.what();
  }
  bool hazard_seen = observed.find("cudaErrorIllegalAddress") != std::string::npos;
  report("cuda-host-pointer-in-device-code.thrust.buggy",
         "thrust::system_error ... cudaErrorIllegalAddress", observed,
         hazard_seen);
  // The context is lost: device_vector's destructor would throw again while
  // the program exits and abort it, taking the unflushed result line along.
  std::fflush(stdout);
  std::_Exit(hazard_seen ? 0 : 1);
}
