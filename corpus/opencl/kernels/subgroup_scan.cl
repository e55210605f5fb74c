__attribute__((intel_reqd_sub_group_size(16)))
__kernel void subgroup_scan(__global const int* in, __global int* inc, __global int* exc) {
  int i = get_global_id(0);
  inc[i] = sub_group_scan_inclusive_add(in[i]);
  exc[i] = sub_group_scan_exclusive_max(in[i]);
}
