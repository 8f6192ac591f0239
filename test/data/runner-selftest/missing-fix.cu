// Deliberately wrong: the diagnostic is expected, but the fix-it it carries
// is not, so --fix changes a line that no CHECK-FIXES names.
void f(int k) {
  auto l = [&k] __device__ (int i) { return i * k; };
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: extended __device__ lambda captures 'k' by reference, but device code cannot reach the host's stack; capture it by value [cuda-lambda-reference-capture]
  (void)l;
}
