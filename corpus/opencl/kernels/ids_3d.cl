__kernel void ids_3d(__global int* out) {
  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  int idx = (z * get_global_size(1) + y) * get_global_size(0) + x;
  out[idx] = x + 10 * y + 100 * z + 1000 * get_local_id(2) + 10000 * get_group_id(2);
}
