__kernel void float_compare_bits(__global const float* a, __global uint* out) {
  int i = get_global_id(0);
  float x = a[i];
  out[i] = (isnan(x) ? 1u : 0u) | (isinf(x) ? 2u : 0u) | (signbit(x) ? 4u : 0u) | (isnormal(x) ? 8u : 0u)
         | ((as_uint(x) >> 23 & 0xff) << 8) | ((uint)ilogb(x == 0.0f || isnan(x) || isinf(x) ? 1.0f : x) & 0xff) << 16;
}
