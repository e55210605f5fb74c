__attribute__((intel_reqd_sub_group_size(16)))
__kernel void subgroup_shuffle(__global const float* in, __global float* out, __global uint* lane) {
  int i = get_global_id(0);
  float v = in[i];
  uint l = get_sub_group_local_id();
  out[i] = intel_sub_group_shuffle(v, (l + 3) & 15) + sub_group_broadcast(v, 5);
  lane[i] = l + 100 * get_sub_group_id();
}
