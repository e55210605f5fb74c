// Launched with a local size that is not a multiple of the SIMD width.
__kernel void partial_group(__global const int* in, __global int* out) {
  __local int s[24];
  int l = get_local_id(0);
  s[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = s[get_local_size(0) - 1 - l] * 10 + l;
}
