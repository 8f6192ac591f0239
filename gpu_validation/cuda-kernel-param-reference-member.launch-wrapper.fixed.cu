// HAZARD: H34  VARIANT: fixed  OWNER: cuda-kernel-param-reference-member
// EXPECT: the functor holds the factor by value: every element, 1 before,
// is halved through the forall wrapper's kernel.
#include "common.cuh"
#include <vector>

struct Scale {
  float factor;
  float *out;
  __host__ __device__ void operator()(int i) const { out[i] *= factor; }
};

int main() {
  const int n = 1 << 16;
  std::vector<float> ones(n, 1.0f);
  float *d = nullptr;
  REQUIRE_CUDA(cudaMalloc(&d, n * sizeof(float)));
  REQUIRE_CUDA(cudaMemcpy(d, ones.data(), n * sizeof(float),
                          cudaMemcpyHostToDevice));
  float factor = 0.5f;
  forall(n, Scale{factor, d});
  return report_device_values("cuda-kernel-param-reference-member.launch-wrapper.fixed", d, n, 0.5f);
}
