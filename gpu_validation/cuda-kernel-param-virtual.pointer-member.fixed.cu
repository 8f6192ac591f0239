// HAZARD: H32  VARIANT: fixed  OWNER: cuda-kernel-param-virtual
// EXPECT: the same parameter struct, its object constructed on the device with
// placement new in a kernel, so its vtable pointer is the device's; the
// virtual call through the member gives the material's albedo.
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

__global__ void build(void *mem, float value) { new (mem) Matte(value); }
__global__ void shade(ShadeParams params) { *params.out = params.material->albedo(); }

int main() {
  void *managed;
  float *out;
  REQUIRE_CUDA(cudaMallocManaged(&managed, sizeof(Matte)));
  REQUIRE_CUDA(cudaMallocManaged(&out, sizeof(float)));
  build<<<1, 1>>>(managed, 0.5f);
  ShadeParams params{static_cast<const Material *>(managed), out};
  shade<<<1, 1>>>(params);
  std::string error = sync_error();
  float expected = 0.5f;
  int bad = error == "cudaSuccess" ? count_mismatches(out, &expected, 1) : 1;
  bool ok = report("cuda-kernel-param-virtual.pointer-member.fixed",
                   "cudaSuccess, 0 mismatches",
                   error + ", " + std::to_string(bad) + " mismatches",
                   error == "cudaSuccess" && bad == 0);
  return ok ? 0 : 1;
}
