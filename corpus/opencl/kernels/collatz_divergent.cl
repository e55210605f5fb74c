// Data-dependent loop trip counts: the lanes of a thread leave the loop at different times.
__kernel void collatz_divergent(__global const uint* start, __global uint* steps) {
  int i = get_global_id(0);
  uint n = start[i], c = 0;
  while (n != 1 && c < 1000) {
    n = (n & 1) ? 3 * n + 1 : n >> 1;
    ++c;
  }
  steps[i] = c;
}
