// HAZARD: H33  VARIANT: fixed  OWNER: cuda-host-pointer-in-device-code
// EXPECT: the functor's pointer member holds a device copy of the weights
// (a thrust::device_vector's raw pointer): every value is tripled.
#include "common.cuh"
#include <array>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/transform.h>

struct Weigh {
  const float *weights;
  __device__ float operator()(float x) const { return x * weights[0]; }
};

int main() {
  const int n = 1 << 16;
  std::array<float, 4> w{3.0f, 3.0f, 3.0f, 3.0f};
  thrust::device_vector<float> device_weights(w.begin(), w.end());
  thrust::device_vector<float> values(n, 1.0f);
  Weigh functor{thrust::raw_pointer_cast(device_weights.data())};
  thrust::transform(thrust::device, values.begin(), values.end(),
                    values.begin(), functor);
  return report_device_values("cuda-host-pointer-in-device-code.functor-member.fixed",
                              thrust::raw_pointer_cast(values.data()), n, 3.0f);
}
