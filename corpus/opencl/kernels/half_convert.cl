__kernel void half_convert(__global const float* f, __global half* h, __global float* back) {
  int i = get_global_id(0);
  vstore_half_rte(f[i], i, h);
  back[i] = vload_half(i, h) * 2.0f;
}
