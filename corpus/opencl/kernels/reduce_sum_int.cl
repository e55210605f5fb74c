// Tree reduction in local memory; one partial sum per work-group.
__kernel void reduce_sum_int(__global const int* in, __global int* partial, __local int* scratch) {
  int l = get_local_id(0);
  scratch[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (l < s) scratch[l] += scratch[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) partial[get_group_id(0)] = scratch[0];
}
