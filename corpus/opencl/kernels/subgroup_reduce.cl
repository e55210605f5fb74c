__attribute__((intel_reqd_sub_group_size(16)))
__kernel void subgroup_reduce(__global const int* in, __global int* sums, __global int* maxs) {
  int i = get_global_id(0);
  int v = in[i];
  sums[i] = sub_group_reduce_add(v);
  maxs[i] = sub_group_reduce_max(v);
}
