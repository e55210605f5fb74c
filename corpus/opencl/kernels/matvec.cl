__kernel void matvec(__global const float* M, __global const float* v, __global float* out, int cols) {
  int r = get_global_id(0);
  float acc = 0.0f;
  for (int c = 0; c < cols; ++c)
    acc = fma(M[r * cols + c], v[c], acc);
  out[r] = acc;
}
