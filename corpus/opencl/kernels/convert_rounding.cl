__kernel void convert_rounding(__global const float* f, __global const int* n, __global int* out, __global float* fo) {
  int i = get_global_id(0);
  float x = f[i];
  out[4 * i + 0] = convert_int_rte(x);
  out[4 * i + 1] = convert_int_rtz(x);
  out[4 * i + 2] = convert_int_rtp(x);
  out[4 * i + 3] = convert_int_rtn(x);
  fo[2 * i + 0] = convert_float(n[i]);
  fo[2 * i + 1] = convert_float((uint)n[i]);
}
