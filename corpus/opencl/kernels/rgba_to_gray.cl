__kernel void rgba_to_gray(__global const uchar4* px, __global uchar* gray) {
  int i = get_global_id(0);
  uint4 p = convert_uint4(px[i]);
  gray[i] = (uchar)((77 * p.x + 150 * p.y + 29 * p.z + 128) >> 8);
}
