// HAZARD: H32  VARIANT: buggy  OWNER: cuda-kernel-param-virtual
// EXPECT: an object of a polymorphic class is constructed on the host in
// managed memory and a pointer to it is passed to a kernel; its vtable
// pointer is the host's, and the virtual call on the device fails with
// cudaErrorIllegalAddress. nvcc compiles this silently.
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

__global__ void area_of(const Shape *s, float *out) { *out = s->area(); }

int main() {
  void *managed;
  float *out;
  REQUIRE_CUDA(cudaMallocManaged(&managed, sizeof(Circle)));
  REQUIRE_CUDA(cudaMallocManaged(&out, sizeof(float)));
  Shape *s = new (managed) Circle(2.0f);
  area_of<<<1, 1>>>(s, out);
  std::string error = sync_error();
  bool ok = report("cuda-kernel-param-virtual.buggy",
                   "cudaErrorIllegalAddress", error,
                   error == "cudaErrorIllegalAddress");
  return ok ? 0 : 1;
}
