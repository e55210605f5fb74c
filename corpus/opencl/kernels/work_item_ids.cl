// Every work-item query the driver answers through the payload.
__kernel void work_item_ids(__global uint* out) {
  size_t gx = get_global_id(0), gy = get_global_id(1);
  size_t flat = gy * get_global_size(0) + gx;
  __global uint* o = out + 10 * flat;
  o[0] = get_global_id(0); o[1] = get_global_id(1);
  o[2] = get_local_id(0); o[3] = get_local_id(1);
  o[4] = get_group_id(0); o[5] = get_group_id(1);
  o[6] = get_local_size(0) * 100 + get_local_size(1);
  o[7] = get_num_groups(0) * 100 + get_num_groups(1);
  o[8] = get_global_size(0) * 1000 + get_global_size(1);
  o[9] = get_work_dim();
}
