__kernel void atomic_xchg_local(__global const int* in, __global int* out) {
  __local int slot;
  __local int sum;
  if (get_local_id(0) == 0) { slot = 0; sum = 0; }
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_add(&sum, in[get_global_id(0)]);
  atomic_max(&slot, in[get_global_id(0)]);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = sum - slot;
}
