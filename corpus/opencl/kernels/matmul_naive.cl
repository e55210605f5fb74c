// C = A * B with A: MxK, B: KxN, one work-item per element of C.
__kernel void matmul_naive(__global const float* A, __global const float* B, __global float* C, int K, int N) {
  int row = get_global_id(1);
  int col = get_global_id(0);
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc = fma(A[row * K + k], B[k * N + col], acc);
  C[row * N + col] = acc;
}
