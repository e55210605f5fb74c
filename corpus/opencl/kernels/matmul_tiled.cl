#define TILE 8
// Tiled matrix product through local memory, one barrier per tile phase.
__kernel void matmul_tiled(__global const float* A, __global const float* B, __global float* C, int K, int N) {
  __local float As[TILE][TILE];
  __local float Bs[TILE][TILE];
  int lx = get_local_id(0), ly = get_local_id(1);
  int col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (int t = 0; t < K; t += TILE) {
    As[ly][lx] = A[row * K + t + lx];
    Bs[ly][lx] = B[(t + ly) * N + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TILE; ++k)
      acc = fma(As[ly][k], Bs[k][lx], acc);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[row * N + col] = acc;
}
