// Three-point stencil with a halo staged in local memory.
__kernel void stencil_1d(__global const float* in, __global float* out, __local float* buf, int n) {
  int g = get_global_id(0), l = get_local_id(0), ls = get_local_size(0);
  buf[l + 1] = in[g];
  if (l == 0) buf[0] = g > 0 ? in[g - 1] : 0.0f;
  if (l == ls - 1) buf[ls + 1] = g + 1 < n ? in[g + 1] : 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = 0.25f * buf[l] + 0.5f * buf[l + 1] + 0.25f * buf[l + 2];
}
