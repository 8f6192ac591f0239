// One hazard per side of the compilation: the first lambda exists only in the
// device pass, the second only in the host pass ('[&]' on an extended
// __host__ __device__ lambda; nvcc 13 reports only the second, which its
// front end sees without __CUDA_ARCH__).

#ifdef __CUDA_ARCH__
int device_side(int v) {
  auto square = [&] __host__ __device__ (int i) { return i * i; };
  return square(v);
}
#endif

#ifndef __CUDA_ARCH__
int host_side(int v) {
  auto cube = [&] __host__ __device__ (int i) { return i * i * i; };
  return cube(v);
}
#endif
