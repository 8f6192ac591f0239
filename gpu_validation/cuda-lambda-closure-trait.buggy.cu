// HAZARD: H15  VARIANT: buggy  OWNER: cuda-lambda-closure-trait
// EXPECT: a type trait on an extended lambda's closure type chooses the
// kernel's template argument; nvcc's front end and the host compiler may
// disagree, so the host launches a kernel instantiation the device code does
// not contain. Observed: the trait's value on each side and the launch's error.
#include "common.cuh"
#include <type_traits>

__device__ int device_side_trait;
__device__ int ran_with;

template <bool Trivial> __global__ void kernel() { ran_with = Trivial ? 1 : 0; }

template <typename T> __global__ void record_trait() {
  device_side_trait = std::is_trivially_copyable_v<T> ? 1 : 0;
}

template <typename T> std::string launch_by_trait() {
  kernel<std::is_trivially_copyable_v<T>><<<1, 1>>>();
  return sync_error();
}

int main() {
  int x = 7;
  auto lambda = [=] __host__ __device__ () { return x; };
  using Closure = decltype(lambda);
  int minus_one = -1;
  REQUIRE_CUDA(cudaMemcpyToSymbol(ran_with, &minus_one, sizeof(int)));
  record_trait<Closure><<<1, 1>>>();
  std::string record_error = sync_error();
  int device_value = -1, ran = -1;
  REQUIRE_CUDA(cudaMemcpyFromSymbol(&device_value, device_side_trait, sizeof(int)));
  std::string error = launch_by_trait<Closure>();
  if (error == "cudaSuccess")
    REQUIRE_CUDA(cudaMemcpyFromSymbol(&ran, ran_with, sizeof(int)));
  int host_value = std::is_trivially_copyable_v<Closure> ? 1 : 0;
  bool disagree = host_value != device_value || error != "cudaSuccess";
  report("cuda-lambda-closure-trait.buggy",
         "host and device disagree, or the launch fails",
         "host trait " + std::to_string(host_value) + ", device trait " +
             std::to_string(device_value) + ", launch " + error + ", ran kernel<" +
             std::to_string(ran) + ">, " + record_error,
         disagree);
  return disagree ? 0 : 1;
}
