// HAZARD: H32  VARIANT: buggy  OWNER: cuda-kernel-param-virtual
// EXPECT: a kernel's parameter struct holds a pointer to a polymorphic object
// constructed on the host in managed memory; the kernel calls its virtual
// function through the member. The vtable pointer is the host's: the call
// fails with cudaErrorIllegalAddress. nvcc compiles this silently.
#include "common.cuh"
#include <new>

struct Material {
  __host__ __device__ virtual float albedo() const = 0;
};
struct Matte : Material {
  float value;
  __host__ __device__ explicit Matte(float v) : value(v) {}
  __host__ __device__ float albedo() const override { return value; }
};

struct ShadeParams {
  const Material *material;
  float *out;
};

__global__ void shade(ShadeParams params) { *params.out = params.material->albedo(); }

int main() {
  void *managed;
  float *out;
  REQUIRE_CUDA(cudaMallocManaged(&managed, sizeof(Matte)));
  REQUIRE_CUDA(cudaMallocManaged(&out, sizeof(float)));
  Material *material = new (managed) Matte(0.5f);
  ShadeParams params{material, out};
  shade<<<1, 1>>>(params);
  std::string error = sync_error();
  bool ok = report("cuda-kernel-param-virtual.pointer-member.buggy",
                   "cudaErrorIllegalAddress", error,
                   error == "cudaErrorIllegalAddress");
  return ok ? 0 : 1;
}
