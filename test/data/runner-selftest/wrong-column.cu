// Deliberately wrong: the column below is one past the real one.
void f(int k) {
  auto l = [&k] __device__ (int i) { return i * k; };
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: extended __device__ lambda captures 'k' by reference, but device code cannot reach the host's stack; capture it by value [cuda-lambda-reference-capture]
  // CHECK-FIXES: auto l = [k] __device__ (int i) { return i * k; };
  (void)l;
}
