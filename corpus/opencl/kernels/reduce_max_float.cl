__kernel void reduce_max_float(__global const float* in, __global float* partial) {
  __local float scratch[64];
  int l = get_local_id(0);
  scratch[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = 32; s > 0; s >>= 1) {
    if (l < s) scratch[l] = fmax(scratch[l], scratch[l + s]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) partial[get_group_id(0)] = scratch[0];
}
