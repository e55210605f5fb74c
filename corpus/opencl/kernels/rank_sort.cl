// Counting (rank) sort: each work-item finds its element's final position.
__kernel void rank_sort(__global const float* in, __global float* out, int n) {
  int i = get_global_id(0);
  float v = in[i];
  int pos = 0;
  for (int j = 0; j < n; ++j) {
    float w = in[j];
    pos += (w < v) || (w == v && j < i);
  }
  out[pos] = v;
}
