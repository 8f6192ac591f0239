// HAZARD: H33  VARIANT: buggy  OWNER: cuda-host-pointer-in-device-code
// EXPECT: a __host__ __device__ lambda captures a std::vector's data() and
// is kept in a driver object that a member function launches through a
// kernel function pointer (Kokkos' parallel_for shape): nvcc 13 is silent,
// the kernel fails with cudaErrorIllegalAddress.
#include "common.cuh"
#include <vector>

template <class Driver> __global__ void run_driver(Driver driver) { driver(); }

template <class F> struct DeviceFor {
  int n;
  F f;
  __device__ void operator()() const {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
      f(i);
  }
  void execute() const {
    void (*kernel)(DeviceFor) = run_driver<DeviceFor>;
    kernel<<<(n + 255) / 256, 256>>>(*this);
  }
};

template <class F> void parallel_for(int n, const F &f) {
  DeviceFor<F>{n, f}.execute();
}

int main() {
  const int n = 1 << 16;
  std::vector<float> weights(n, 1.0f);
  float *w = weights.data();
  parallel_for(n, [=] __host__ __device__ (int i) { w[i] *= 0.5f; });
  std::string error = sync_error();
  bool hazard_seen = error == "cudaErrorIllegalAddress";
  report("cuda-host-pointer-in-device-code.driver-object.buggy", "cudaErrorIllegalAddress", error, hazard_seen);
  return hazard_seen ? 0 : 1;
}
