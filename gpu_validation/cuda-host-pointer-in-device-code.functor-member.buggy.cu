// HAZARD: H33  VARIANT: buggy  OWNER: cuda-host-pointer-in-device-code
// EXPECT: a functor whose pointer member is a std::array's data() is given
// to thrust::transform(thrust::device, ...): its operator() reads the host
// address on the device; nvcc 13 is silent, thrust throws
// thrust::system_error (... cudaErrorIllegalAddress).
#include "common.cuh"
#include <array>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/system_error.h>
#include <thrust/transform.h>
#include <cstdio>
#include <cstdlib>

struct Weigh {
  const float *weights;
  __device__ float operator()(float x) const { return x * weights[0]; }
};

int main() {
  const int n = 1 << 16;
  std::array<float, 4> w{3.0f, 3.0f, 3.0f, 3.0f};
  thrust::device_vector<float> values(n, 1.0f);
  Weigh functor{w.data()};
  std::string observed = "no exception";
  try {
    thrust::transform(thrust::device, values.begin(), values.end(),
                      values.begin(), functor);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess)
      observed = std::string("no exception, ") + cudaGetErrorName(e);
  } catch (const thrust::system_error &e) {
    observed = std::string("thrust::system_error: ") + e.what();
  }
  bool hazard_seen = observed.find("cudaErrorIllegalAddress") != std::string::npos;
  report("cuda-host-pointer-in-device-code.functor-member.buggy",
         "thrust::system_error ... cudaErrorIllegalAddress", observed,
         hazard_seen);
  // The context is lost: device_vector's destructor would throw again while
  // the program exits and abort it, taking the unflushed result line along.
  std::fflush(stdout);
  std::_Exit(hazard_seen ? 0 : 1);
}
