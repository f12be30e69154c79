// Binary search over a sorted sequence, read through keyAt(i) (an array's values, the
// elements' offsets, their data-start...).

// The last index i < n with keyAt(i) <= x, or -1 when there is none.
export function lastAtOrBefore(n, keyAt, x) {
  let lo = 0, hi = n - 1, found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (keyAt(mid) <= x) { found = mid; lo = mid + 1; } else hi = mid - 1;
  }
  return found;
}
