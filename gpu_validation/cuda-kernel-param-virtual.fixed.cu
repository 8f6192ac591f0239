// HAZARD: H32  VARIANT: fixed  OWNER: cuda-kernel-param-virtual
// EXPECT: the same object is constructed on the device, with placement new in
// a kernel, so its vtable pointer is the device's; the virtual call computes
// the circle's area.
#include "common.cuh"
#include <new>

struct Shape {
  __host__ __device__ virtual float area() const = 0;
};
struct Circle : Shape {
  float r;
  __host__ __device__ explicit Circle(float r) : r(r) {}
  __host__ __device__ float area() const override { return 3.14159f * r * r; }
};

__global__ void build(void *mem, float r) { new (mem) Circle(r); }
__global__ void area_of(const Shape *s, float *out) { *out = s->area(); }

int main() {
  void *managed;
  float *out;
  REQUIRE_CUDA(cudaMallocManaged(&managed, sizeof(Circle)));
  REQUIRE_CUDA(cudaMallocManaged(&out, sizeof(float)));
  build<<<1, 1>>>(managed, 2.0f);
  area_of<<<1, 1>>>(static_cast<const Shape *>(managed), out);
  std::string error = sync_error();
  float expected = 3.14159f * 2.0f * 2.0f;
  int bad = error == "cudaSuccess" ? count_mismatches(out, &expected, 1) : 1;
  bool ok = report("cuda-kernel-param-virtual.fixed",
                   "cudaSuccess, 0 mismatches",
                   error + ", " + std::to_string(bad) + " mismatches",
                   error == "cudaSuccess" && bad == 0);
  return ok ? 0 : 1;
}
