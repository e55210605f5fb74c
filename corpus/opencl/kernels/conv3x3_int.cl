__constant int weights[9] = {1, 2, 1, 2, 4, 2, 1, 2, 1};
__kernel void conv3x3_int(__global const uchar* img, __global ushort* out, int w, int h) {
  int x = get_global_id(0), y = get_global_id(1);
  int acc = 0;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      int xx = clamp(x + dx, 0, w - 1), yy = clamp(y + dy, 0, h - 1);
      acc += weights[(dy + 1) * 3 + dx + 1] * img[yy * w + xx];
    }
  out[y * w + x] = (ushort)acc;
}
