__kernel void atomic_minmax(__global const int* in, __global int* mn, __global int* mx, __global uint* orx, __global int* xchg_seen) {
  int v = in[get_global_id(0)];
  atomic_min(mn, v);
  atomic_max(mx, v);
  atomic_or(orx, 1u << (v & 31));
  int old = atomic_cmpxchg(xchg_seen, 0, 1);
  (void)old;
}
